import type { MetaRepo } from '../../db/repos/meta-repo.js';
import type { Clock } from '../time/clock.js';

/**
 * The engine's running numbers (channel sequence, unique ids, per-technology
 * name suffixes); they are stored with the next group commit so a restart
 * never hands out a number twice.
 */
export class EngineCounters {
  private c = { seq: 0, uniqueid: 0, names: {} as Record<string, number> };
  private dirty = false;

  constructor(meta: MetaRepo, private readonly clock: Clock) {
    const stored = meta.get('counters');
    if (stored) this.c = JSON.parse(stored) as typeof this.c;
  }

  /** The next channel sequence number (the order channels are stored in). */
  nextSeq(): number {
    this.dirty = true;
    return ++this.c.seq;
  }

  /** Asterisk's default unique id: `<epoch seconds>.<counter>`. */
  nextUniqueId(): string {
    this.dirty = true;
    return `${Math.floor(this.clock.now() / 1000)}.${++this.c.uniqueid}`;
  }

  /** Channel names carry a per-technology sequence in 8 hex digits: `PJSIP/alice-0000000a`. */
  nextNameSuffix(tech: string): string {
    const n = (this.c.names[tech] ?? 0) + 1;
    this.c.names[tech] = n;
    this.dirty = true;
    return n.toString(16).padStart(8, '0');
  }

  /** True when a number was handed out since the last `take`. */
  get changed(): boolean {
    return this.dirty;
  }

  /** The counters as stored, when they changed since the last call; null otherwise. */
  take(): string | null {
    if (!this.dirty) return null;
    this.dirty = false;
    return JSON.stringify(this.c);
  }
}
