import * as op from '../../../protocol/ari/operations/events.js';
import type { AriBinder } from '../http/bind.js';
import type { Telephony } from '../telephony.js';

/** REST operations of the events resource (the event WebSocket itself is served by events-ws.ts). */
export function mountEvents(b: AriBinder, t: Pick<Telephony, 'userEvents'>): void {
  b.mount(op.userEvent, (a) => t.userEvents.raise(a.application, a.eventName, a.source, a.variables));
}
