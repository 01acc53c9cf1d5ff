import { call, socketUrl } from '../api.js';
import type { EventLogStore } from '../log/event-log-store.js';
import type { Session } from '../session.js';
import { parseTimestamp } from '../observable.js';
import type { ClockReading, LiveStore, Snapshot } from './live-store.js';
import type { TapFrame } from './models.js';

/**
 * How often the snapshot is taken again: the tap follows the applications listed, and channels
 * outside every application (which no tap hears of) are kept current this way.
 */
const POLL_MS = 3000;
const RECONNECT_MS = 2000;

/**
 * Keeps the live view fed: a REST snapshot of calls, bridges, endpoints and device states,
 * then the event tap (GET /sim/events) for every application the server lists, reopened
 * when that list changes. Each frame goes to the live store and the event log.
 */
export class LiveFeed {
  private socket: WebSocket | undefined;
  private tapped = '';
  private timer: ReturnType<typeof setInterval> | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  /** The store's event count at the last poll: a poll finding it moved knows the tap is busy. */
  private countAtPoll = -1;

  constructor(private readonly session: Session, private readonly store: LiveStore, private readonly log: EventLogStore) {}

  async start(): Promise<void> {
    await Promise.all([this.refresh(true), this.readClock()]);
    this.timer = setInterval(() => void Promise.all([this.refresh(), this.readClock()]).catch(() => undefined), POLL_MS);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.retry);
    this.socket?.close(1000);
  }

  /**
   * Takes a fresh REST snapshot and makes sure the tap follows the listed applications. Unless
   * `force`d, a snapshot answered while events arrived is dropped (it may be older than they are),
   * and while the open tap is delivering events only the applications are read: the whole
   * snapshot (a thousand channels is a megabyte of JSON for the server to write and the page
   * to parse) waits for a quiet poll.
   */
  async refresh(force = false): Promise<void> {
    const seen = this.store.eventCount;
    const get = <T>(path: string) => call<T>(this.session, 'ari', 'GET', path);
    const busy = !force && this.socket?.readyState === WebSocket.OPEN && seen !== this.countAtPoll;
    this.countAtPoll = seen;
    if (busy) {
      const apps = await get<Snapshot['apps']>('/ari/applications');
      this.store.loadApps(apps);
      this.follow(apps.map((a) => a.name));
      return;
    }
    const [apps, channels, bridges, endpoints, deviceStates] = await Promise.all([
      get<Snapshot['apps']>('/ari/applications'), get<Snapshot['channels']>('/ari/channels'), get<Snapshot['bridges']>('/ari/bridges'),
      get<Snapshot['endpoints']>('/ari/endpoints'), get<Snapshot['deviceStates']>('/ari/deviceStates'),
    ]);
    if (force || this.store.eventCount === seen) this.store.load({ apps, channels, bridges, endpoints, deviceStates });
    this.follow(apps.map((a) => a.name));
  }

  /** GET /sim/clock: which clock runs, its instant and the timers pending (kept in the store for the header). */
  async readClock(): Promise<void> {
    const c = await call<ClockReading>(this.session, 'ari', 'GET', '/sim/clock');
    this.store.heardTime(parseTimestamp(c.now), c.mode);
    this.store.reading = c;
    this.store.changed();
  }

  /** Opens (or reopens) the tap on exactly `names`. */
  private follow(names: string[]): void {
    const key = [...names].sort().join(',');
    if (key === this.tapped && this.socket) return;
    this.tapped = key;
    this.socket?.close(1000);
    this.socket = undefined;
    this.store.tap = { state: 'idle', apps: key ? key.split(',') : [] };
    this.store.changed();
    if (!key || this.stopped) return;
    // Batched: a burst of events arrives as a few array frames, not one message per event.
    const ws = new WebSocket(socketUrl('/sim/events', { app: key, batch: 'true', api_key: `${this.session.ari.user}:${this.session.ari.password}` }));
    this.socket = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.store.tap = { state: 'open', apps: key.split(',') };
      this.store.changed();
    };
    ws.onmessage = (m) => {
      for (const frame of JSON.parse(String(m.data)) as TapFrame[]) {
        this.store.apply(frame.app, frame.event);
        this.log.push(frame);
      }
    };
    ws.onclose = () => {
      if (this.socket !== ws) return;
      this.socket = undefined;
      this.store.tap = opened
        ? { state: 'closed', apps: key.split(','), message: 'event tap closed; reconnecting' }
        : { state: 'refused', apps: key.split(','), message: 'event tap refused (it needs an ARI user with write access)' };
      this.store.changed();
      if (!this.stopped) this.retry = setTimeout(() => void this.refresh(true).catch(() => undefined), RECONNECT_MS);
    };
  }
}
