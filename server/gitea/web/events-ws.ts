import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import { createEventSocketHub, type EventSocketLimits } from '../../http/event-socket-hub.js';
import type { RepoEvent } from '../../../protocol/gitea/events.js';
import type { RepoEvents } from '../repo-events.js';
import { authenticate, readCredentials, TOO_MANY_FAILURES, type CallerDeps } from '../http/auth.js';
import { giteaErrors } from '../http/errors.js';
import type { RepoService } from '../services/repos.js';
import type { Site } from '../site.js';
import { Throttled } from '../services/login-throttle.js';
import type { Authenticated } from '../services/accounts.js';
import { tokenMayAccessRepo } from '../services/repo-access.js';

/**
 * `GET /api/v1/events[?repo=owner/name,…]` (WebSocket): commit and mirror sync
 * events of every repository the caller can read, or of the named ones.
 * Credentials as the API takes them (token header or query, Basic); a token
 * needs read:repository. Refusals are plain HTTP before the upgrade.
 */
export function createRepoEventsWs(g: CallerDeps & { site: Site; repos: RepoService; events: RepoEvents }, opts: EventSocketLimits) {
  const hub = createEventSocketHub({ ...opts, dialect: giteaErrors(g.site), label: 'repository event websocket' });

  function readable(auth: Authenticated, event: RepoEvent): boolean {
    const repo = g.repos.byId(event.repository.id, auth.user);
    if (!repo?.perm.read) return false;
    return tokenMayAccessRepo(auth, repo, 'read');
  }

  function attach(ws: WebSocket, auth: Authenticated, only: Set<string> | null, remote: string | undefined): void {
    const unsubscribe = g.events.subscribe((event) => {
      if (ws.readyState !== WebSocket.OPEN) return;
      if (only && !only.has(event.repository.full_name.toLowerCase())) return;
      if (!readable(auth, event)) return;
      sender.deliver(JSON.stringify(event));
    });
    const sender = hub.attach(ws, { user: auth.user.name, remote, repos: only ? [...only] : 'all' }, 'repository event consumer too slow; disconnecting', unsubscribe);
  }

  return {
    /** Handles the upgrade when the path is ours; returns false otherwise. */
    async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<boolean> {
      const url = req.url ?? '/';
      const path = url.split('?', 1)[0]!.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
      if (path !== '/api/v1/events') return false;
      const creds = readCredentials(req.headers.authorization, `http://localhost${url}`, !g.config.disableQueryAuthToken);
      const auth = await authenticate(g.accounts, creds, req.socket.remoteAddress ?? '');
      if (auth === false) {
        hub.refuse(socket, 401, 'Unauthorized', 'invalid username, password or token');
        return true;
      }
      if (auth instanceof Throttled) {
        hub.refuse(socket, 429, 'Too Many Requests', TOO_MANY_FAILURES, { 'Retry-After': String(auth.retryAfter) });
        return true;
      }
      if (!auth) {
        hub.refuse(socket, 401, 'Unauthorized', 'token is required');
        return true;
      }
      if (auth.scopes && !auth.scopes.allows('repository', 'read')) {
        hub.refuse(socket, 403, 'Forbidden', `token does not have at least one of required scope(s), required=[read:repository], token scope=${auth.scopes.text}`);
        return true;
      }
      const q = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
      const names = q.getAll('repo').flatMap((r) => r.split(',')).map((r) => r.trim().toLowerCase()).filter(Boolean);
      hub.upgrade(req, socket, head, (ws) => attach(ws, auth, names.length ? new Set(names) : null, req.socket.remoteAddress));
      return true;
    },

    /** Closes every socket with 1001 (going away). */
    close: hub.close,
  };
}
