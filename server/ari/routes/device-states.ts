import * as op from '../../../protocol/ari/operations/device-states.js';
import type { AriBinder } from '../http/bind.js';
import type { Telephony } from '../telephony.js';

export function mountDeviceStates(b: AriBinder, t: Pick<Telephony, 'devices'>): void {
  const { devices } = t;
  b.mount(op.listDeviceStates, () => devices.list());
  b.mount(op.getDeviceState, (a) => devices.get(a.deviceName));
  b.mount(op.updateDeviceState, (a) => devices.update(a.deviceName, a.deviceState));
  b.mount(op.deleteDeviceState, (a) => devices.remove(a.deviceName));
}
