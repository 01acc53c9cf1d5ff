import type { LatencySummary } from './latency-summary.js';
import type { LoadReport } from './load-report.js';

// The report as CSV: a header line of field names and one line of values, as SIPp's
// statistics files are laid out, so runs can be appended to one sheet and compared.

const quote = (v: string | number | null) => {
  const s = v === null ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

function timing(prefix: string, s: LatencySummary | null): Array<[string, number | null]> {
  return (['count', 'min', 'avg', 'p50', 'p95', 'p99', 'max'] as const).map((k) => [`${prefix}_${k}`, s ? s[k] : null]);
}

/** The report as two CSV lines (header, values); a failed cause `21` becomes the column `failed_cause_21`. */
export function formatCsv(r: LoadReport): string {
  const fields: Array<[string, string | number | null]> = [
    ['url', r.target.url], ['app', r.target.app], ['endpoint', r.target.endpoint], ['extension', r.target.extension], ['context', r.target.context],
    ['rate', r.settings.rate], ['concurrent', r.settings.concurrent], ['wall_ms', r.wall_ms],
    ['attempted', r.calls.attempted], ['answered', r.calls.answered], ['failed', r.calls.failed], ['refused', r.calls.refused],
    ['timed_out', r.calls.timed_out], ['asr_percent', r.calls.asr_percent], ['max_concurrent', r.calls.max_concurrent],
    ['average_call_duration_ms', r.average_call_duration_ms],
    ...timing('setup_stasis_start_ms', r.setup_ms.stasis_start), ...timing('setup_answer_ms', r.setup_ms.answer),
    ...timing('dtmf_response_ms', r.dtmf_response_ms), ...timing('place_request_ms', r.place_request_ms),
    ...r.failed_by_cause.map((c): [string, number] => [`failed_cause_${c.cause ?? 'other'}`, c.count]),
  ];
  // Causes without a code (refusals, unknown ends) share one column.
  const merged = new Map<string, string | number | null>();
  for (const [k, v] of fields) merged.set(k, typeof v === 'number' && typeof merged.get(k) === 'number' ? (merged.get(k) as number) + v : v);
  return `${[...merged.keys()].join(',')}\n${[...merged.values()].map(quote).join(',')}\n`;
}
