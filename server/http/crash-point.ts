import type { Context } from 'hono';
import type { ServerResponse } from 'node:http';

/**
 * Crash-safety tests need to kill the server at the moment that matters:
 * right after an answer has left, before anything that follows it. Once the
 * Nth successful answer of the named operation is ready, `freeze` stops all
 * further commits, events and timers; when the answer has been handed to
 * the socket the process kills itself with SIGKILL. Only test mode sets it.
 */
export function createCrashPoint(spec: { nickname: string; nth: number }, freeze: () => void): (nickname: string, c: Context) => void {
  let seen = 0;
  return (nickname, c) => {
    if (nickname !== spec.nickname || ++seen !== spec.nth) return;
    freeze();
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    const kill = () => process.kill(process.pid, 'SIGKILL');
    if (outgoing) outgoing.once('finish', kill);
    else setImmediate(kill);
  };
}
