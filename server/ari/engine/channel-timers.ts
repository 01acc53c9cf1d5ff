import type { Logger } from '../../log.js';
import type { Clock } from '../time/clock.js';
import type { Channel, Timer, TimerKind } from './channel.js';
import type { GroupCommit } from './group-commit.js';

/** What runs when a channel's timer of one kind fires. */
export type TimerHandler = (ch: Channel, data: unknown) => void;

/**
 * Channel timers on the injectable clock. A timer is part of the channel's
 * stored record, so a restart re-arms it; each kind has one handler.
 */
export class ChannelTimers {
  private readonly handlers = new Map<TimerKind, TimerHandler>();

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly commits: GroupCommit,
  ) {}

  /** Registers the handler of a timer kind. */
  on(kind: TimerKind, handler: TimerHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Schedules `kind` after `simMs` simulated milliseconds; the timer is part of the channel's stored record. */
  schedule(ch: Channel, kind: TimerKind, simMs: number, data?: unknown): Timer {
    const t: Timer = { kind, due: this.clock.instantAfter(simMs), ...(data !== undefined ? { data } : {}) };
    ch.d.timers.push(t);
    this.arm(ch, t);
    this.commits.touch(ch);
    return t;
  }

  /** Starts the clock on a stored timer (a new one, or one restored after a restart). */
  arm(ch: Channel, t: Timer): void {
    ch.rt.handles.set(t, this.clock.at(t.due, () => this.fire(ch, t)));
  }

  private fire(ch: Channel, t: Timer): void {
    ch.rt.handles.delete(t);
    const i = ch.d.timers.indexOf(t);
    if (i < 0) return;
    ch.d.timers.splice(i, 1);
    this.commits.touch(ch);
    if (ch.d.ended !== null || this.commits.stopped) return;
    try {
      this.handlers.get(t.kind)?.(ch, t.data);
    } catch (err) {
      this.log.error({ err, channel: ch.id, timer: t.kind }, 'timer handler failed');
    }
  }

  /** True when the channel has a pending timer of this kind. */
  has(ch: Channel, kind: TimerKind): boolean {
    return ch.d.timers.some((t) => t.kind === kind);
  }

  /** Cancels the channel's timers of one kind. */
  cancel(ch: Channel, kind: TimerKind): void {
    const keep: Timer[] = [];
    for (const t of ch.d.timers) {
      if (t.kind === kind) {
        this.clock.cancel(ch.rt.handles.get(t));
        ch.rt.handles.delete(t);
      } else keep.push(t);
    }
    if (keep.length !== ch.d.timers.length) {
      ch.d.timers = keep;
      this.commits.touch(ch);
    }
  }

  /** Cancels and forgets every timer of a channel (it ended). */
  cancelAll(ch: Channel): void {
    this.disarm(ch);
    ch.d.timers = [];
  }

  /** Stops the clock on a channel's timers but keeps them in its record (the server stops; a restart re-arms them). */
  disarm(ch: Channel): void {
    for (const h of ch.rt.handles.values()) this.clock.cancel(h);
    ch.rt.handles.clear();
  }
}
