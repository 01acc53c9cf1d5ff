import { defineModel, f } from '../../model.js';

/** Every state a device can be in, as ARI spells them. */
export const DEVICE_STATES = ['UNKNOWN', 'NOT_INUSE', 'INUSE', 'BUSY', 'INVALID', 'UNAVAILABLE', 'RINGING', 'RINGINUSE', 'ONHOLD'] as const;
export type DeviceStateName = (typeof DEVICE_STATES)[number];
/** The states an application may give a `Stasis:` device (every one but UNKNOWN, which deleting it gives). */
export const WRITABLE_DEVICE_STATES = DEVICE_STATES.filter((s): s is Exclude<DeviceStateName, 'UNKNOWN'> => s !== 'UNKNOWN');

export const DeviceState = defineModel('DeviceState', 'What a device is doing: one of our endpoints (PJSIP/alice), summed over its live channels, or a Stasis: device an application sets.', {
  name: f.string('The device name, as it was asked for (PJSIP/alice, Stasis:desk-1).'),
  state: f.enum(DEVICE_STATES, 'Its state: INVALID for a name nothing provides, UNKNOWN for a Stasis: device never set or deleted.'),
});
