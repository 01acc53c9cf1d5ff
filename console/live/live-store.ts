import { Observable, parseTimestamp } from '../observable.js';
import type { Application, AriEvent, Bridge, Channel, DeviceState, Endpoint, LiveChannel, LiveRecording, Playback } from './models.js';

/** GET /sim/clock's answer. */
export interface ClockReading {
  mode: 'real' | 'virtual';
  now: string;
  pending: number;
}

/** What a REST snapshot brings (GET /ari/applications, /channels, /bridges, /endpoints, /deviceStates). */
export interface Snapshot {
  apps: Application[];
  channels: Channel[];
  bridges: Bridge[];
  endpoints: Endpoint[];
  deviceStates: DeviceState[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasId = (v: unknown): v is { id: string } => isObject(v) && typeof v.id === 'string';

/** Whether two channels hold the same values (key by key; nested values by their JSON). */
function sameChannel(a: LiveChannel, b: LiveChannel): boolean {
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
    if (x[k] !== y[k] && JSON.stringify(x[k]) !== JSON.stringify(y[k])) return false;
  }
  return true;
}

/** The application a channel runs in, from its dialplan location (`Stasis(app,args)`), if any. */
export function stasisAppOf(c: Channel): string | undefined {
  if (c.dialplan?.app_name !== 'Stasis' || !c.dialplan.app_data) return undefined;
  return c.dialplan.app_data.split(',')[0] || undefined;
}

/**
 * The calls as the console shows them: started from a REST snapshot, then kept up to date
 * by each event the tap delivers. The server's clock is followed too (event timestamps and
 * GET /sim/clock), so durations tick in the server's time, virtual or real.
 */
export class LiveStore extends Observable {
  apps = new Map<string, Application>();
  channels = new Map<string, LiveChannel>();
  bridges = new Map<string, Bridge>();
  playbacks = new Map<string, Playback>();
  recordings = new Map<string, LiveRecording>();
  endpoints = new Map<string, Endpoint>();
  deviceStates = new Map<string, DeviceState>();
  /** The server's clock: its mode, and the instant last heard of (epoch ms) with when we heard it (performance.now()). */
  clock = { mode: 'real' as 'real' | 'virtual', now: NaN, heardAt: 0 };
  /** The last answer of GET /sim/clock, as the header shows it. */
  reading: ClockReading | undefined;
  /** Tap state, shown in the header. */
  tap: { state: 'idle' | 'open' | 'closed' | 'refused'; apps: string[]; message?: string } = { state: 'idle', apps: [] };
  /**
   * Told when the channel list as a whole changes (a channel comes, goes or moves to another
   * application), so the table is laid out again only then; a changed channel tells its own row.
   */
  readonly list = new Observable();
  private readonly rows = new Map<string, Observable>();

  /** What the row of channel `id` watches: told each time that channel changes. */
  rowOf(id: string): Observable {
    let o = this.rows.get(id);
    if (!o) this.rows.set(id, (o = new Observable()));
    return o;
  }

  private putChannel(c: LiveChannel): void {
    const old = this.channels.get(c.id);
    this.channels.set(c.id, c);
    if (!old || old.app !== c.app || old.creationtime !== c.creationtime) this.list.changed();
    this.rows.get(c.id)?.changed();
  }

  private dropChannel(id: string): void {
    if (this.channels.delete(id)) this.list.changed();
  }

  /** Replaces the applications only (a poll while the tap is busy reads nothing else). */
  loadApps(apps: Snapshot['apps']): void {
    this.apps = new Map(apps.map((a) => [a.name, a]));
    this.changed();
  }

  /** Replaces what REST answered for; playbacks and recordings (which ARI cannot list) are kept. */
  load(s: Snapshot): void {
    this.apps = new Map(s.apps.map((a) => [a.name, a]));
    const before = this.channels;
    this.channels = new Map(s.channels.map((c) => {
      const old = before.get(c.id);
      // What only events tell (hold, talking, variables set since) outlives the snapshot.
      const channelvars = old?.channelvars || c.channelvars ? { ...old?.channelvars, ...c.channelvars } : undefined;
      const now: LiveChannel = { ...c, app: stasisAppOf(c) ?? old?.app, held: old?.held, talking: old?.talking, channelvars };
      // An unchanged channel keeps its object, so its row is not drawn again for every snapshot.
      return [c.id, old && sameChannel(old, now) ? old : now];
    }));
    for (const [id, c] of this.channels) if (before.get(id) !== c) this.rows.get(id)?.changed();
    // Rows of channels gone and no longer drawn need no watching.
    for (const [id, o] of this.rows) if (!this.channels.has(id) && !o.watched) this.rows.delete(id);
    this.list.changed();
    this.bridges = new Map(s.bridges.map((b) => [b.id, b]));
    this.endpoints = new Map(s.endpoints.map((e) => [`${e.technology}/${e.resource}`, e]));
    this.deviceStates = new Map(s.deviceStates.map((d) => [d.name, d]));
    this.changed();
  }

