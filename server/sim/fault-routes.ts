import * as op from '../../protocol/sim/fault-operations.js';
import type { AriBinder } from '../ari/http/bind.js';
import type { Telephony } from '../ari/telephony.js';

/** The simulation API for injected faults: put one in place, list them, take them away. */
export function mountSimFaults(b: AriBinder, t: Pick<Telephony, 'faults'>): void {
  const created = <F extends { id: string }>(body: F) => ({ body, location: `/faults/${body.id}` });
  b.mount(op.addFault, (a) => created(t.faults.add(a)));
  b.mount(op.listFaults, () => t.faults.list());
  b.mount(op.removeFault, (a) => t.faults.remove(a.faultId));
  b.mount(op.clearFaults, () => t.faults.clear());
}
