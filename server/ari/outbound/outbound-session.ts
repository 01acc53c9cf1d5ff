import type { WebSocket } from 'ws';
import type { AriUser } from '../../config.js';
import { EventSocket } from '../../http/event-socket-hub.js';
import { safeUrl, type Logger } from '../../log.js';
import { eventAllowed, type EventSink } from '../apps.js';
import type { Engine } from '../engine/engine.js';
import { HoldingSink } from '../rest-ws/holding-sink.js';
import type { InvokeAsUser } from '../rest-ws/run-rest-call.js';
import { serveRestRequests } from '../rest-ws/serve-rest-requests.js';
import type { DialResult } from './dial-websocket.js';
import type { OutboundConnectionConfig } from './outbound-config.js';

/** What a session runs with: the engine its apps live in, the HTTP app its REST requests go through, and how it connects. */
export interface SessionDeps {
  engine: Engine;
  invoke: InvokeAsUser;
  /** The connection's local_ari_user: its REST requests run as this user (a reload may change it). */
  user: AriUser;
  dial: (cfg: OutboundConnectionConfig, signal: AbortSignal) => Promise<DialResult>;
  log: Logger;
  /** A connection with more than this many bytes unsent is dropped (and reconnected), as a slow inbound consumer is. */
  maxBufferedBytes: number;
}

/**
 * The sink the session's applications are registered with: it forwards to
 * whichever socket is connected now. While the session is between
 * connections, events addressed to its apps are dropped, as they are for an
 * application without a socket (Asterisk replays nothing on reconnection).
 */
class SessionSink implements EventSink {
  current: HoldingSink | null = null;

  deliver(json: string): void {
    this.current?.deliver(json);
  }

  cork(): void {
    this.current?.cork();
  }

  uncork(): void {
    this.current?.uncork();
  }
}

/**
 * One outbound WebSocket and its applications: a persistent connection's
 * for as long as the server runs, or a per-call connection's (one
 * `<app>:<channel name>` application) for one call. On each connection it
 * takes its applications back (a socket that had taken one over is told
 * ApplicationReplaced), says ApplicationRegistered for each, and then
 * carries their events out and runs the RESTRequests that come in, as the
 * inbound event socket does. A connection that breaks is tried again every
 * reconnect_interval.
 */
export class OutboundSession {
  private readonly sink = new SessionSink();
  private ws: WebSocket | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Aborts the attempt under way when the session stops. */
  private readonly stopping = new AbortController();
  /** Failed attempts in a row. */
  private failures = 0;

  constructor(
    private cfg: OutboundConnectionConfig,
    /** The applications registered on this connection. */
    private appList: readonly string[],
    /** How the logs name the session (the connection's name, and the app for a per-call one). */
    private readonly name: string,
    private readonly deps: SessionDeps,
  ) {}

  /** The applications registered on this connection. */
  get apps(): readonly string[] {
    return this.appList;
  }

  /**
   * First half of applying a reloaded configuration of this (persistent)
   * connection: the applications it no longer serves say
   * ApplicationUnregistered and leave; all of them do when subscribe_all
   * changes, since they register again under the new setting. Every
   * session drops its applications before any takes new ones, so an
   * application moved between two connections ends up on its new one.
   */
  release(next: OutboundConnectionConfig): void {
    const all = next.subscribeAll !== this.cfg.subscribeAll;
    const gone = this.appList.filter((a) => all || !next.apps.includes(a));
    for (const app of gone) this.announce('ApplicationUnregistered', app);
    for (const app of gone) this.deps.engine.apps.deactivate(app, this.sink);
    this.appList = this.appList.filter((a) => !gone.includes(a));
  }

  /**
   * Second half: the new applications are registered (ApplicationRegistered
   * when connected), REST requests run as the new local_ari_user, and a
   * change of what the connection itself is made of (address, credentials,
   * subprotocol, TLS, timing) closes the socket with 1000 so that it
   * reconnects with the new settings, as Asterisk does.
   */
  reconfigure(next: OutboundConnectionConfig, user: AriUser): void {
    const before = this.cfg;
    this.cfg = next;
    this.deps.user = user;
    const added = next.apps.filter((a) => !this.appList.includes(a));
    this.appList = next.apps;
    for (const app of added) this.takeApp(app);
    if (this.ws) for (const app of added) this.announce('ApplicationRegistered', app);
    if (this.ws && clientChanged(before, next)) {
      this.deps.log.info({ connection: this.name, uri: safeUrl(next.uri) }, 'outbound websocket configuration changed; reconnecting');
      this.ws.close(1000, 'Configuration changed');
    }
  }

  /** Registers the apps with this session (Stasis() may enter them before the first connection is up). */
  register(): void {
    for (const app of this.apps) this.takeApp(app);
  }

