import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { eventWebsocket } from '../../protocol/ari/operations/events.js';
import { createEventSocketHub, type EventSocketLimits } from '../http/event-socket-hub.js';
import { safeUrl } from '../log.js';
import { eventAllowed } from './apps.js';
import type { Engine } from './engine/engine.js';
import type { AriUser } from '../config.js';
import { apiKeyOf, type AriAuth } from './http/auth.js';
import { ARI_ERRORS } from './http/errors.js';
import { socketArgs } from './http/socket-args.js';
import { HoldingSink } from './rest-ws/holding-sink.js';
import type { InvokeAsUser } from './rest-ws/run-rest-call.js';
import { serveRestRequests } from './rest-ws/serve-rest-requests.js';

/** What the ARI event socket needs: the engine it serves, credentials, the HTTP application its REST requests run through, and the shared socket limits. */
export interface EventsWsOptions extends EventSocketLimits {
  engine: Engine;
  auth: AriAuth;
  /** Runs a REST request sent over a socket (RESTRequest) through the HTTP application, as the socket's user. */
  invoke: InvokeAsUser;
}

/** Asterisk's limit on application names. */
const MAX_APP_NAME = 73;

/**
 * `GET /ari/events?app=a,b[&subscribeAll=true]`. Credentials and the app
 * list are checked before the upgrade (401 / 400 as plain HTTP), as Asterisk
 * does.
 */
export function createEventsWs(opts: EventsWsOptions) {
  const hub = createEventSocketHub({ ...opts, dialect: ARI_ERRORS, protocol: 'ari', label: 'event websocket' });

  /**
   * A read-write user's socket serves its apps (replacing whichever socket
   * served them, which is told ApplicationReplaced). A read-only user's
   * socket only watches: it gets the apps' events and changes nothing —
   * no registration, no replacement, no subscription, no resumption of
   * restored channels (README, "Read-only users and the event socket").
   * Either may send REST requests over it, run as its user (read-only
   * users' writes are refused as over HTTP).
   */
  function attach(ws: WebSocket, apps: string[], subscribeAll: boolean, user: AriUser, req: IncomingMessage): void {
    const { readOnly } = user;
    const who = { apps, user: user.name, remote: req.socket.remoteAddress, subscribeAll, readOnly };
    const socket = hub.attach(ws, who, 'event consumer too slow; disconnecting', () => {
      for (const app of apps) {
        if (readOnly) opts.engine.apps.unwatch(app, session);
        else opts.engine.apps.deactivate(app, session);
      }
    });
    const session = new HoldingSink(socket, opts.maxBufferedBytes);
    for (const app of apps) {
      if (readOnly) {
        opts.engine.apps.watch(app, session);
        continue;
      }
      const previous = opts.engine.apps.activate(app, session, subscribeAll);
      // The app's event filter applies to this notice too, as to every event addressed to it.
      if (eventAllowed(opts.engine.apps.get(app), 'ApplicationReplaced')) previous?.deliver(opts.engine.frame('ApplicationReplaced', {}, app));
    }
    // Answers are addressed to the first application the socket named, as Asterisk addresses them.
    const first = apps[0]!;
    serveRestRequests(ws, session, { user, host: req.headers.host, invoke: opts.invoke, frame: (answer) => opts.engine.frame('RESTResponse', answer, first), log: opts.log });
  }

  return {
    /** Handles the upgrade when the path is ours; returns false otherwise. */
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
      const url = req.url ?? '/';
      const path = url.split('?', 1)[0];
      if (path !== '/ari/events') return false;
      const user = opts.auth.authenticate(req.headers.authorization, apiKeyOf(url));
      if (!user) {
        hub.refuse(socket, 401, 'Unauthorized', 'Authentication required', { 'WWW-Authenticate': 'Basic realm="Asterisk REST Interface"' });
        return true;
      }
      const q = new URLSearchParams(url.slice(url.indexOf('?') + 1 || url.length));
      const bound = socketArgs(eventWebsocket, q);
      if (bound.missing !== undefined) {
        hub.refuse(socket, 400, 'Bad Request', `Missing param: ${bound.missing}`);
        return true;
      }
      const apps = bound.args.app;
      const subscribeAll = bound.args.subscribeAll === true;
      const tooLong = apps.find((a) => a.length > MAX_APP_NAME);
      if (tooLong) {
        hub.refuse(socket, 400, 'Bad Request', `Application name longer than ${MAX_APP_NAME} characters`);
        return true;
      }
      // subscribeAll changes what the applications receive: a write, which read-only users may not make.
      if (subscribeAll && user.readOnly) {
        hub.refuse(socket, 403, 'Forbidden', 'Write access denied');
        return true;
      }
      opts.log.debug({ url: safeUrl(url) }, 'event websocket upgrade');
      hub.upgrade(req, socket, head, (ws) => attach(ws, apps, subscribeAll, user, req));
      return true;
    },

    /** Closes every event socket with 1001 (going away). */
    close: hub.close,
  };
}

/** The ARI event socket, as created by `createEventsWs`. */
export type EventsWs = ReturnType<typeof createEventsWs>;
