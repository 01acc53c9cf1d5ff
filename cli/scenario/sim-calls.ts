import type { ScriptStep } from '../../protocol/sim/script.js';
import { requestJson, type JsonReply, type ScenarioHost } from './scenario-host.js';

// Every request the runner makes to the simulation API (/sim), in one place, so it can move to
// the typed client of the package without touching the rest of the runner.

/** What one call of a scenario asks POST /sim/calls for. */
export interface PlaceCall {
  endpoint: string;
  extension: string;
  context?: string | undefined;
  channelId: string;
  variables: Record<string, string>;
  script?: ScriptStep[] | unknown[] | undefined;
}

/** POST /sim/calls: the far end calls in; 200 with the channel, or the server's refusal. */
export function placeCall(host: ScenarioHost, c: PlaceCall): Promise<JsonReply> {
  const query = { endpoint: c.endpoint, extension: c.extension, context: c.context, channelId: c.channelId };
  return requestJson(host, 'POST', '/sim/calls', query, { variables: c.variables, ...(c.script ? { script: c.script } : {}) });
}

/** POST /sim/clock/advance?ms=N; resolves with the instant reached (epoch ms). */
export async function advanceClock(host: ScenarioHost, ms: number): Promise<number> {
  return instantOf(await requestJson(host, 'POST', '/sim/clock/advance', { ms: String(ms) }));
}

/** POST /sim/clock/advance?until=idle&max_ms=N. */
export async function advanceUntilIdle(host: ScenarioHost, maxMs: number): Promise<number> {
  return instantOf(await requestJson(host, 'POST', '/sim/clock/advance', { until: 'idle', max_ms: String(maxMs) }));
}

/** GET /sim/clock: the mode and the instant (epoch ms). */
export async function readClock(host: ScenarioHost): Promise<{ mode: string; now: number }> {
  const r = await requestJson(host, 'GET', '/sim/clock');
  return { mode: r.body?.mode, now: instantOf(r) };
}

/** Whether the channel is still live, as its far end sees it (GET /sim/channels/{id}). */
export async function channelLive(host: ScenarioHost, id: string): Promise<boolean> {
  const r = await requestJson(host, 'GET', `/sim/channels/${encodeURIComponent(id)}`);
  return r.status === 200;
}

/** GET /sim/channels/{id}/heard: what the far end was sent (an empty list when the channel is unknown). */
export async function heardBy(host: ScenarioHost, id: string): Promise<Array<Record<string, unknown>>> {
  const r = await requestJson(host, 'GET', `/sim/channels/${encodeURIComponent(id)}/heard`);
  return r.status === 200 ? r.body.items : [];
}

/** The history record of an ended channel (GET /sim/history), or undefined while it is live or once it is gone from the history. */
export async function endedCall(host: ScenarioHost, id: string): Promise<Record<string, any> | undefined> {
  const r = await requestJson(host, 'GET', '/sim/history', { limit: '1000' });
  return r.status === 200 ? (r.body as Array<Record<string, any>>).find((c) => c.id === id) : undefined;
}

function instantOf(r: JsonReply): number {
  if (r.status !== 200 || typeof r.body?.now !== 'string') throw new Error(`the clock answered ${r.status}: ${JSON.stringify(r.body)}`);
  return Date.parse(r.body.now.replace(/\+0000$/, 'Z'));
}
