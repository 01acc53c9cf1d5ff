import * as v from 'valibot';
import { defineOperation, path, query } from '../../operation.js';
import { DeviceState, WRITABLE_DEVICE_STATES } from '../models/device-state.js';

const deviceName = path.string({ description: 'The device (PJSIP/alice, Stasis:desk-1); a name with a slash travels encoded (PJSIP%2Falice).' });
const notWritable = [
  { code: 404, reason: 'Device name is missing' },
  { code: 409, reason: 'Uncontrolled device specified' },
];

export const listDeviceStates = defineOperation({
  resource: 'deviceStates', method: 'GET', path: '/deviceStates', nickname: 'list',
  summary: 'The Stasis: devices applications have set, by name; endpoints are not listed (GET each by name).', params: {},
  responseClass: 'List[DeviceState]', response: v.array(DeviceState.schema), success: 200, errors: [],
});

export const getDeviceState = defineOperation({
  resource: 'deviceStates', method: 'GET', path: '/deviceStates/{deviceName}', nickname: 'get',
  summary: 'The state of any device: an endpoint follows its live channels, a Stasis: device is what was set; an unknown name is INVALID.',
  params: { deviceName },
  responseClass: 'DeviceState', response: DeviceState.schema, success: 200, errors: [],
});

export const updateDeviceState = defineOperation({
  resource: 'deviceStates', method: 'PUT', path: '/deviceStates/{deviceName}', nickname: 'update',
  summary: 'Sets a Stasis: device (creating it); applications subscribed to it hear DeviceStateChanged when its state changes. It outlives a restart.',
  params: {
    deviceName,
    deviceState: query.string({ description: 'The new state (case does not matter).', required: true, values: WRITABLE_DEVICE_STATES, handlerValidates: true }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [
    // Asterisk answers 500 "Unknown device" for a missing or unknown state; bad input is a 400 here.
    { code: 400, reason: 'No deviceState, one not in the list, or a new device when as many are kept as the server allows.' },
    ...notWritable,
  ],
});

export const deleteDeviceState = defineOperation({
  resource: 'deviceStates', method: 'DELETE', path: '/deviceStates/{deviceName}', nickname: 'delete',
  summary: 'Forgets a Stasis: device: its state reads UNKNOWN again (announced as DeviceStateChanged), and it leaves the list.',
  params: { deviceName },
  responseClass: 'void', response: null, success: 204, errors: notWritable,
});

export const deviceStateOperations = [listDeviceStates, getDeviceState, updateDeviceState, deleteDeviceState] as const;
