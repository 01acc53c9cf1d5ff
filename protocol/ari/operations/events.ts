import { defineOperation, query } from '../../operation.js';

/** The event WebSocket. It is an upgrade, served by the WebSocket layer rather than the REST binding. */
export const eventWebsocket = defineOperation({
  resource: 'events', method: 'GET', path: '/events', nickname: 'eventWebsocket',
  summary: 'WebSocket connection for events.',
  params: {
    app: query.string({ description: 'Applications to subscribe to.', required: true, allowMultiple: true }),
    subscribeAll: query.boolean({ description: 'Subscribe to all Asterisk events. If provided, the applications listed will be subscribed to all events, effectively disabling the application specific subscriptions. Default is \'false\'.' }),
  },
  responseClass: 'Message', response: null, success: 200,
  errors: [{ code: 400, reason: 'Missing or invalid app parameter.' }],
  upgrade: { protocol: 'ari' },
});

export const eventOperations = [eventWebsocket] as const;
