import * as assert from 'uvu/assert';
import { globCounters } from '../../server/util/glob/glob.js';
import type { GiteaWorld } from './gitea.js';

/** The glob of the security report: regular-expression backtracking made it exponential on a run of a's. */
export const HOSTILE_GLOB = '**a**a**a**a**a**a**a**a**a**a**b';
/** The run it was tried on (74 s of a frozen server for .editorconfig). */
export const A40 = 'a'.repeat(40);

/**
 * Sends a request whose matching a hostile pattern drives and, while it is in
 * flight, `GET /ari/asterisk/ping`; checks the ping's answer and returns the
 * request's reply with the glob steps the server spent meanwhile.
 *
 * Why steps and not an order of answers: once matching is cheap, both requests
 * take milliseconds and either may finish first, and while it was not, the
 * ping finished after the hostile request, which a busy machine can also make
 * happen. Time cannot tell the two apart without a wall-clock bound, and such a
 * bound fails on a loaded machine. What holds the event loop is the work done
 * while holding it: the matcher counts its steps, and the server runs in this
 * process, so the counter is the server's. The caller asserts the steps stay
 * under the documented budget (the old matcher needed some 10^12 backtracking
 * steps for this glob and run), and that some were spent at all, so the test
 * cannot pass by never matching. The ping shows the rest of the server goes on
 * answering, correctly, while the hostile request is being served.
 */
export async function hostileWithPing<T>(g: GiteaWorld, send: () => Promise<T>): Promise<{ reply: T; steps: number }> {
  const before = globCounters.steps;
  const hostile = send();
  const ping = g.t.http('GET', '/ari/asterisk/ping');
  const [reply, pong] = await Promise.all([hostile, ping]);
  assert.is(pong.status, 200, 'the ping answers');
  assert.is(pong.body.ping, 'pong');
  const steps = globCounters.steps - before;
  assert.ok(steps > 0, 'the hostile pattern was matched');
  return { reply, steps };
}
