import type { EventSink } from '../apps.js';

/** What the event outbox asks about taps: who copies the frames an application's sockets are sent. */
export interface EventTapPort {
  tapsOf(app: string): ReadonlySet<EventSink> | undefined;
}

/**
 * Sinks that copy what applications' event sockets receive (GET /sim/events).
 * Kept apart from the application registry on purpose: a tap registers no
 * application, is no socket of one (drop_socket and "is it registered?"
 * never see it), and only ever gets frames some socket of the app is sent.
 */
export class EventTaps implements EventTapPort {
  private readonly taps = new Map<string, Set<EventSink>>();

  add(app: string, sink: EventSink): void {
    let set = this.taps.get(app);
    if (!set) this.taps.set(app, (set = new Set()));
    set.add(sink);
  }

  remove(app: string, sink: EventSink): void {
    const set = this.taps.get(app);
    if (set?.delete(sink) && set.size === 0) this.taps.delete(app);
  }

  tapsOf(app: string): ReadonlySet<EventSink> | undefined {
    return this.taps.get(app);
  }
}
