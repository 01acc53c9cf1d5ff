import * as assert from 'uvu/assert';
import type { TestServer } from './server.js';

// The simulation clock as tests on SIM_CLOCK=virtual drive it: instants as event timestamps show
// them (TZ=UTC in tests), where the clock stands, and advancing it.

/** Where a virtual clock starts without SIM_CLOCK_START. */
export const VIRTUAL_START = Date.UTC(2025, 0, 1);
/** An instant as event timestamps show it. */
export const stamp = (ms: number) => new Date(ms).toISOString().replace('Z', '+0000');
/** The instant of an event timestamp. */
export const instant = (ts: string) => Date.parse(ts.replace(/\+0000$/, 'Z'));

/** Where the clock stands (GET /sim/clock). */
export async function clockNow(t: TestServer): Promise<number> {
  return instant((await t.http('GET', '/sim/clock')).body.now);
}

/** POST /sim/clock/advance by `by` ms (or with the given query: until=idle…); asserts the 200 `{now}` and returns it. */
export async function advance(t: TestServer, by: number | Record<string, string>): Promise<number> {
  const query = typeof by === 'number' ? { ms: String(by) } : by;
  const r = await t.http('POST', '/sim/clock/advance', { query });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal(Object.keys(r.body), ['now']);
  return instant(r.body.now);
}

/** Moves the clock to the next 20 ms media frame boundary (frames count from the default start). */
export async function alignToFrame(t: TestServer): Promise<number> {
  const now = await clockNow(t);
  const rest = (20 - ((now - VIRTUAL_START) % 20)) % 20;
  return rest ? advance(t, rest) : now;
}
