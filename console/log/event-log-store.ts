import { Observable } from '../observable.js';
import type { AriEvent, TapFrame } from '../live/models.js';

/** One logged event: the frame as the tap delivered it, numbered in arrival order. */
export interface LogEntry {
  seq: number;
  app: string;
  event: AriEvent;
}

export interface LogFilter {
  app: string;
  /** Matches a channel's id or name (any channel the event carries), as a substring. */
  channel: string;
  type: string;
}

/** How many events the log keeps; older ones are dropped first. */
export const LOG_LIMIT = 5000;

/** The channels an event is about: `channel`, and Dial's `peer` and `caller`. */
function channelsOf(e: AriEvent): { id: string; name: string }[] {
  const out: { id: string; name: string }[] = [];
  for (const key of ['channel', 'peer', 'caller', 'replace_channel']) {
    const c = e[key] as { id?: unknown; name?: unknown } | undefined;
    if (c && typeof c.id === 'string') out.push({ id: c.id, name: typeof c.name === 'string' ? c.name : '' });
  }
  return out;
}

/** Whether an entry passes the filter (an empty field lets everything through). */
export function matches(entry: LogEntry, f: LogFilter): boolean {
  if (f.app && entry.app !== f.app) return false;
  if (f.type && entry.event.type !== f.type) return false;
  if (f.channel) {
    const want = f.channel.trim().toLowerCase();
    if (want && !channelsOf(entry.event).some((c) => c.id.toLowerCase().includes(want) || c.name.toLowerCase().includes(want))) return false;
  }
  return true;
}

/**
 * The event log: the newest LOG_LIMIT events, oldest first. While paused the view keeps
 * showing what it showed; events still arrive and are kept, and are counted until resumed.
 * Events are appended as they arrive; dropping the oldest and filtering happen when the
 * view reads (once per frame), so a burst costs one append per event.
 */
export class EventLogStore extends Observable {
  private entries: LogEntry[] = [];
  private seq = 0;
  /** While paused: the last sequence number shown. */
  private pausedAt: number | undefined;
  /** The last answer of `shown`, kept while neither the log nor the filter changed. */
  private cache: { version: number; filter: LogFilter; shown: LogEntry[] } | undefined;
  readonly types = new Set<string>();
  readonly apps = new Set<string>();

  push(frame: TapFrame): void {
    this.entries.push({ seq: ++this.seq, app: frame.app, event: frame.event });
    this.types.add(frame.event.type);
    this.apps.add(frame.app);
    this.changed();
  }

  /** The kept entries, the oldest beyond LOG_LIMIT dropped now (in one go however many arrived). */
  private kept(): LogEntry[] {
    if (this.entries.length > LOG_LIMIT) this.entries = this.entries.slice(-LOG_LIMIT);
    return this.entries;
  }

  get paused(): boolean {
    return this.pausedAt !== undefined;
  }

  pause(): void {
    this.pausedAt = this.seq;
    this.changed();
  }

  resume(): void {
    this.pausedAt = undefined;
    this.changed();
  }

  /** Events that arrived since the pause (kept, not yet shown). */
  get waiting(): number {
    if (this.pausedAt === undefined) return 0;
    const kept = this.kept();
    // Entries are in sequence order: count back from the newest.
    let n = 0;
    for (let i = kept.length - 1; i >= 0 && kept[i]!.seq > this.pausedAt; i--) n++;
    return n;
  }

  /** Every event kept, including those waiting behind a pause. */
  get size(): number {
    return this.kept().length;
  }

  /** The events the log shows under `f`, oldest first (the same array until the log or `f` changes). */
  shown(f: LogFilter): LogEntry[] {
    const c = this.cache;
    if (c && c.version === this.version && c.filter.app === f.app && c.filter.channel === f.channel && c.filter.type === f.type) return c.shown;
    const upTo = this.pausedAt ?? Infinity;
    const plain = !f.app && !f.type && !f.channel.trim();
    const shown = this.kept().filter((e) => e.seq <= upTo && (plain || matches(e, f)));
    this.cache = { version: this.version, filter: { ...f }, shown };
    return shown;
  }

  clear(): void {
    this.entries = [];
    this.changed();
  }
}

/** The events as JSON lines, each the frame as the tap delivered it (`{"app", "event"}`). */
export function toJsonLines(entries: LogEntry[]): string {
  return entries.map((e) => `${JSON.stringify({ app: e.app, event: e.event })}\n`).join('');
}
