/** Where an application's events go: one WebSocket at a time. */
export interface EventSink {
  deliver(json: string): void;
  /** Frames queued in one flush are written together (one socket write instead of one each). */
  cork?(): void;
  uncork?(): void;
}

export interface StasisApp {
  name: string;
  sink: EventSink | null;
  subscribeAll: boolean;
  /** Channels with a subscription count above zero for this app. */
  channels: Set<string>;
  /** Endpoints subscribed through applications/subscribe (`TECH/resource` or `TECH`). */
  endpoints: Set<string>;
}

/**
 * Stasis applications by name. An app is active while a WebSocket serves it;
 * it is remembered while channels still reference it, and forgotten after.
 */
export class AppRegistry {
  private readonly apps = new Map<string, StasisApp>();
  /** Active apps registered with subscribeAll, kept apart because every channel event consults it. */
  readonly subscribedToAll = new Set<string>();

  get(name: string): StasisApp | undefined {
    return this.apps.get(name);
  }

  ensure(name: string): StasisApp {
    let app = this.apps.get(name);
    if (!app) {
      app = { name, sink: null, subscribeAll: false, channels: new Set(), endpoints: new Set() };
      this.apps.set(name, app);
    }
    return app;
  }

  isActive(name: string): boolean {
    return this.apps.get(name)?.sink != null;
  }

  /** Attaches a socket; returns the sink it replaced, which must be told ApplicationReplaced. */
  activate(name: string, sink: EventSink, subscribeAll: boolean): EventSink | null {
    const app = this.ensure(name);
    const previous = app.sink;
    app.sink = sink;
    app.subscribeAll = subscribeAll;
    if (subscribeAll) this.subscribedToAll.add(name);
    else this.subscribedToAll.delete(name);
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

  forgetIfIdle(app: StasisApp): void {
    if (!app.sink && app.channels.size === 0 && app.endpoints.size === 0) this.apps.delete(app.name);
  }

  list(): StasisApp[] {
    return [...this.apps.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