  /** The server's current instant as best known (epoch ms). */
  serverNow(): number {
    if (Number.isNaN(this.clock.now)) return Date.now();
    return this.clock.mode === 'virtual' ? this.clock.now : this.clock.now + (performance.now() - this.clock.heardAt);
  }

  /** Records an instant the server reported (never moving backwards). */
  heardTime(ms: number, mode?: 'real' | 'virtual'): void {
    if (mode) this.clock.mode = mode;
    if (Number.isNaN(ms)) return;
    if (!Number.isNaN(this.clock.now) && ms < this.serverNow()) return;
    this.clock.now = ms;
    this.clock.heardAt = performance.now();
  }

  private upsertChannel(c: Channel, app: string | undefined): void {
    const old = this.channels.get(c.id);
    this.putChannel({ ...old, ...c, app: app ?? old?.app ?? stasisAppOf(c) });
  }

  private flag(id: unknown, key: 'held' | 'talking', on: boolean): void {
    const c = typeof id === 'string' ? this.channels.get(id) : undefined;
    if (c) this.putChannel({ ...c, [key]: on });
  }

  /** Events applied so far (a snapshot answered while events arrived is older than they are). */
  eventCount = 0;

  /** Applies one event delivered for `app`. */
  apply(app: string, e: AriEvent): void {
    this.eventCount++;
    this.heardTime(parseTimestamp(e.timestamp));
    const channel = hasId(e.channel) ? (e.channel as unknown as Channel) : undefined;
    if (channel) {
      // After StasisEnd the application hears no more of the channel: it leaves the view, and the
      // next REST snapshot brings it back (outside any application) if it lives on in the dialplan.
      if (e.type === 'ChannelDestroyed' || e.type === 'StasisEnd') this.dropChannel(channel.id);
      else this.upsertChannel(channel, app);
    }
    // Dial names both sides; the callee is followed too (it may not be in any application).
    for (const key of ['peer', 'caller'] as const) if (hasId(e[key]) && e.type === 'Dial') this.upsertChannel(e[key] as unknown as Channel, undefined);
    switch (e.type) {
      case 'ChannelHold':
      case 'ChannelUnhold':
        this.flag(channel?.id, 'held', e.type === 'ChannelHold');
        break;
      case 'ChannelTalkingStarted':
      case 'ChannelTalkingFinished':
        this.flag(channel?.id, 'talking', e.type === 'ChannelTalkingStarted');
        break;
      case 'ChannelVarset': {
        const c = channel && this.channels.get(channel.id);
        // A new object, never an edit: rows are drawn again only for channels whose object changed.
        if (c && typeof e.variable === 'string') this.putChannel({ ...c, channelvars: { ...c.channelvars, [e.variable]: String(e.value ?? '') } });
        break;
      }
    }
    if (hasId(e.bridge)) {
      if (e.type === 'BridgeDestroyed') this.bridges.delete(e.bridge.id);
      else this.bridges.set(e.bridge.id, e.bridge as unknown as Bridge);
    }
    if (hasId(e.playback)) {
      if (e.type === 'PlaybackFinished') this.playbacks.delete(e.playback.id);
      else this.playbacks.set(e.playback.id, e.playback as unknown as Playback);
    }
    if (isObject(e.recording) && typeof e.recording.name === 'string') {
      const r = e.recording as unknown as LiveRecording;
      if (e.type === 'RecordingStarted') this.recordings.set(r.name, r);
      else if (e.type === 'RecordingFinished' || e.type === 'RecordingFailed') this.recordings.delete(r.name);
    }
    if (isObject(e.endpoint) && typeof e.endpoint.resource === 'string') {
      const ep = e.endpoint as unknown as Endpoint;
      this.endpoints.set(`${ep.technology}/${ep.resource}`, ep);
    }
    if (isObject(e.device_state) && typeof e.device_state.name === 'string') {
      const d = e.device_state as unknown as DeviceState;
      this.deviceStates.set(d.name, d);
    }
    this.changed();
  }

  /** Applications to show: those the server lists, and those channels name that it does not (not connected). */
  appNames(): { name: string; listed: boolean }[] {
    const named = new Set<string>();
    for (const c of this.channels.values()) if (c.app) named.add(c.app);
    const listed = [...this.apps.keys()];
    return [...listed.map((name) => ({ name, listed: true })), ...[...named].filter((n) => !this.apps.has(n)).sort().map((name) => ({ name, listed: false }))];
  }
}
