import type { Clock, TimerHandle } from './clock.js';
import { TimerQueue, type QueuedTimer } from './timer-queue.js';

/** A timer of the virtual clock: its place in the queue, and its period when it repeats. */
class VirtualTimer implements TimerHandle, QueuedTimer {
  declare readonly __timerHandle: true;
  index = -1;
  seq = 0;
  constructor(
    public instant: number,
    readonly fn: () => void,
    readonly period: number,
  ) {}
}

/**
 * What runs between two timers while the clock advances: the work a timer
 * started on later turns (deferred starts, the group commit and the events it
 * delivers) finishes there, before time moves on to the next timer.
 */
export type Settle = () => Promise<void>;

/** How many times one timer's work is let settle again while it keeps making timers. */
const MAX_RESETTLES = 8;

/** One event-loop turn: microtasks, then everything queued with setImmediate before it. */
export const nextTurn: Settle = () => new Promise((resolve) => setImmediate(resolve));

/** How `advanceUntilIdle` ended. */
export interface AdvanceResult {
  /** The clock's instant when it stopped. */
  now: number;
  /** True when nothing was left pending; false when it stopped at its limit with timers still ahead. */
  idle: boolean;
}

/**
 * A clock that stands still until told to move. Timers wait in a queue
 * ordered by instant, then by the order they were made, so the same requests
 * and the same advances always run them in the same order. `advance` moves
 * the clock to each due timer's instant in turn, runs it and lets the work it
 * started settle before looking for the next; timers made meanwhile that fall
 * inside the window run too. A timer due at the current instant (a zero
 * delay) runs on a later turn without an advance, as a zero timeout would:
 * only the passing of time waits to be asked for.
 */
export class VirtualClock implements Clock {
  private current: number;
  private readonly queue = new TimerQueue<VirtualTimer>();
  private seq = 0;
  /** Advances run one at a time; each waits for the one before. */
  private running: Promise<unknown> = Promise.resolve();
  private advancing = false;
  private kickQueued = false;
  /** `onError` hears of errors thrown by timers (they never stop an advance); the server logs them. */
  constructor(start: number, private readonly onError: (err: unknown) => void = () => {}) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  simSince(from: number, to: number = this.current): number {
    return to - from;
  }

  instantAfter(simMs: number, from: number = this.current): number {
    return from + simMs;
  }

  at(instant: number, fn: () => void): TimerHandle {
    return this.add(new VirtualTimer(instant, fn, 0));
  }

  after(simMs: number, fn: () => void): TimerHandle {
    return this.at(this.current + Math.max(0, simMs), fn);
  }

  every(simMs: number, fn: () => void): TimerHandle {
    // A period below a millisecond would never let the clock move past it.
    const period = Math.max(1, simMs);
    return this.add(new VirtualTimer(this.current + period, fn, period));
  }

  cancel(handle: TimerHandle | null | undefined): void {
    if (handle instanceof VirtualTimer) this.queue.remove(handle);
  }

  /** Timers due in the future (those due now are about to run and are not counted). */
  pending(): number {
    return this.queue.countAfter(this.current);
  }

  /** The instant of the next timer, or undefined when none is waiting. */
  nextDue(): number | undefined {
    return this.queue.peek()?.instant;
  }

  /**
   * Runs every timer due in the next `ms` milliseconds in time order, then
   * leaves the clock at now + ms. Resolves with that instant.
   */
  advance(ms: number, settle: Settle = nextTurn): Promise<number> {
    return this.exclusive(async () => {
      const target = this.current + Math.max(0, ms);
      await this.runUntil(target, settle);
      this.current = Math.max(this.current, target);
      return this.current;
    });
  }

  /**
   * Moves from one due timer to the next until none is left, or until the
   * next one lies more than `maxMs` ahead of where it started (the clock then
   * stops at that limit). A repeating timer is never done: give a limit while one runs.
   */
  advanceUntilIdle(maxMs = Number.POSITIVE_INFINITY, settle: Settle = nextTurn): Promise<AdvanceResult> {
    return this.exclusive(async () => {
      const limit = this.current + Math.max(0, maxMs);
      await this.runUntil(limit, settle);
      const idle = this.queue.peek() === undefined;
      if (!idle && Number.isFinite(limit)) this.current = Math.max(this.current, limit);
      return { now: this.current, idle };
    });
  }

  private add(t: VirtualTimer): VirtualTimer {
    t.seq = ++this.seq;
    this.queue.push(t);
    if (t.instant <= this.current) this.kick();
    return t;
  }

  private async exclusive<T>(work: () => Promise<T>): Promise<T> {
    const mine = this.running.then(async () => {
      this.advancing = true;
      try {
        return await work();
      } finally {
        this.advancing = false;
        // Timers made due-now while advancing, after the last look at the queue, still run.
        if ((this.queue.peek()?.instant ?? Infinity) <= this.current) this.kick();
      }
    });
    this.running = mine.catch(() => {});
    return mine;
  }

  private async runUntil(target: number, settle: Settle): Promise<void> {
    for (let t = this.queue.peek(); t && t.instant <= target; t = this.queue.peek()) {
      this.fire(t);
      // Work that made timers on a later turn may still be going on: it settles again until none are made
      // (a few times at most: other clients' requests make timers too, and must not hold the advance up).
      for (let made = -1, n = 0; made !== this.seq && n < MAX_RESETTLES; n++) {
        made = this.seq;
        await settle();
      }
    }
  }

  /** Takes a due timer off the queue (a repeating one goes back a period later), moves the clock to it and runs it. */
  private fire(t: VirtualTimer): void {
    this.queue.remove(t);
    // A timer due in the past (restored after a restart) runs now: the clock never goes back.
    this.current = Math.max(this.current, t.instant);
    if (t.period > 0) {
      t.instant = this.current + t.period;
      t.seq = ++this.seq;
      this.queue.push(t);
    }
    try {
      t.fn();
    } catch (err) {
      this.onError(err);
    }
  }

  /** Runs, on a later turn, the timers due at the current instant (those made by requests while time stands still). */
  private kick(): void {
    if (this.kickQueued || this.advancing) return;
    this.kickQueued = true;
    setImmediate(() => {
      this.kickQueued = false;
      if (this.advancing) return;
      // Only the timers due now when the turn starts; any they make due now get a turn of their own.
      const due: VirtualTimer[] = [];
      for (let t = this.queue.peek(); t && t.instant <= this.current; t = this.queue.peek()) {
        due.push(t);
        this.queue.remove(t);
      }
      for (const t of due) this.queue.push(t);
      for (const t of due) if (t.index >= 0) this.fire(t);
    });
  }
}
