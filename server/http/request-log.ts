import type { ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { safeUrl, type Logger } from '../log.js';

/** Who made a request, once the dialect's credentials middleware has run: an ARI user or a repository account. */
function userOf(get: (key: string) => unknown): string | undefined {
  const ari = get('ariUser') as { name?: string } | undefined;
  if (ari?.name) return ari.name;
  const gitea = get('giteaAuth') as { user?: { name?: string } } | null | undefined;
  return gitea?.user?.name;
}

/**
 * One `debug` line per request, for every dialect (ARI, /sim, the repository
 * API, git and LFS, downloads): method, path with credential query parameters
 * masked (safeUrl), status, milliseconds until the answer has left (or the
 * client went away), and the user the request ran as. Nothing else of the
 * request is logged: headers and bodies carry credentials. Costs nothing
 * when debug is off.
 */
export function requestLog(log: Logger): MiddlewareHandler {
  return async (c, next) => {
    if (!log.isLevelEnabled('debug')) return next();
    const started = performance.now();
    const url = new URL(c.req.url);
    await next();
    const write = () =>
      log.debug(
        { method: c.req.method, path: safeUrl(url.pathname + url.search), status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10, user: userOf((k) => c.get(k as never)) },
        'request',
      );
    // Served over a socket: once the last byte has left or the connection is gone. Run in-process (REST over the event socket): now.
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (outgoing && !outgoing.writableFinished) outgoing.once('close', write);
    else write();
  };
}
