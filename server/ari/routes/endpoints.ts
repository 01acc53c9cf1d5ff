import * as op from '../../../protocol/ari/operations/endpoints.js';
import { notFound } from '../../errors.js';
import type { AriBinder } from '../http/bind.js';
import { endpointModel } from '../engine/endpoint-model.js';
import type { EndpointFixture } from '../fixtures.js';
import type { Telephony } from '../telephony.js';

export function mountEndpoints(b: AriBinder, t: Pick<Telephony, 'engine'>): void {
  const { engine } = t;
  const model = (e: EndpointFixture) => endpointModel(e, engine.all());
  const all = () => [...engine.fixtures.endpoints.values()];

  b.mount(op.listEndpoints, () => all().map(model));
  b.mount(op.listByTech, (a) => {
    const list = all().filter((e) => e.tech.toLowerCase() === a.tech.toLowerCase());
    if (!list.length) throw notFound(`No Endpoints found - invalid tech ${a.tech}`);
    return list.map(model);
  });
  b.mount(op.getEndpoint, (a) => {
    const e = engine.fixtures.endpoints.get(`${a.tech}/${a.resource}`.toLowerCase());
    if (!e) throw notFound('Endpoint not found');
    return model(e);
  });
}
