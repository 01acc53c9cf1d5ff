import { body, defineOperation, path, query } from '../../operation.js';

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

/** A user event, raised by the client and sent to one application. */
export const userEvent = defineOperation({
  resource: 'events', method: 'POST', path: '/events/user/{eventName}', nickname: 'userEvent',
  summary: 'Sends a ChannelUserevent to one application, carrying the given fields and the snapshots of the sources named.',
  notes: 'The event goes to that application alone, whatever it is subscribed to; an application that is known but has no WebSocket at the moment loses it. With several sources of one kind, the last one is the one the event carries.',
  params: {
    eventName: path.string({ description: 'Name of the event (its eventname).' }),
    application: query.string({ description: 'The application that receives the event.', required: true, handlerValidates: true }),
    source: query.string({ description: 'Sources whose snapshots the event carries, comma-separated or repeated: channel:<channel id>, bridge:<bridge id>, endpoint:<tech>/<resource>.', allowMultiple: true }),
    variables: body.fields('Fields of the event, as a JSON object under the body\'s "variables" key: { "variables": { "key": "value" } }. Values may be any JSON.'),
  },
  responseClass: 'void', response: null, success: 204,
  since: ['12.3.0'],
  errors: [
    { code: 400, reason: 'No application; a source scheme other than channel, bridge or endpoint (deviceState: included); variables that are not a JSON object.' },
    { code: 404, reason: 'Application not found' },
    { code: 422, reason: 'Event source was not found' },
  ],
});

export const eventOperations = [eventWebsocket, userEvent] as const;
