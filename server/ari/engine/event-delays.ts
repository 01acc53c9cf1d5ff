import type { EventSink } from '../apps.js';
import type { Clock, TimerHandle } from '../time/clock.js';

/** What the event outbox asks before it writes a frame: whether the frame is to leave later instead. */
export interface EventDelay {
  /** Takes `json` for `sink` (serving or watching `app`) to deliver later; false when it is to go now. */
  hold(app: string, sink: EventSink, json: string): boolean;
}

interface Waiting {
  frames: Array<{ due: number; json: string }>;
  timer: TimerHandle | null;
}

/**
 * Holds events to chosen applications back for a while (the delay_events
 * fault), on the simulation's clock so a virtual clock delivers them when it
 * is advanced past their instant. Each socket keeps its own line: a frame
 * never overtakes one queued before it, even once the delay is lifted (the
 * frames after it then wait for the line to empty).
 */
export class EventDelays implements EventDelay {
  private readonly delays = new Map<string, number>();
  private readonly waiting = new Map<EventSink, Waiting>();

  constructor(private readonly clock: Clock) {}

  /** Sets how long events to `app` wait; 0 lifts the delay. */
  set(app: string, ms: number): void {
    if (ms > 0) this.delays.set(app, ms);
    else this.delays.delete(app);
  }

  hold(app: string, sink: EventSink, json: string): boolean {
    const ms = this.delays.get(app) ?? 0;
    let w = this.waiting.get(sink);
    if (!ms && !w) return false;
    if (!w) this.waiting.set(sink, (w = { frames: [], timer: null }));
    const last = w.frames[w.frames.length - 1]?.due ?? -Infinity;
    w.frames.push({ due: Math.max(this.clock.instantAfter(ms), last), json });
    if (!w.timer) this.arm(sink, w);
    return true;
  }

  private arm(sink: EventSink, w: Waiting): void {
    w.timer = this.clock.at(w.frames[0]!.due, () => this.release(sink, w));
  }

  /** The first frame's instant has come: it leaves, with every later one due by now. */
  private release(sink: EventSink, w: Waiting): void {
    w.timer = null;
    const now = this.clock.now();
    sink.cork?.();
    do sink.deliver(w.frames.shift()!.json);
    while (w.frames.length && w.frames[0]!.due <= now);
    sink.uncork?.();
    if (w.frames.length) this.arm(sink, w);
    else this.waiting.delete(sink);
  }
}
