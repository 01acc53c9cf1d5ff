import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { answerSocket } from '../../http/answer-socket.js';
import { WebSocket, WebSocketServer } from 'ws';
import type { RepoEvent } from '../../../protocol/gitea/events.js';
import type { Logger } from '../../log.js';
import type { RepoEvents } from '../repo-events.js';
import { authenticate, readCredentials, TOO_MANY_FAILURES, type CallerDeps } from '../http/auth.js';
import type { RepoService } from '../services/repos.js';
import type { Site } from '../site.js';
import { Throttled } from '../services/login-throttle.js';
import type { Authenticated } from '../services/accounts.js';
import { tokenMayAccessRepo } from '../services/repo-access.js';

/** Limits of the event socket. */
export interface RepoEventsWsOptions {
  log: Logger;
  maxPayload: number;
  /** A consumer with more than this many bytes unsent is cut off (it has stopped reading). */
  maxBufferedBytes: number;
  pingIntervalMs: number;
}

/** A plain HTTP answer with Gitea's error body, on a socket that will not be upgraded. */
function refuse(socket: Duplex, status: number, reason: string, message: string, swaggerUrl: string, headers: Record<string, string> = {}): void {
  answerSocket(socket, status, reason, JSON.stringify({ message, url: swaggerUrl }), 'application/json;charset=utf-8', headers);
}

/**
 * `GET /api/v1/events[?repo=owner/name,…]` (WebSocket): commit and mirror sync
 * events of every repository the caller can read, or of the named ones.
 * Credentials as the API takes them (token header or query, Basic); a token
 * needs read:repository. Refusals are plain HTTP before the upgrade.
 */
export function createRepoEventsWs(g: CallerDeps & { site: Site; repos: RepoService; events: RepoEvents }, opts: RepoEventsWsOptions) {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: opts.maxPayload });
  const sockets = new Map<WebSocket, { alive: boolean }>();

  const heartbeat = setInterval(() => {
    for (const [ws, s] of sockets) {
      if (!s.alive) {
        ws.terminate();
        continue;
      }
      s.alive = false;
      ws.ping();
    }
  }, opts.pingIntervalMs);
  heartbeat.unref();

  function readable(auth: Authenticated, event: RepoEvent): boolean {
    const repo = g.repos.byId(event.repository.id, auth.user);
    if (!repo?.perm.read) return false;
    return tokenMayAccessRepo(auth, repo, 'read');
  }

  function attach(ws: WebSocket, auth: Authenticated, only: Set<string> | null): void {
    const state = { alive: true };
    sockets.set(ws, state);
    const unsubscribe = g.events.subscribe((event) => {
      if (ws.readyState !== WebSocket.OPEN) return;
      if (only && !only.has(event.repository.full_name.toLowerCase())) return;
      if (!readable(auth, event)) return;
      if (ws.bufferedAmount > opts.maxBufferedBytes) {
        opts.log.warn({ user: auth.user.name, buffered: ws.bufferedAmount }, 'repository event consumer too slow; disconnecting');
        ws.terminate();
        return;
      }
      ws.send(JSON.stringify(event));
    });
    ws.on('pong', () => (state.alive = true));
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      sockets.delete(ws);
      unsubscribe();
    });
    opts.log.info({ user: auth.user.name }, 'repository event websocket connected');
  }

  return {
    /** Handles the upgrade when the path is ours; returns false otherwise. */
    async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<boolean> {
      const url = req.url ?? '/';
      const path = url.split('?', 1)[0]!.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
      if (path !== '/api/v1/events') return false;
      const swagger = g.site.swaggerUrl;
      const creds = readCredentials(req.headers.authorization, `http://localhost${url}`, !g.config.disableQueryAuthToken);
      const auth = await authenticate(g.accounts, creds, req.socket.remoteAddress ?? '');
      if (auth === false) {
        refuse(socket, 401, 'Unauthorized', 'invalid username, password or token', swagger);
        return true;
      }
      if (auth instanceof Throttled) {
        refuse(socket, 429, 'Too Many Requests', TOO_MANY_FAILURES, swagger, { 'Retry-After': String(auth.retryAfter) });
        return true;
      }
      if (!auth) {
        refuse(socket, 401, 'Unauthorized', 'token is required', swagger);
        return true;
      }
      if (auth.scopes && !auth.scopes.allows('repository', 'read')) {
        refuse(socket, 403, 'Forbidden', `token does not have at least one of required scope(s), required=[read:repository], token scope=${auth.scopes.text}`, swagger);
        return true;
      }
      const q = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
      const names = q.getAll('repo').flatMap((r) => r.split(',')).map((r) => r.trim().toLowerCase()).filter(Boolean);
      wss.handleUpgrade(req, socket, head, (ws) => attach(ws, auth, names.length ? new Set(names) : null));
      return true;
    },

    /** Closes every socket with 1001 (going away). */
    close(): void {
      clearInterval(heartbeat);
      for (const ws of sockets.keys()) ws.close(1001, 'Server shutting down');
      setTimeout(() => {
        for (const ws of sockets.keys()) ws.terminate();
      }, 1000).unref();
    },
  };
}
