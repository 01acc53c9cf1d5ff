import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { TrunklineError } from '../../client/trunkline-error.js';
import type { ScriptStep } from '../../protocol/sim/script.js';
import type { ScenarioHost } from '../scenario/scenario-host.js';
import type { TapStream } from '../scenario/tap-stream.js';
import { applyEvent, channelOf, instantOf, type LoadCall } from './load-call.js';

/** What to place, how fast, and for how long. */
export interface LoadPlan {
  endpoint: string;
  extension: string;
  context?: string | undefined;
  app: string;
  script: ScriptStep[];
  calls?: number | undefined;
  rate: number;
  concurrent: number;
  durationS?: number | undefined;
  callTimeoutS: number;
}

/** A moment of the run, for the progress line. */
export interface LoadProgress {
  elapsedMs: number;
  placed: number;
  live: number;
  answered: number;
  ended: number;
  refused: number;
}

/** Everything the run observed; the report is computed from it. */
export interface LoadOutcome {
  calls: LoadCall[];
  dtmfLatencies: number[];
  /** The most calls the tool held at once (placed and not seen ended). */
  maxLive: number;
  wallMs: number;
  /** Why the run stopped early (the server went away, the tap closed…), if it did. */
  error?: string;
  /** Whether that was the server refusing the first call as a bad request (the command line's fault), not the server going away. */
  refusedFirst?: boolean;
}

/** The server cannot be reached any more: the run stops. */
export class ServerGoneError extends Error {}

/** Wall ms between two looks at calls the tap says nothing about. */
const SWEEP_MS = 500;
/** A call with no StasisStart this long after its answer is checked on through the simulation API. */
const QUIET_MS = 1000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Places calls at `rate` per second on a steady schedule (held-back calls move it on, so calls
 * never bunch up to catch up), holding at most
 * `concurrent` at once, until `calls` were placed or `durationS` passed; then waits for the
 * calls still up (each is hung up `callTimeoutS` after it was placed). A call ends for the
 * tool when the tap shows its ChannelDestroyed, or when the simulation API no longer knows it
 * (calls that never reached the app, or left it before hanging up).
 */