  /**
   * Connects, trying every reconnect_interval until it succeeds (true) or,
   * when `attempts` is given, that many attempts have failed (false). Later
   * breaks reconnect on their own, with the same limit.
   */
  connect(attempts?: number): Promise<boolean> {
    return new Promise((resolve) => this.attempt(attempts, resolve));
  }

  /**
   * Stops for good: no more attempts, the apps are no longer served from
   * here, and the socket closes with `code` (1000 when a call is done or the
   * connection was removed from the configuration, 1001 at shutdown). `unregister` first says ApplicationUnregistered for each app.
   */
  stop(code: 1000 | 1001, unregister = false, reason = code === 1001 ? 'Server shutting down' : 'Call ended'): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopping.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (unregister) for (const app of this.apps) this.announce('ApplicationUnregistered', app);
    for (const app of this.apps) this.deps.engine.apps.deactivate(app, this.sink);
    const { ws } = this;
    const holding = this.sink.current;
    this.sink.current = null;
    if (!ws) return;
    // A REST request still running (the `continue` that ended the call) gets its answer, and StasisEnd its way out, first.
    const close = () => ws.close(code, reason);
    if (holding) holding.whenReleased(close);
    else close();
  }

  private attempt(attempts: number | undefined, done: (ok: boolean) => void): void {
    if (this.stopped) return done(false);
    void this.deps.dial(this.cfg, this.stopping.signal).then((r) => {
      if (this.stopped) {
        if (r.ok) r.ws.terminate();
        return done(false);
      }
      if (r.ok) {
        this.failures = 0;
        this.attach(r.ws, attempts);
        return done(true);
      }
      this.failures++;
      // A persistent connection keeps trying; its failures are logged once every reconnect_attempts.
      if (attempts !== undefined || this.failures % this.cfg.reconnectAttempts === 1 || this.cfg.reconnectAttempts === 1) {
        this.deps.log.warn({ connection: this.name, uri: safeUrl(this.cfg.uri), failures: this.failures, reason: r.reason }, 'outbound websocket connection failed');
      }
      if (attempts !== undefined && this.failures >= attempts) return done(false);
      this.timer = setTimeout(() => {
        this.timer = null;
        this.attempt(attempts, done);
      }, this.cfg.reconnectInterval);
    });
  }

  private attach(ws: WebSocket, attempts: number | undefined): void {
    const { engine, log } = this.deps;
    this.ws = ws;
    const socket = new EventSocket(ws, this.deps.maxBufferedBytes, log, { connection: this.name }, 'outbound websocket peer too slow; disconnecting');
    const holding = new HoldingSink(socket, this.deps.maxBufferedBytes);
    this.sink.current = holding;
    for (const app of this.apps) this.takeApp(app);
    for (const app of this.apps) this.announce('ApplicationRegistered', app);
    // Answers are addressed to the first application of the connection.
    const first = this.apps[0]!;
    const deps = this.deps;
    serveRestRequests(ws, holding, { get user() { return deps.user; }, host: undefined, invoke: this.deps.invoke, frame: (answer) => engine.frame('RESTResponse', answer, first), log });
    ws.on('close', () => {
      if (this.sink.current === holding) this.sink.current = null;
      if (this.ws === ws) this.ws = null;
      if (this.stopped) return;
      log.info({ connection: this.name, uri: safeUrl(this.cfg.uri) }, 'outbound websocket disconnected; reconnecting');
      this.timer = setTimeout(() => {
        this.timer = null;
        this.attempt(attempts, () => {});
      }, this.cfg.reconnectInterval);
    });
    log.info({ connection: this.name, uri: safeUrl(this.cfg.uri), apps: this.apps }, 'outbound websocket connected');
  }

  /** Serves `app` from here; a socket that served it is told ApplicationReplaced. */
  private takeApp(app: string): void {
    const { apps } = this.deps.engine;
    const previous = apps.activate(app, this.sink, this.cfg.subscribeAll);
    if (previous && previous !== this.sink && eventAllowed(apps.get(app), 'ApplicationReplaced')) previous.deliver(this.deps.engine.frame('ApplicationReplaced', {}, app));
  }

  /** Sends an Application* notice for `app` on the current socket (the app's event filter applies). */
  private announce(type: 'ApplicationRegistered' | 'ApplicationUnregistered', app: string): void {
    if (eventAllowed(this.deps.engine.apps.get(app), type)) this.sink.deliver(this.deps.engine.frame(type, {}, app));
  }
}

/** Whether what the socket itself is made of changed (the application side of an entry is applied without reconnecting). */
function clientChanged(a: OutboundConnectionConfig, b: OutboundConnectionConfig): boolean {
  const client = (c: OutboundConnectionConfig) => JSON.stringify([c.uri, c.protocols, c.username, c.password, c.connectionTimeout, c.reconnectInterval, c.reconnectAttempts, c.tls]);
  return client(a) !== client(b);
}
