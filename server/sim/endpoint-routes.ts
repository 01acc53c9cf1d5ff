import * as op from '../../protocol/sim/endpoint-operations.js';
import * as sop from '../../protocol/sim/script-operations.js';
import type { AriBinder } from '../ari/http/bind.js';
import type { Telephony } from '../ari/telephony.js';

/** The simulation API for endpoints: registrations, qualify outcomes, text messages from and to the far end, and the scripts its far end follows. */
export function mountSimEndpoints(b: AriBinder, t: Pick<Telephony, 'registrations' | 'endpointMessages' | 'farScripts' | 'endpointScripts'>): void {
  const { registrations: reg, endpointMessages: messages, endpointScripts: scripts } = t;

  b.mount(op.getSimEndpoint, (a) => {
    const e = reg.find(a.tech, a.resource);
    const script = scripts.view(e);
    return { endpoint: reg.model(e), contacts: reg.view(e), ...messages.inbox(e), ...(script ? { script } : {}) };
  });
  b.mount(op.registerContact, (a) => reg.register(reg.find(a.tech, a.resource), a.uri, a.expires, a.qualify));
  b.mount(op.unregisterContact, (a) => reg.unregister(reg.find(a.tech, a.resource), a.uri));
  b.mount(op.qualifyContact, (a) => reg.qualify(reg.find(a.tech, a.resource), a.uri, a.reachable, a.roundtrip_usec));
  b.mount(sop.getEndpointScript, (a) => scripts.get(reg.find(a.tech, a.resource)));
  b.mount(sop.setEndpointScript, (a) => t.farScripts.setForEndpoint(reg.find(a.tech, a.resource), a.script, a.calls));
  b.mount(sop.deleteEndpointScript, (a) => scripts.remove(reg.find(a.tech, a.resource)));
  b.mount(op.sendFarMessage, (a) => messages.receive(reg.find(a.tech, a.resource), a.to, a.from, a.body, a.variables));
}
