import type { LatencySummary } from './latency-summary.js';
import type { CauseCount, LoadReport } from './load-report.js';

// The report as the final table on stdout: counts first, then the timing figures in columns.

const pad = (s: string, n: number) => s.padEnd(n);
const num = (x: number | null | undefined) => (x === null || x === undefined ? '-' : String(x));

function timingRow(name: string, s: LatencySummary | null): string {
  if (!s) return `  ${pad(name, 28)}${pad('0', 8)}(no samples)`;
  return `  ${pad(name, 28)}${[s.count, s.min, s.avg, s.p50, s.p95, s.p99, s.max].map((x) => pad(String(x), 8)).join('')}`.trimEnd();
}

function causeRows(list: CauseCount[]): string[] {
  if (!list.length) return ['  (none)'];
  return list.map((c) => `  ${pad(String(c.count), 8)}${c.cause === null ? '' : `${c.cause} `}${c.cause_txt}`);
}

/** The report as plain text. */
export function formatTable(r: LoadReport): string {
  const c = r.calls;
  const lines = [
    `Load: ${r.target.endpoint} → ${r.target.extension}${r.target.context ? `@${r.target.context}` : ''} into ${r.target.app} at ${r.target.url}`,
    `Asked: ${r.settings.calls ?? 'unlimited'} calls, ${r.settings.rate}/s, at most ${r.settings.concurrent} at once${r.settings.duration_s !== null ? `, for ${r.settings.duration_s} s` : ''}; script: ${r.settings.script}${r.settings.time_scale !== null ? `; time scale ${r.settings.time_scale}` : ''}`,
    `Ran: ${(r.wall_ms / 1000).toFixed(1)} s (wall)`,
    '',
    `  ${pad('Attempted', 18)}${c.attempted}`,
    `  ${pad('Answered', 18)}${c.answered}`,
    `  ${pad('Failed', 18)}${c.failed}${c.refused ? ` (${c.refused} refused by the server)` : ''}`,
    `  ${pad('Timed out', 18)}${c.timed_out}`,
    `  ${pad('ASR', 18)}${c.asr_percent}%`,
    `  ${pad('ACD', 18)}${num(r.average_call_duration_ms)} ms`,
    `  ${pad('Most at once', 18)}${c.max_concurrent}`,
    '',
    'Failed calls by cause:',
    ...causeRows(r.failed_by_cause),
    'All calls by how they ended:',
    ...causeRows(r.ended_by_cause),
    '',
    `  ${pad('Times (ms)', 28)}${['count', 'min', 'avg', 'p50', 'p95', 'p99', 'max'].map((h) => pad(h, 8)).join('')}`.trimEnd(),
    timingRow('placed → StasisStart', r.setup_ms.stasis_start),
    timingRow('placed → answer', r.setup_ms.answer),
    timingRow('digit → app reaction', r.dtmf_response_ms),
    timingRow('placeCall request (wall)', r.place_request_ms),
  ];
  if (r.error) lines.push('', `The run stopped early: ${r.error}`);
  return `${lines.join('\n')}\n`;
}
