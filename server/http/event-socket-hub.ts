import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Logger } from '../log.js';
import { answerSocket } from './answer-socket.js';
import type { ErrorDialect } from './error-response.js';

/** Limits shared by every event socket (WS_MAX_PAYLOAD, WS_MAX_BUFFERED_BYTES, WS_PING_INTERVAL_MS). */
export interface EventSocketLimits {
  log: Logger;
  maxPayload: number;
  /** A consumer with more than this many bytes unsent is cut off (it has stopped reading). */
  maxBufferedBytes: number;
  pingIntervalMs: number;
}

/** What one dialect's event socket adds to the limits. */
export interface EventSocketHubOptions extends EventSocketLimits {
  /** Refusals before the upgrade are written in this dialect's error shape. */
  dialect: ErrorDialect;
  /** The one WebSocket subprotocol accepted (ARI's `ari`); without it ws's default choice stands. */
  protocol?: string;
  /** What the connect and disconnect log lines call these sockets (`event websocket`). */
  label: string;
}

/** One connected event socket: delivers frames and cuts itself off when its reader falls too far behind. */
export class EventSocket {
  /** Cleared at each heartbeat, set again by the client's pong. */
  alive = true;

  constructor(
    readonly ws: WebSocket,
    private readonly maxBufferedBytes: number,
    private readonly log: Logger,
    /** What the slow-consumer warning says about this socket (its apps, its user). */
    private readonly logFields: Record<string, unknown>,
    private readonly slowMessage: string,
    /** When set, a slow reader is closed with this code (a frame it reads after its backlog) instead of cut off. */
    private readonly slowCloseCode?: number,
  ) {}

  /** The raw socket under ws: frames queued in one flush leave in one write. */
  private get socket(): { cork(): void; uncork(): void } | undefined {
    return (this.ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
  }

  /** Holds back writes until `uncork`. */
  cork(): void {
    this.socket?.cork();
  }

  /** Writes what `cork` held back. */
  uncork(): void {
    this.socket?.uncork();
  }

  /** Sends one text frame, unless the socket is closed or its reader has stopped taking them. */
  deliver(json: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > this.maxBufferedBytes) {
      // Like Asterisk's write timeout: a reader this far behind is dropped so nobody else waits on it.
      this.log.warn({ ...this.logFields, buffered: this.ws.bufferedAmount }, this.slowMessage);
      // Closing stops further sends at once (the socket is no longer OPEN), so the backlog stops growing here too.
      if (this.slowCloseCode !== undefined) this.ws.close(this.slowCloseCode, this.slowMessage);
      else this.ws.terminate();
      return;
    }
    this.ws.send(json);
  }
}

/**
 * The machinery both event WebSockets share: refusal as plain HTTP before
 * the upgrade, the upgrade itself, a ping heartbeat that drops sockets whose
 * client stopped answering, the slow-consumer cut-off, and closing everything
 * at shutdown. Each dialect keeps its own path, credentials and parameters.
 */
export function createEventSocketHub(opts: EventSocketHubOptions) {
  const { protocol } = opts;
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: opts.maxPayload,
    ...(protocol ? { handleProtocols: (offered: Set<string>) => (offered.has(protocol) ? protocol : false) } : {}),
  });
  const sockets = new Set<EventSocket>();

  const heartbeat = setInterval(() => {
    for (const s of sockets) {
      if (!s.alive) {
        s.ws.terminate();
        continue;
      }
      s.alive = false;
      s.ws.ping();
    }
  }, opts.pingIntervalMs);
  heartbeat.unref();

  return {
    /** Answers an upgrade we will not make with a plain HTTP error in the dialect's shape. */
    refuse(socket: Duplex, status: number, reason: string, message: string, headers: Record<string, string> = {}): void {
      answerSocket(socket, status, reason, JSON.stringify(opts.dialect.body(message)), opts.dialect.contentType, headers);
    },

    /** Completes an accepted upgrade; `onOpen` gets the new WebSocket. */
    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, onOpen: (ws: WebSocket) => void): void {
      wss.handleUpgrade(req, socket, head, onOpen);
    },

    /**
     * Takes a new WebSocket into the heartbeat and returns its sender;
     * `onClose` runs when it closes. Connect and disconnect are logged at
     * info with `logFields` (who, from where, what for) and the close code. What clients send is the dialect's to
     * read (ARI runs REST requests; Gitea's socket ignores it); frames over
     * maxPayload close the socket (1009) inside ws, as Asterisk closes it.
     * A slow reader is cut off, or closed with `slowCloseCode` when given.
     */
    attach(ws: WebSocket, logFields: Record<string, unknown>, slowMessage: string, onClose: () => void, slowCloseCode?: number): EventSocket {
      const s = new EventSocket(ws, opts.maxBufferedBytes, opts.log, logFields, slowMessage, slowCloseCode);
      sockets.add(s);
      opts.log.info(logFields, `${opts.label} connected`);
      ws.on('pong', () => {
        s.alive = true;
      });
      ws.on('error', () => ws.terminate());
      ws.on('close', (code) => {
        sockets.delete(s);
        onClose();
        opts.log.info({ ...logFields, code }, `${opts.label} disconnected`);
      });
      return s;
    },

    /** Closes every socket with 1001 (going away), and drops those that do not finish closing within a second. */
    close(): void {
      clearInterval(heartbeat);
      for (const s of sockets) s.ws.close(1001, 'Server shutting down');
      setTimeout(() => {
        for (const s of sockets) s.ws.terminate();
      }, 1000).unref();
    },
  };
}

/** One hub, as created by `createEventSocketHub`. */
export type EventSocketHub = ReturnType<typeof createEventSocketHub>;
