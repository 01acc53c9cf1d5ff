// Small waits for the IVR's tests. The app reacts to an event a moment after the server sent
// it, so a test that moves the virtual clock waits for the reaction first (the next prompt has
// started, the bridge exists), and the reaction lands at the instant the clock stands at.

const WAIT_MS = 30_000;

/** Polls `check` until it returns something other than undefined/false, and resolves with that. */
export async function waitFor(check, what, lastSeen = () => '') {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${lastSeen()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until the caller's newest heard item is `media` (a prompt that has started), and resolves with the whole list. */
export function untilHeard(call, media) {
  return untilNewest(call, (item) => item?.media === media, media);
}

/** Waits until the caller's newest heard item is of `kind` (moh, bridge, …). */
export function untilHeardKind(call, kind) {
  return untilNewest(call, (item) => item?.kind === kind, kind);
}

function untilNewest(call, test, what) {
  let items = [];
  return waitFor(async () => {
    items = await call.heard();
    return test(items.at(-1)) ? items : undefined;
  }, `${call.id} to hear ${what}`, () => `; it heard ${JSON.stringify(items)}`);
}

/** Waits until the call has ended (it is in the history), and resolves with its record. */
export function untilEnded(pbx, call) {
  return waitFor(async () => (await pbx.sim.history({ limit: 20 })).find((c) => c.id === call.id), `${call.id} to end`);
}

/** An ARI request as the test's own client (GET /ari/bridges, …): the parsed answer. */
export async function ariGet(pbx, path) {
  const r = await fetch(`${pbx.ari.url}${path}`, { headers: { authorization: basic(pbx) } });
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

/**
 * Whole milliseconds of the bundled sounds the IVR plays (welcome lasts 1300.75 ms, so 1300):
 * a prompt's end falls on the millisecond after its last sample, so playOut() advances this
 * much, then a millisecond at a time until the prompt has ended.
 */
export const MS = { welcome: 1300, menu: 1280, menuWait: 5000, invalid: 500, goodbye: 589, intro: 2058, beep: 250, saved: 2594, digit: 100 };

/**
 * Moves the clock `ms`, then a millisecond at a time, until the caller's newest item of `media`
 * has ended: the app is sent the prompt's end with the clock standing exactly there.
 */
export function playOut(pbx, call, media, ms) {
  return advanceUntil(pbx, ms, async () => {
    const items = await call.heard();
    return items.findLast((i) => i.media === media)?.duration_ms !== undefined && items;
  }, `${media} to end for ${call.id}`);
}

/**
 * Moves the clock `ms`, then `step` ms at a time (1 by default, at most `steps` times), until
 * `check` holds: with steps of 1 ms it stops at the instant the awaited thing happened, so the
 * app reacts there.
 */
export async function advanceUntil(pbx, ms, check, what, { step = 1, steps = 100 } = {}) {
  await pbx.clock.advance(ms);
  for (let n = 0; n <= steps; n++) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    await pbx.clock.advance(step);
  }
  throw new Error(`no ${what} within ${step * steps} ms after ${ms} ms`);
}

/** A heard item as the tests compare it: without its instant, and without the length of one cut short (which depends on where the 20 ms frames fall). */
export const untimed = ({ at, ...item }) => {
  if (item.completed === false) delete item.duration_ms;
  return item;
};

/** The status of an ARI GET as the test's own client. */
export async function ariStatus(pbx, path) {
  const r = await fetch(`${pbx.ari.url}${path}`, { headers: { authorization: basic(pbx) } });
  await r.arrayBuffer();
  return r.status;
}

const basic = (pbx) => `Basic ${Buffer.from(`${pbx.ari.username}:${pbx.ari.password}`).toString('base64')}`;
