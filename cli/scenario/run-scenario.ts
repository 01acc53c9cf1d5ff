import { resolve } from 'node:path';
import { TrunklineError } from '../../client/trunkline-error.js';
import type { ScriptStep } from '../../protocol/sim/script.js';
import { AppProcess } from './app-process.js';
import { liveVariable } from './ari-reads.js';
import { judgeHeard, judgeVariable } from './end-expectations.js';
import { judgeEvents } from './event-expectations.js';
import type { ExpectationResult } from './expectation-result.js';
import type { ScenarioHost } from './scenario-host.js';
import type { Scenario, ScenarioCall } from './scenario-schema.js';
import { advanceClock, channelLive, endedCall, heardBy, placeCall, readClock } from './sim-calls.js';
import { TapStream, type TappedEvent } from './tap-stream.js';

/** Defaults of a scenario's `expect` timing. */
export const RUN_DEFAULTS = { timeoutMs: 60_000, stepMs: 100, settleMs: 200 } as const;

/** Where the runner looks for what a file names (the app's cwd is relative to the file's folder). */
export interface RunOptions {
  baseDir: string;
}

/** Everything one run found out: each expectation's result, or why the run could not happen at all. */
export interface ScenarioResult {
  name: string;
  passed: boolean;
  /** Set when the run could not be carried out (the app did not start, a call was refused…). */
  error?: string;
  results: ExpectationResult[];
  events: TappedEvent[];
  /** What each call's far end heard, by call id, at the end of the run. */
  heard: Record<string, Array<Record<string, unknown>>>;
  appOutput: string[];
  /** Simulated milliseconds from the first call to the end of the run. */
  simulatedMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `1000@default` → extension and context. */
function target(to: string): { extension: string; context?: string } {
  const at = to.indexOf('@');
  return at < 0 ? { extension: to } : { extension: to.slice(0, at), context: to.slice(at + 1) };
}

/**
 * Runs one scenario against a running server: starts the app, places the calls, moves the
 * clock in steps (letting the app settle after each step that sent it events), stops once every
 * call has ended or `timeout_ms` of simulated time has passed, then judges the expectations.
 */
export async function runScenario(scenario: Scenario, host: ScenarioHost, options: RunOptions): Promise<ScenarioResult> {
  const out: ScenarioResult = { name: scenario.name, passed: false, results: [], events: [], heard: {}, appOutput: [], simulatedMs: 0 };
  let tap: TapStream | undefined;
  let app: AppProcess | undefined;
  try {
    // The tap first, so the app's very first events are seen.
    tap = await TapStream.open(host, scenario.app.name);
    out.events = tap.events;
    const spec = { ...scenario.app, cwd: resolve(options.baseDir, scenario.app.cwd ?? '.') };
    app = AppProcess.start(spec, host);
    out.appOutput = app.output;
    await app.waitReady(spec, host);
    const clock = await readClock(host.sim);
    const wanted = scenario.clock ?? 'virtual';
    if (clock.mode !== wanted) throw new Error(`the scenario wants the ${wanted} clock but the server runs the ${clock.mode} one`);
    const placed = await drive(scenario, host, tap, clock.now, wanted === 'virtual');
    out.simulatedMs = placed.elapsed;
    out.results = await judge(scenario, host, tap.events, placed, out.heard);
    out.passed = out.results.every((r) => r.pass);
  } catch (err) {
    out.error = (err as Error).message;
  } finally {
    await app?.stop();
    tap?.close();
  }
  return out;
}

interface Driven {
  calls: Map<string, { channelId: string; placedAt: number }>;
  start: number;
  elapsed: number;
}

/** Places the calls at their instants and moves time on until they have all ended or the timeout passes. */
async function drive(s: Scenario, host: ScenarioHost, tap: TapStream, start: number, virtual: boolean): Promise<Driven> {
  const timeout = s.expect.timeout_ms ?? RUN_DEFAULTS.timeoutMs;
  const step = s.expect.step_ms ?? RUN_DEFAULTS.stepMs;
  const settleMs = s.expect.settle_ms ?? RUN_DEFAULTS.settleMs;
  const pending = [...s.calls].sort((a, b) => (a.at_ms ?? 0) - (b.at_ms ?? 0));
  const calls = new Map<string, { channelId: string; placedAt: number }>();
  let now = start;
  /** After time moved: wait for the tap, and when the app was sent something, for it to react. */
  const settle = async (seen: number) => {
    await tap.catchUp();
    if (tap.events.length > seen) await tap.settle(settleMs);
    if (tap.closed) throw new Error(tap.closed);
  };
  for (;;) {
    while (pending.length && (pending[0]!.at_ms ?? 0) <= now - start) {
      const c = pending.shift()!;
      const seen = tap.events.length;
      await place(c, s.app.name, host);
      calls.set(c.id, { channelId: c.id, placedAt: now });
      await settle(seen);
    }
    if (!pending.length && (await allEnded(host, calls))) break;
    if (now - start >= timeout) break;
    const nextCall = pending.length ? start + (pending[0]!.at_ms ?? 0) : Infinity;
    const by = Math.min(step, nextCall - now, start + timeout - now);
    const seen = tap.events.length;
    if (virtual) now = await advanceClock(host.sim, by);
    else {
      await sleep(Math.min(by, 50));
      now = (await readClock(host.sim)).now;
    }
    await settle(seen);
  }
  return { calls, start, elapsed: now - start };
}

async function place(c: ScenarioCall, app: string, host: ScenarioHost): Promise<void> {
  try {
    await placeCall(host.sim, { endpoint: c.from, ...target(c.to), channelId: c.id, variables: { STASIS_APP: app, ...c.variables }, script: c.script as ScriptStep[] | undefined });
  } catch (e) {
    throw new Error(`call ${c.id} could not be placed: ${e instanceof TrunklineError ? `${e.status} ${JSON.stringify(e.body)}` : (e as Error).message}`);
  }
}

async function allEnded(host: ScenarioHost, calls: Map<string, { channelId: string }>): Promise<boolean> {
  for (const c of calls.values()) if (await channelLive(host.sim, c.channelId)) return false;
  return true;
}

/** Judges every expectation once the run is over; fills in what each call heard. */
async function judge(s: Scenario, host: ScenarioHost, events: TappedEvent[], d: Driven, heard: ScenarioResult['heard']): Promise<ExpectationResult[]> {
  for (const c of s.calls) heard[c.id] = await heardBy(host.sim, c.id);
  const results = judgeEvents(s.expect.events ?? [], { events, calls: d.calls, start: d.start });
  for (const [i, x] of (s.expect.heard ?? []).entries()) results.push(judgeHeard(x, i, heard[x.call] ?? []));
  for (const [i, x] of (s.expect.variables ?? []).entries()) {
    const ended = await endedCall(host.sim, x.call);
    const value = ended ? ended.variables?.[x.name] : await liveVariable(host, x.call, x.name);
    results.push(judgeVariable(x, i, value));
  }
  return results;
}
