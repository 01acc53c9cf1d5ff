import { defineOperation, query } from '../../operation.js';

/** The event WebSocket. It is an upgrade, served by the WebSocket layer rather than the REST binding. */
export const eventWebsocket = defineOperation({
  resource: 'events', method: 'GET', path: '/events', nickname: 'eventWebsocket',
  summary: 'Opens the event WebSocket of one or more applications: one JSON text frame per event.',
  params: {
    app: query.string({ description: 'Applications this socket serves, comma-separated or repeated (at most 73 characters each). A newer socket for the same name takes it over; the older one gets ApplicationReplaced.', required: true, allowMultiple: true }),
    subscribeAll: query.boolean({ description: 'When true, the applications receive the events of every channel, bridge and endpoint, not only of those they subscribe to (write access needed). Default false.' }),
  },
  responseClass: 'Message', response: null, success: 200,
  errors: [{ code: 400, reason: 'No app given, or an application name longer than 73 characters.' }],
  upgrade: { protocol: 'ari' },
});

export const eventOperations = [eventWebsocket] as const;
