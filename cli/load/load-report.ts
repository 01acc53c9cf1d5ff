import { summarise, type LatencySummary } from './latency-summary.js';
import type { LoadCall } from './load-call.js';
import type { LoadOutcome, LoadPlan } from './run-load.js';

/** Calls grouped by how they ended. `cause` is the Q.850 code, null for calls the server refused or whose end is unknown. */
export interface CauseCount {
  cause: number | null;
  cause_txt: string;
  count: number;
}

/** What `trunkline load` reports (also its --json form). Times are milliseconds between server timestamps (wall time on the real clock) unless named otherwise. */
export interface LoadReport {
  target: { url: string; app: string; endpoint: string; extension: string; context: string | null };
  settings: { calls: number | null; rate: number; concurrent: number; duration_s: number | null; call_timeout_s: number; time_scale: number | null; script: string };
  /** Wall milliseconds from the first call placed to the last one ended. */
  wall_ms: number;
  calls: { attempted: number; answered: number; failed: number; refused: number; timed_out: number; asr_percent: number; max_concurrent: number };
  /** Calls never answered, by how they ended. */
  failed_by_cause: CauseCount[];
  /** Every call, by how it ended. */
  ended_by_cause: CauseCount[];
  /** Mean time from answer to hangup over the answered calls that ended. */
  average_call_duration_ms: number | null;
  /** From the channel's creationtime to its StasisStart, and to its answer. */
  setup_ms: { stasis_start: LatencySummary | null; answer: LatencySummary | null };
  /** From the last digit the caller pressed (ChannelDtmfReceived) to the app's next action on the channel. */
  dtmf_response_ms: LatencySummary | null;
  /** Wall milliseconds of the placeCall request itself, on the tool's clock. */
  place_request_ms: LatencySummary | null;
  /** Why the run stopped early, when it did. */
  error?: string;
}

/** Where the run went and how it was asked for. */
export interface ReportContext {
  url: string;
  plan: LoadPlan;
  timeScale: number | null;
  script: string;
}

function byCause(calls: LoadCall[]): CauseCount[] {
  const groups = new Map<string, CauseCount>();
  for (const c of calls) {
    const g: Omit<CauseCount, 'count'> = c.refused
      ? { cause: null, cause_txt: `refused by the server: ${c.refused}` }
      : c.cause !== undefined
        ? { cause: c.cause, cause_txt: c.causeTxt ?? 'Unknown' }
        : { cause: null, cause_txt: 'end not known (not in the history)' };
    const key = `${g.cause}|${g.cause_txt}`;
    const cur = groups.get(key) ?? { ...g, count: 0 };
    cur.count++;
    groups.set(key, cur);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || (a.cause ?? 999) - (b.cause ?? 999));
}

const spans = (calls: LoadCall[], from: (c: LoadCall) => number | undefined, to: (c: LoadCall) => number | undefined) =>
  calls.flatMap((c) => {
    const a = from(c);
    const b = to(c);
    return a === undefined || b === undefined ? [] : [b - a];
  });

/** Counts and figures of one run. */
export function buildReport(ctx: ReportContext, o: LoadOutcome): LoadReport {
  const { plan } = ctx;
  const answered = o.calls.filter((c) => c.answered !== undefined || c.upAtStasis);
  const failed = o.calls.filter((c) => !(c.answered !== undefined || c.upAtStasis));
  const durations = spans(answered, (c) => c.answered, (c) => c.ended);
  const attempted = o.calls.length;
  const report: LoadReport = {
    target: { url: ctx.url, app: plan.app, endpoint: plan.endpoint, extension: plan.extension, context: plan.context ?? null },
    settings: { calls: plan.calls ?? null, rate: plan.rate, concurrent: plan.concurrent, duration_s: plan.durationS ?? null, call_timeout_s: plan.callTimeoutS, time_scale: ctx.timeScale, script: ctx.script },
    wall_ms: Math.round(o.wallMs),
    calls: {
      attempted, answered: answered.length, failed: failed.length,
      refused: o.calls.filter((c) => c.refused).length, timed_out: o.calls.filter((c) => c.timedOut).length,
      asr_percent: attempted ? Math.round((answered.length / attempted) * 1000) / 10 : 0, max_concurrent: o.maxLive,
    },
    failed_by_cause: byCause(failed),
    ended_by_cause: byCause(o.calls),
    average_call_duration_ms: durations.length ? Math.round(durations.reduce((a, b) => a + b, 0) / durations.length) : null,
    setup_ms: { stasis_start: summarise(spans(o.calls, (c) => c.created, (c) => c.stasisStart)), answer: summarise(spans(o.calls, (c) => c.created, (c) => c.answered)) },
    dtmf_response_ms: summarise(o.dtmfLatencies),
    place_request_ms: summarise(spans(o.calls, (c) => c.sentAt, (c) => c.repliedAt)),
  };
  if (o.error) report.error = o.error;
  return report;
}
