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

/** Claims a call StasisBroadcast() offered: the first claim wins and the call enters that application. */
export const claimChannel = defineOperation({
  resource: 'events', method: 'POST', path: '/events/claim', nickname: 'claimChannel',
  summary: 'Claims a call that StasisBroadcast() is offering: the first claim gets it, and the call enters the claiming application (StasisStart) as Stasis() would put it there.',
  notes: 'Any application may claim, whether or not it was offered the call. When the claiming application has no WebSocket the call cannot enter it: the dialplan goes on with STASISSTATUS set to FAILED. Once the offer has timed out, or the call has left the winning application for the dialplan, the channel is no longer on offer.',
  params: {
    channelId: query.string({ description: 'Unique id of the channel on offer (as in CallBroadcast).', required: true, handlerValidates: true }),
    application: query.string({ description: 'The application claiming the call.', required: true, handlerValidates: true }),
  },
  responseClass: 'void', response: null, success: 204,
  since: ['20.17.0', '22.7.0', '23.1.0'],
  errors: [
    { code: 400, reason: 'channelId parameter is required; application parameter is required' },
    { code: 404, reason: 'Channel not found or not in broadcast state' },
    { code: 409, reason: 'Channel has already been claimed by another application' },
  ],
});

export const eventOperations = [eventWebsocket, userEvent, claimChannel] as const;
