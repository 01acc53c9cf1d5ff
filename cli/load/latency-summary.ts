/** Count, extremes, mean and nearest-rank percentiles of a list of milliseconds. */
export interface LatencySummary {
  count: number;
  min: number;
  avg: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/**
 * Summarises samples (ms). Percentiles are nearest-rank: the smallest sample at or above
 * which that share of the samples lie, so each is a value that was measured. Null without samples.
 */
export function summarise(samples: number[]): LatencySummary | null {
  if (!samples.length) return null;
  const sorted = Float64Array.from(samples).sort();
  const rank = (p: number) => sorted[Math.max(0, Math.ceil((p * sorted.length) / 100) - 1)]!;
  let sum = 0;
  for (const x of sorted) sum += x;
  const round = (x: number) => Math.round(x * 10) / 10;
  return { count: sorted.length, min: round(sorted[0]!), avg: round(sum / sorted.length), p50: round(rank(50)), p95: round(rank(95)), p99: round(rank(99)), max: round(sorted.at(-1)!) };
}
