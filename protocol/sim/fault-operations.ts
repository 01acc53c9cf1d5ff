import * as v from 'valibot';
import { defineModel, f, optional } from '../model.js';
import { defineOperation, path, query } from '../operation.js';

// Injected faults: things going wrong on purpose, so an application's tests
// can see how it copes (a dropped socket, failing requests, late events, an
// endpoint that cannot be reached, lost media). They live in memory only.

export const FAULT_KINDS = ['drop_socket', 'fail_requests', 'delay_events', 'endpoint_unreachable', 'media_loss'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The longest delay_events may hold events back: one simulated day. */
export const MAX_EVENT_DELAY_MS = 86_400_000;

export const SimFault = defineModel('SimFault', 'A fault put in place through the simulation API, with the fields it was given.', {
  id: f.string('Identifier of the fault, for DELETE /sim/faults/{faultId}.'),
  kind: f.oneOf(FAULT_KINDS, 'What goes wrong.'),
  app: optional(f.string('drop_socket, delay_events: the Stasis application concerned.')),
  operation: optional(f.string('fail_requests: the ARI operation, by nickname (originate), or resource.nickname when several resources share it (channels.get).')),
  status: optional(f.int('fail_requests: the HTTP status the failing requests get.')),
  count: optional(f.int('fail_requests: how many requests fail.')),
  remaining: optional(f.int('fail_requests: how many of them are still to fail; the fault leaves the list at zero.')),
  ms: optional(f.int('delay_events: simulated milliseconds each event is held back.')),
  endpoint: optional(f.string('endpoint_unreachable, media_loss: the endpoint (tech/resource).')),
  percent: optional(f.int('media_loss: share of media packets lost, 0 to 100.')),
});

const faultId = path.string({ description: 'Identifier of the fault.' });

export const addFault = defineOperation({
  resource: 'sim', method: 'POST', path: '/faults', nickname: 'addFault',
  summary: 'Make something go wrong: cut an application\'s event socket, fail requests to an ARI operation, hold an application\'s events back, make an endpoint unreachable, or lose part of an endpoint\'s media.',
  notes: 'Parameters may come in the query or as the keys of a JSON body. drop_socket terminates the application\'s event sockets at once, without a close frame, and is not kept in the list. fail_requests answers the next count requests to the operation (over HTTP or over the event socket) with status and an ARI error body, before anything else is looked at. delay_events holds every event to the application back by ms on the simulation\'s clock, in order. endpoint_unreachable makes calls to the endpoint fail at once with cause 20 (Dial status CHANUNAVAIL) and refuses calls from it (409). media_loss loses that share of the packets from the endpoint, spread evenly so counts are exact: its channels\' RTP statistics count them, and their frames are silent in what the channel receives (so in a bridge, a recording or external media), and the packets lost on the way to the endpoint are silent in what its far end heard (heard.wav). Faults are kept in memory and end with the process.',
  params: {
    kind: query.string({ description: 'What goes wrong.', required: true, values: FAULT_KINDS }),
    app: query.string({ description: 'drop_socket, delay_events: a Stasis application with an event socket now.' }),
    operation: query.string({ description: 'fail_requests: nickname of an ARI operation (originate, answer), or resource.nickname (channels.get).' }),
    status: query.int({ description: 'fail_requests: the status to answer with, 400 to 599.', min: 400, max: 599 }),
    count: query.int({ description: 'fail_requests: how many requests fail, at least 1.', min: 1 }),
    ms: query.int({ description: 'delay_events: simulated milliseconds to hold each event back.', min: 0, max: MAX_EVENT_DELAY_MS }),
    endpoint: query.string({ description: 'endpoint_unreachable, media_loss: an endpoint (tech/resource).' }),
    percent: query.int({ description: 'media_loss: share of packets lost, 0 to 100.', min: 0, max: 100 }),
  },
  responseClass: 'SimFault', response: SimFault.schema, success: 201,
  errors: [{ code: 400, reason: 'An unknown kind, a field the kind needs missing or one it does not take given, an unknown application, operation or endpoint, a value out of range, or as many faults in place as ARI_MAX_STORED_OBJECTS allows.' }],
});

export const listFaults = defineOperation({
  resource: 'sim', method: 'GET', path: '/faults', nickname: 'listFaults',
  summary: 'The faults in place, oldest first.',
  params: {},
  responseClass: 'List[SimFault]', response: v.array(SimFault.schema), success: 200, errors: [],
});

export const removeFault = defineOperation({
  resource: 'sim', method: 'DELETE', path: '/faults/{faultId}', nickname: 'removeFault',
  summary: 'Take one fault away; events already held back still arrive, in order.',
  params: { faultId },
  responseClass: 'void', response: null, success: 204, errors: [{ code: 404, reason: 'Fault not found' }],
});

export const clearFaults = defineOperation({
  resource: 'sim', method: 'DELETE', path: '/faults', nickname: 'clearFaults',
  summary: 'Take every fault away.',
  params: {},
  responseClass: 'void', response: null, success: 204, errors: [],
});

export const simFaultOperations = [addFault, listFaults, removeFault, clearFaults] as const;
