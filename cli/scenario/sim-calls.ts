import type { SimClient } from '../../client/sim-client.js';
import { TrunklineError } from '../../client/trunkline-error.js';
import type { ScriptStep } from '../../protocol/sim/script.js';
import { parseAriTimestamp } from '../../server/util/timestamp.js';

// What the runner asks of the simulation API, over the package's typed client.

/** What one call of a scenario asks POST /sim/calls for. */
export interface PlaceCall {
  endpoint: string;
  extension: string;
  context?: string | undefined;
  channelId: string;
  variables: Record<string, string>;
  script?: ScriptStep[] | undefined;
}

/** The far end calls in; rejects with the server's refusal (a TrunklineError). */
export async function placeCall(sim: SimClient, c: PlaceCall): Promise<void> {
  await sim.placeCall({
    endpoint: c.endpoint, extension: c.extension, channelId: c.channelId, variables: c.variables,
    ...(c.context !== undefined ? { context: c.context } : {}), ...(c.script ? { script: c.script } : {}),
  });
}

/** Advances the virtual clock by `ms`; resolves with the instant reached (epoch ms). */
export async function advanceClock(sim: SimClient, ms: number): Promise<number> {
  return parseAriTimestamp((await sim.advanceClock({ ms })).now);
}

/** The clock's mode and instant (epoch ms). */
export async function readClock(sim: SimClient): Promise<{ mode: string; now: number }> {
  const c = await sim.getClock();
  return { mode: c.mode, now: parseAriTimestamp(c.now) };
}

/** Whether the channel is still live, as its far end sees it. */
export async function channelLive(sim: SimClient, id: string): Promise<boolean> {
  return (await orNotFound(() => sim.getChannel({ channelId: id }))) !== undefined;
}

/** What the far end was sent (an empty list when the channel is unknown). */
export async function heardBy(sim: SimClient, id: string): Promise<Array<Record<string, unknown>>> {
  return (await orNotFound(() => sim.heard({ channelId: id })))?.items ?? [];
}

/** The history record of an ended channel, or undefined while it is live or once it is gone from the history. */
export async function endedCall(sim: SimClient, id: string): Promise<Record<string, any> | undefined> {
  return ((await sim.history({ limit: 1000 })) as Array<Record<string, any>>).find((c) => c.id === id);
}

/** The answer, or undefined for a 404. */
async function orNotFound<T>(fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof TrunklineError && e.status === 404) return undefined;
    throw e;
  }
}
