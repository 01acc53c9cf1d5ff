import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { simEventTap, TAP_SLOW_CLOSE_CODE } from '../../protocol/sim/tap.js';
import type { EventSink } from '../ari/apps.js';
import type { EventTaps } from '../ari/engine/event-taps.js';
import { apiKeyOf, type AriAuth } from '../ari/http/auth.js';
import { ARI_ERRORS } from '../ari/http/errors.js';
import { socketArgs } from '../ari/http/socket-args.js';
import { createEventSocketHub, type EventSocket, type EventSocketLimits } from '../http/event-socket-hub.js';
import { TapBatch, type FrameTarget } from './tap-batch.js';

/** What the tap socket needs: where taps are kept, ARI credentials and the shared socket limits. */
export interface EventTapWsOptions extends EventSocketLimits {
  taps: EventTaps;
  auth: AriAuth;
}

/** Application names are bounded as on /ari/events. */
const MAX_APP_NAME = 73;

/** One tapped application on one tap socket: wraps each frame with the app's name. */
class TapSink implements EventSink {
  private readonly prefix: string;

  constructor(
    private readonly socket: EventSocket,
    app: string,
    /** The socket itself, or the batch its frames are gathered in. */
    private readonly out: FrameTarget = socket,
  ) {
    this.prefix = `{"app":${JSON.stringify(app)},"event":`;
  }

  deliver(json: string): void {
    this.out.deliver(`${this.prefix}${json}}`);
  }

  cork(): void {
    this.socket.cork();
  }

  uncork(): void {
    this.socket.uncork();
  }
}

/**
 * `GET /sim/events?app=a,b`: a read-only copy of what the named applications'
 * event sockets are sent (protocol/sim/tap.ts), one frame each or, with
 * `batch=true`, one array frame per turn of the event loop. Refusals come before the
 * upgrade as plain HTTP, in ARI's error shape; like the rest of /sim it is
 * for write users only.
 */
export function createEventTapWs(opts: EventTapWsOptions) {
  const hub = createEventSocketHub({ ...opts, dialect: ARI_ERRORS, protocol: 'ari', label: 'event tap' });

  function attach(ws: WebSocket, apps: string[], batch: boolean, user: string, req: IncomingMessage): void {
    const sinks: Array<[string, TapSink]> = [];
    const who = { apps, user, remote: req.socket.remoteAddress, tap: true };
    const socket = hub.attach(ws, who, 'event tap reader too slow; closing', () => {
      for (const [app, sink] of sinks) opts.taps.delete(app, sink);
    }, TAP_SLOW_CLOSE_CODE);
    // One batch for the whole socket, so frames of several applications keep their order.
    const out = batch ? new TapBatch(socket) : socket;
    for (const app of apps) {
      const sink = new TapSink(socket, app, out);
      sinks.push([app, sink]);
      opts.taps.add(app, sink);
    }
  }

  return {
    /** Handles the upgrade when the path is ours; returns false otherwise. */
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
      const url = req.url ?? '/';
      if (url.split('?', 1)[0] !== '/sim/events') return false;
      const user = opts.auth.authenticate(req.headers.authorization, apiKeyOf(url));
      if (!user) {
        hub.refuse(socket, 401, 'Unauthorized', 'Authentication required', { 'WWW-Authenticate': 'Basic realm="Asterisk REST Interface"' });
        return true;
      }
      if (user.readOnly) {
        hub.refuse(socket, 403, 'Forbidden', 'Write access denied');
        return true;
      }
      const bound = socketArgs(simEventTap, new URLSearchParams(url.slice(url.indexOf('?') + 1 || url.length)));
      if (bound.missing !== undefined) {
        hub.refuse(socket, 400, 'Bad Request', `Missing param: ${bound.missing}`);
        return true;
      }
      if (bound.args.app.some((a) => a.length > MAX_APP_NAME)) {
        hub.refuse(socket, 400, 'Bad Request', `Application name longer than ${MAX_APP_NAME} characters`);
        return true;
      }
      hub.upgrade(req, socket, head, (ws) => attach(ws, bound.args.app, bound.args.batch === true, user.name, req));
      return true;
    },

    /** Closes every tap with 1001 (going away). */
    close: hub.close,
  };
}

/** The tap socket, as created by `createEventTapWs`. */
export type EventTapWs = ReturnType<typeof createEventTapWs>;
