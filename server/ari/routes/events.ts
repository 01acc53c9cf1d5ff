import * as op from '../../../protocol/ari/operations/events.js';
import type { AriBinder } from '../http/bind.js';
import type { Telephony } from '../telephony.js';

/** REST operations of the events resource (the event WebSocket itself is served by events-ws.ts). */
export function mountEvents(b: AriBinder, t: Pick<Telephony, 'userEvents' | 'broadcasts'>): void {
  b.mount(op.userEvent, (a) => t.userEvents.raise(a.application, a.eventName, a.source, a.variables));
  b.mount(op.claimChannel, (a) => t.broadcasts.claim(a.channelId, a.application));
}