export async function runLoad(host: ScenarioHost, tap: TapStream, plan: LoadPlan, progress: (p: LoadProgress) => void, stop: { requested: boolean }): Promise<LoadOutcome> {
  const runId = randomBytes(4).toString('hex');
  const byId = new Map<string, LoadCall>();
  const live = new Map<string, LoadCall>();
  const out: LoadOutcome = { calls: [], dtmfLatencies: [], maxLive: 0, wallMs: 0 };
  let answered = 0;
  let ended = 0;
  let refused = 0;
  let slotFreed: (() => void) | undefined;
  const finish = (c: LoadCall) => {
    if (!live.delete(c.id)) return;
    ended++;
    slotFreed?.();
  };
  tap.onEvent((e) => {
    const id = channelOf(e);
    const call = id === undefined ? undefined : byId.get(id);
    if (!call) return;
    const before = call.answered !== undefined || call.upAtStasis;
    const r = applyEvent(call, e, performance.now());
    if (!before && (call.answered !== undefined || call.upAtStasis)) answered++;
    if (r.latency !== undefined) out.dtmfLatencies.push(r.latency);
    if (r.destroyed) finish(call);
  });

  const t0 = performance.now();
  const deadline = plan.durationS === undefined ? Infinity : t0 + plan.durationS * 1000;
  const limit = plan.calls ?? Infinity;
  const snapshot = (): LoadProgress => ({ elapsedMs: performance.now() - t0, placed: out.calls.length, live: live.size, answered, ended, refused });
  const ticker = setInterval(() => progress(snapshot()), 250);
  let fatal: Error | undefined;

  const place = async (call: LoadCall) => {
    try {
      const ch = await host.sim.placeCall({
        endpoint: plan.endpoint, extension: plan.extension, channelId: call.id, variables: { STASIS_APP: plan.app }, script: plan.script,
        ...(plan.context !== undefined ? { context: plan.context } : {}),
      });
      call.repliedAt = performance.now();
      call.created ??= instantOf(ch.creationtime);
    } catch (e) {
      call.repliedAt = performance.now();
      if (!(e instanceof TrunklineError)) {
        fatal ??= new ServerGoneError(`the server did not answer placeCall: ${(e as Error).message}`);
        finish(call);
        return;
      }
      const msg = (e.body as { message?: string } | undefined)?.message ?? '';
      call.refused = `${e.status}${msg ? ` ${msg}` : ''}`;
      refused++;
      // The first call refused as a bad request means the command line names something the server does not have.
      if (e.status === 400 && call === out.calls[0] && !fatal) {
        fatal = new Error(`the server refused the first call: ${call.refused}`);
        out.refusedFirst = true;
      }
      finish(call);
    }
  };

  const sweeping = sweep(host, live, plan.callTimeoutS * 1000, finish, () => fatal, (e) => (fatal ??= e));
  let next = t0;
  while (out.calls.length < limit && !stop.requested && !fatal && !tap.closed) {
    while (live.size >= plan.concurrent && !fatal && !tap.closed && !stop.requested && performance.now() < deadline) await new Promise<void>((r) => ((slotFreed = r), setTimeout(r, SWEEP_MS)));
    slotFreed = undefined;
    const wait = next - performance.now();
    if (wait > 0) await sleep(wait);
    if (performance.now() >= deadline || fatal || tap.closed || stop.requested || live.size >= plan.concurrent) {
      if (performance.now() >= deadline) break;
      continue;
    }
    const call: LoadCall = { id: `load-${runId}-${out.calls.length + 1}`, sentAt: performance.now() };
    out.calls.push(call);
    byId.set(call.id, call);
    live.set(call.id, call);
    out.maxLive = Math.max(out.maxLive, live.size);
    void place(call);
    // A steady schedule keeps the rate exact; a call that was held back (a full concurrency
    // cap, a busy event loop) moves the schedule on instead of letting the next calls bunch up.
    next += 1000 / plan.rate;
    if (next < call.sentAt) next = call.sentAt + 1000 / plan.rate;
  }
  while (live.size && !fatal && !tap.closed) await sleep(50);
  sweeping.stop();
  await sweeping.done;
  clearInterval(ticker);
  progress(snapshot());
  out.wallMs = performance.now() - t0;
  if (fatal) out.error = (fatal as Error).message;
  else if (tap.closed) out.error = tap.closed;
  return out;
}

/**
 * Looks after the calls the tap is quiet about, every SWEEP_MS: one with no StasisStart a
 * while after it was placed, or whose StasisEnd came without a ChannelDestroyed, is asked for
 * through the simulation API (gone: ended); one up longer than the time-out is hung up by its
 * far end (cause 16) and marked timed out.
 */
function sweep(host: ScenarioHost, live: Map<string, LoadCall>, timeoutMs: number, finish: (c: LoadCall) => void, failed: () => Error | undefined, fail: (e: Error) => void) {
  let stopped = false;
  const gone = async (fn: () => Promise<unknown>): Promise<boolean> => {
    try {
      await fn();
      return false;
    } catch (e) {
      if (e instanceof TrunklineError && e.status === 404) return true;
      if (!(e instanceof TrunklineError)) fail(new ServerGoneError(`the server stopped answering: ${(e as Error).message}`));
      return false;
    }
  };
  const done = (async () => {
    while (!stopped && !failed()) {
      await sleep(SWEEP_MS);
      const now = performance.now();
      for (const c of [...live.values()]) {
        if (stopped || failed()) break;
        if (c.repliedAt === undefined) continue;
        if (now - c.sentAt > timeoutMs && !c.timedOut) {
          c.timedOut = true;
          if (await gone(() => host.sim.hangup({ channelId: c.id, cause: 16 }))) finish(c);
        } else if ((c.stasisStart === undefined && now - c.repliedAt > QUIET_MS) || (c.stasisEndAt !== undefined && now - c.stasisEndAt > SWEEP_MS) || c.timedOut) {
          if (await gone(() => host.sim.getChannel({ channelId: c.id }))) finish(c);
        }
      }
    }
  })();
  return { done, stop: () => void (stopped = true) };
}
