import { f } from '../../model.js';
import { DeviceState } from '../models/device-state.js';
import { defineEvent } from './define-event.js';

export const DeviceStateChanged = defineEvent('DeviceStateChanged', 'A device\'s state changed: an endpoint\'s channels rang, were answered, held or ended, or an application set or deleted a Stasis: device. Sent to applications subscribed to the device (deviceState:<name>) and to those subscribed to everything.', {
  device_state: f.ref(DeviceState, 'The device and its new state.'),
});
