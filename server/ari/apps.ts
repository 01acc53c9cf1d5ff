import { SetMap } from '../util/set-map.js';

/** Where an application's events go: one WebSocket at a time. */
export interface EventSink {
  deliver(json: string): void;
  /** Frames queued in one flush are written together (one socket write instead of one each). */
  cork?(): void;
  uncork?(): void;
  /** Cuts the connection under the sink at once, without a goodbye (the drop_socket fault). */
  cut?(): void;
}

export interface StasisApp {
  name: string;
  sink: EventSink | null;
  subscribeAll: boolean;
  /** Channels with a subscription count above zero for this app. */
  channels: Set<string>;
  /** Endpoints subscribed through applications/subscribe (`TECH/resource` or `TECH`). */
  endpoints: Set<string>;
  /** Devices subscribed through applications/subscribe (`deviceState:<name>`), as named there. */
  devices: Set<string>;
  /** The event filter's lists as set (PUT …/eventFilter): entries are objects whose `type` names an event type. */
  allowed: Array<Record<string, unknown>>;
  disallowed: Array<Record<string, unknown>>;
}

/**
 * Connections opened for one channel's Stasis() (ARI outbound WebSockets of
 * type per_call_config): the channel waits in the dialplan while one opens.
 */
export interface PerCallApps {
  /** Whether a per-call connection is configured for `app`. */
  serves(app: string): boolean;
  /** Opens one for `instance` (`<app>:<channel name>`) and registers that app; false once every attempt failed. */
  open(app: string, instance: string): Promise<boolean>;
  /** The channel is done with `instance`: its connection closes. */
  done(instance: string): void;
}

const names = (list: Array<Record<string, unknown>>, type: string) => list.some((e) => e.type === type);

/**
 * Whether an event of `type` may go to `app`'s sockets, by its filter: a type
 * named in "disallowed" never goes; otherwise it goes when "allowed" is empty
 * or names it (Asterisk's rules for ARI event filters).
 */
export function eventAllowed(app: StasisApp | undefined, type: string): boolean {
  if (!app) return true;
  return !names(app.disallowed, type) && (app.allowed.length === 0 || names(app.allowed, type));
}

/**
 * Stasis applications by name. An app is active while a WebSocket serves it;
 * it is remembered while channels still reference it, and forgotten after.
 * Read-only users' sockets only watch: they receive an app's events beside
 * its sink and never register, serve or replace it.
 */
export class AppRegistry {
  private readonly apps = new Map<string, StasisApp>();
  /** Watching sockets by app name (kept apart from the apps: watching registers nothing). */
  private readonly watchers = new SetMap<string, EventSink>();
  /** Active apps registered with subscribeAll, kept apart because every channel event consults it. */
  readonly subscribedToAll = new Set<string>();
  /** After a restart: apps the restored channels belong to, and until when (wall ms) we wait for them to reconnect. */
  private readonly awaited = new Map<string, number>();
  private readonly activationHooks: Array<(name: string) => void> = [];
  private readonly forgetHooks: Array<(app: StasisApp) => void> = [];
  private perCall: PerCallApps | undefined;

  get(name: string): StasisApp | undefined {
    return this.apps.get(name);
  }

  ensure(name: string): StasisApp {
    let app = this.apps.get(name);
    if (!app) {
      app = { name, sink: null, subscribeAll: false, channels: new Set(), endpoints: new Set(), devices: new Set(), allowed: [], disallowed: [] };
      this.apps.set(name, app);
    }
    return app;
  }

  isActive(name: string): boolean {
    return this.apps.get(name)?.sink != null;
  }

  /** Marks an app as expected back (after a restart) until `until`, unless it is already connected. */
  expect(name: string, until: number): void {
    if (!this.isActive(name)) this.awaited.set(name, until);
  }

  /** True while an app that served channels before a restart has not reconnected and its grace has not run out. */
  isAwaited(name: string, now: number): boolean {
    const until = this.awaited.get(name);
    if (until === undefined) return false;
    if (until > now) return true;
    this.awaited.delete(name);
    return false;
  }

  /** True while any app is awaited (dialplan running on a restored channel may be headed to any of them). */
  anyAwaited(now: number): boolean {
    for (const name of [...this.awaited.keys()]) if (this.isAwaited(name, now)) return true;
    return false;
  }

  /** Runs after an app gets a WebSocket (restored channels waiting for it resume here). */
  onActivate(hook: (name: string) => void): void {
    this.activationHooks.push(hook);
  }

  /** Attaches a socket; returns the sink it replaced, which must be told ApplicationReplaced. */
  activate(name: string, sink: EventSink, subscribeAll: boolean): EventSink | null {
    const app = this.ensure(name);
    const previous = app.sink;
    app.sink = sink;
    app.subscribeAll = subscribeAll;
    if (subscribeAll) this.subscribedToAll.add(name);
    else this.subscribedToAll.delete(name);
    if (this.awaited.delete(name)) for (const hook of this.activationHooks) hook(name);
    return previous !== sink ? previous : null;
  }

  /** Detaches `sink` if it still serves `name` (a replaced socket closing changes nothing). */
  deactivate(name: string, sink: EventSink): void {
    const app = this.apps.get(name);
    if (!app || app.sink !== sink) return;
    app.sink = null;
    app.subscribeAll = false;
    this.subscribedToAll.delete(name);
    this.forgetIfIdle(app);
  }

  /** A read-only socket watches `name`: it gets the events addressed to the app, whoever serves it. */
  watch(name: string, sink: EventSink): void {
    this.watchers.add(name, sink);
  }

  unwatch(name: string, sink: EventSink): void {
    this.watchers.delete(name, sink);
  }

  watchersOf(name: string): ReadonlySet<EventSink> | undefined {
    return this.watchers.get(name);
  }

  /** Who opens per-call connections (the outbound WebSockets, when any is configured). */
  servePerCall(provider: PerCallApps): void {
    this.perCall = provider;
  }

  /** The per-call connections, when `app` has no socket and one of them is configured for it. */
  perCallFor(name: string): PerCallApps | undefined {
    return !this.isActive(name) && this.perCall?.serves(name) ? this.perCall : undefined;
  }

  /** A channel left the app a per-call connection was opened for. */
  perCallDone(instance: string): void {
    this.perCall?.done(instance);
  }

  /** Runs after an app is forgotten (what it held, its event filter, goes with it). */
  onForget(hook: (app: StasisApp) => void): void {
    this.forgetHooks.push(hook);
  }

  forgetIfIdle(app: StasisApp): void {
    if (app.sink || app.channels.size > 0 || app.endpoints.size > 0 || app.devices.size > 0 || this.apps.get(app.name) !== app) return;
    this.apps.delete(app.name);
    for (const hook of this.forgetHooks) hook(app);
  }

  list(): StasisApp[] {
    return [...this.apps.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
