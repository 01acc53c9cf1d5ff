import { SetMap } from '../../util/set-map.js';
import type { EventSink } from '../apps.js';

/** What the event outbox asks about taps: who copies the frames an application's sockets are sent. */
export interface EventTapPort {
  tapsOf(app: string): ReadonlySet<EventSink> | undefined;
}

/**
 * Sinks that copy what applications' event sockets receive (GET /sim/events),
 * by application name. Kept apart from the application registry on purpose:
 * a tap registers no application, is no socket of one (drop_socket and "is it
 * registered?" never see it), and only ever gets frames some socket of the
 * app is sent.
 */
export class EventTaps extends SetMap<string, EventSink> implements EventTapPort {
  tapsOf(app: string): ReadonlySet<EventSink> | undefined {
    return this.get(app);
  }
}
