// Waiting for something to happen, on any machine.

/**
 * How long a wait for something that must happen gives up after. Generous on purpose: it only
 * bounds how long a broken test hangs; a busy machine must never make a correct server fail.
 * (Timing targets live in bench/; tests never assert wall-clock upper bounds.)
 */
export const WAIT_MS = 30_000;

/** Resolves after `ms` of wall-clock time (for pacing only; waits for a state use waitUntil/pollUntil). */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `cond` every `everyMs` until it holds or `timeoutMs` has passed, and resolves whether it
 * held: for waits whose outcome the test then asserts itself (with its own message).
 */
export async function pollUntil(cond: () => boolean | Promise<boolean>, timeoutMs = WAIT_MS, everyMs = 10): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
  return true;
}

/** Polls `cond` every `everyMs` until it holds; throws (naming `what`) after `timeoutMs`. For states no event announces. */
export async function waitUntil(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = WAIT_MS, everyMs = 10): Promise<void> {
  if (!(await pollUntil(cond, timeoutMs, everyMs))) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
}

/** Waits until the wall clock is in a later second than `epochSeconds` (for values stored with one-second resolution). */
export async function nextSecondAfter(epochSeconds: number): Promise<void> {
  while (Math.floor(Date.now() / 1000) <= epochSeconds) await sleep(10);
}
