import * as op from '../../protocol/sim/endpoint-operations.js';
import type { AriBinder } from '../ari/http/bind.js';
import type { Telephony } from '../ari/telephony.js';

/** The simulation API for endpoints: registrations, qualify outcomes, and text messages from and to the far end. */
export function mountSimEndpoints(b: AriBinder, t: Pick<Telephony, 'registrations' | 'endpointMessages'>): void {
  const { registrations: reg, endpointMessages: messages } = t;

  b.mount(op.getSimEndpoint, (a) => {
    const e = reg.find(a.tech, a.resource);
    return { endpoint: reg.model(e), contacts: reg.view(e), ...messages.inbox(e) };
  });
  b.mount(op.registerContact, (a) => reg.register(reg.find(a.tech, a.resource), a.uri, a.expires, a.qualify));
  b.mount(op.unregisterContact, (a) => reg.unregister(reg.find(a.tech, a.resource), a.uri));
  b.mount(op.qualifyContact, (a) => reg.qualify(reg.find(a.tech, a.resource), a.uri, a.reachable, a.roundtrip_usec));
  b.mount(op.sendFarMessage, (a) => messages.receive(reg.find(a.tech, a.resource), a.to, a.from, a.body, a.variables));
}
