import * as op from '../../../protocol/ari/operations/endpoints.js';
import { notFound } from '../../errors.js';
import type { AriBinder } from '../http/bind.js';
import type { Telephony } from '../telephony.js';

export function mountEndpoints(b: AriBinder, t: Pick<Telephony, 'engine' | 'registrations' | 'endpointMessages'>): void {
  const { engine, registrations, endpointMessages: messages } = t;
  const all = () => [...engine.fixtures.endpoints.values()];

  b.mount(op.listEndpoints, () => all().map((e) => registrations.model(e)));
  b.mount(op.listByTech, (a) => {
    const list = all().filter((e) => e.tech.toLowerCase() === a.tech.toLowerCase());
    if (!list.length) throw notFound(`No Endpoints found - invalid tech ${a.tech}`);
    return list.map((e) => registrations.model(e));
  });
  b.mount(op.getEndpoint, (a) => registrations.model(registrations.find(a.tech, a.resource)));
  b.mount(op.sendMessage, (a) => messages.sendMessage(a.to, a.from, a.body, a.variables));
  b.mount(op.sendMessageToEndpoint, (a) => messages.sendMessage(messages.endpointUri(a.tech, a.resource), a.from, a.body, a.variables));
  b.mount(op.refer, (a) => messages.refer(a.to, a.from, a.refer_to, a.to_self, a.variables));
  b.mount(op.referToEndpoint, (a) => messages.refer(messages.endpointUri(a.tech, a.resource), a.from, a.refer_to, a.to_self, a.variables));
}
