import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { answerSocket } from '../http/answer-socket.js';
import { apiKeyOf, type AriAuth } from './http/auth.js';
import { safeUrl, type Logger } from '../log.js';
import type { EventSink } from './apps.js';
import type { Engine } from './engine/engine.js';

export interface EventsWsOptions {
  engine: Engine;
  auth: AriAuth;
  log: Logger;
  maxPayload: number;
  /** A consumer with more than this many bytes unsent is cut off (it has stopped reading). */
  maxBufferedBytes: number;
  pingIntervalMs: number;
}

/** Asterisk's limit on application names. */
const MAX_APP_NAME = 73;
const TRUE = new Set(['true', 'yes', 'y', 't', '1', 'on']);

/** Writes a plain HTTP answer on a socket that will not be upgraded. */
function refuse(socket: Duplex, status: number, reason: string, message: string, headers: Record<string, string> = {}): void {
  answerSocket(socket, status, reason, JSON.stringify({ message }), 'application/json', headers);
}

/** One event WebSocket, serving one or more applications. */
class EventSession implements EventSink {
  alive = true;
  constructor(readonly ws: WebSocket, readonly apps: string[], private readonly opts: EventsWsOptions) {}

  /** The raw socket under ws: frames queued in one flush leave in one write. */
  private get socket(): { cork(): void; uncork(): void } | undefined {
    return (this.ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
  }

  cork(): void {
    this.socket?.cork();
  }

  uncork(): void {
    this.socket?.uncork();
  }

  deliver(json: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > this.opts.maxBufferedBytes) {
      // Like Asterisk's write timeout: a reader this far behind is dropped so nobody else waits on it.
      this.opts.log.warn({ apps: this.apps, buffered: this.ws.bufferedAmount }, 'event consumer too slow; disconnecting');
      this.ws.terminate();
      return;
    }
    this.ws.send(json);
  }
}

/**
 * `GET /ari/events?app=a,b[&subscribeAll=true]`. Credentials and the app
 * list are checked before the upgrade (401 / 400 as plain HTTP), as Asterisk
 * does.
 */
export function createEventsWs(opts: EventsWsOptions) {
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: opts.maxPayload,
    handleProtocols: (protocols) => (protocols.has('ari') ? 'ari' : false),
  });
  const sessions = new Set<EventSession>();

  const heartbeat = setInterval(() => {
    for (const s of sessions) {
      if (!s.alive) {
        s.ws.terminate();
        continue;
      }
      s.alive = false;
      s.ws.ping();
    }
  }, opts.pingIntervalMs);
  heartbeat.unref();

  /**
   * A read-write user's socket serves its apps (replacing whichever socket
   * served them, which is told ApplicationReplaced). A read-only user's
   * socket only watches: it gets the apps' events and changes nothing —
   * no registration, no replacement, no subscription, no resumption of
   * restored channels (README, "Read-only users and the event socket").
   */
  function attach(ws: WebSocket, apps: string[], subscribeAll: boolean, readOnly: boolean): void {
    const session = new EventSession(ws, apps, opts);
    sessions.add(session);
    ws.on('pong', () => {
      session.alive = true;
    });
    ws.on('error', () => ws.terminate());
    // Clients send nothing we act on (no listener for their messages); frames over maxPayload close the socket (1009) inside ws.
    for (const app of apps) {
      if (readOnly) {
        opts.engine.apps.watch(app, session);
        continue;
      }
      const previous = opts.engine.apps.activate(app, session, subscribeAll);
      previous?.deliver(opts.engine.frame('ApplicationReplaced', {}, app));
    }
    ws.on('close', () => {
      sessions.delete(session);
      for (const app of apps) {
        if (readOnly) opts.engine.apps.unwatch(app, session);
        else opts.engine.apps.deactivate(app, session);
      }
    });
    opts.log.info({ apps, subscribeAll, readOnly }, 'event websocket connected');
  }

  return {
    /** Handles the upgrade when the path is ours; returns false otherwise. */
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
      const url = req.url ?? '/';
      const path = url.split('?', 1)[0];
      if (path !== '/ari/events') return false;
      const user = opts.auth.authenticate(req.headers.authorization, apiKeyOf(url));
      if (!user) {
        refuse(socket, 401, 'Unauthorized', 'Authentication required', { 'WWW-Authenticate': 'Basic realm="Asterisk REST Interface"' });
        return true;
      }
      const q = new URLSearchParams(url.slice(url.indexOf('?') + 1 || url.length));
      const apps = [...new Set(q.getAll('app').flatMap((a) => a.split(',')).map((a) => a.trim()).filter(Boolean))];
      if (!apps.length) {
        refuse(socket, 400, 'Bad Request', 'Missing param: app');
        return true;
      }
      const tooLong = apps.find((a) => a.length > MAX_APP_NAME);
      if (tooLong) {
        refuse(socket, 400, 'Bad Request', `Application name longer than ${MAX_APP_NAME} characters`);
        return true;
      }
      const subscribeAll = TRUE.has((q.get('subscribeAll') ?? '').toLowerCase());
      // subscribeAll changes what the applications receive: a write, which read-only users may not make.
      if (subscribeAll && user.readOnly) {
        refuse(socket, 403, 'Forbidden', 'Write access denied');
        return true;
      }
      opts.log.debug({ url: safeUrl(url) }, 'event websocket upgrade');
      wss.handleUpgrade(req, socket, head, (ws) => attach(ws, apps, subscribeAll, user.readOnly));
      return true;
    },

    /** Closes every event socket with 1001 (going away). */
    close(): void {
      clearInterval(heartbeat);
      for (const s of sessions) s.ws.close(1001, 'Server shutting down');
      setTimeout(() => {
        for (const s of sessions) s.ws.terminate();
      }, 1000).unref();
    },
  };
}

export type EventsWs = ReturnType<typeof createEventsWs>;
