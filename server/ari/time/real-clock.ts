import type { Clock, TimerHandle } from './clock.js';

/** setTimeout's ceiling; longer waits are re-armed in steps. */
const MAX_TIMEOUT = 2 ** 31 - 1;

/** A Node timer whose underlying timeout may be replaced (a long wait re-armed in steps). */
class RealTimer implements TimerHandle {
  declare readonly __timerHandle: true;
  timeout: NodeJS.Timeout | undefined;
  repeating = false;
}

/**
 * The wall clock, sped up by SIM_TIME_SCALE: instants are `Date.now()`, and a
 * simulated duration takes `simMs / scale` wall milliseconds. This is the
 * only place in the engine that reads the system time or arms Node timers.
 */
export class RealClock implements Clock {
  /** Timers armed and not yet run or cancelled (repeating ones until cancelled). */
  private readonly live = new Set<RealTimer>();

  constructor(readonly scale: number) {}

  /** How many timers are waiting (GET /sim/clock's `pending`). */
  pending(): number {
    return this.live.size;
  }

  now(): number {
    return Date.now();
  }

  simSince(from: number, to: number = Date.now()): number {
    return (to - from) * this.scale;
  }

  instantAfter(simMs: number, from: number = Date.now()): number {
    return from + simMs / this.scale;
  }

  at(instant: number, fn: () => void): TimerHandle {
    const t = new RealTimer();
    this.live.add(t);
    this.arm(t, instant, fn);
    return t;
  }

  after(simMs: number, fn: () => void): TimerHandle {
    return this.at(this.instantAfter(simMs), fn);
  }

  every(simMs: number, fn: () => void): TimerHandle {
    const t = new RealTimer();
    t.repeating = true;
    this.live.add(t);
    t.timeout = setInterval(fn, Math.max(1, Math.floor(simMs / this.scale)));
    return t;
  }

  cancel(handle: TimerHandle | null | undefined): void {
    if (!handle) return;
    const t = handle as RealTimer;
    this.live.delete(t);
    if (t.repeating) clearInterval(t.timeout);
    else clearTimeout(t.timeout);
    t.timeout = undefined;
  }

  private arm(t: RealTimer, instant: number, fn: () => void): void {
    const delay = Math.max(0, instant - Date.now());
    t.timeout = setTimeout(() => {
      // Node counts a timeout from the event loop's cached time, which trails Date.now() by as
      // long as the current loop iteration has run: on a busy process a timer can fire before
      // its instant on the clock that stamps events. It waits out the rest instead, so the
      // event it causes is never stamped earlier than its due time.
      if (Date.now() < instant) return this.arm(t, instant, fn);
      t.timeout = undefined;
      this.live.delete(t);
      fn();
    }, Math.min(delay, MAX_TIMEOUT));
  }
}
