import * as v from 'valibot';
import { body, defineOperation, path, query } from '../../operation.js';
import { Application } from '../models/application.js';

const applicationName = path.string({ description: 'Name of the application.' });
const eventSource = query.string({
  description: 'Sources, comma-separated or repeated: channel:<id or name>, bridge:<id>, endpoint:<tech> or endpoint:<tech>/<resource>, deviceState:<device name> (any name: it need not exist yet). There is no mailbox: source; no event reports mailboxes.',
  required: true, allowMultiple: true, missingMessage: 'Missing parameter eventSource',
});

export const listApplications = defineOperation({
  resource: 'applications', method: 'GET', path: '/applications', nickname: 'list',
  summary: 'Applications the server knows, by name: those with an event WebSocket, and those still holding channels or endpoint subscriptions.', params: {},
  responseClass: 'List[Application]', response: v.array(Application.schema), success: 200, errors: [],
});

export const getApplication = defineOperation({
  resource: 'applications', method: 'GET', path: '/applications/{applicationName}', nickname: 'get',
  summary: 'One application and what it is subscribed to.', params: { applicationName },
  responseClass: 'Application', response: Application.schema, success: 200,
  errors: [{ code: 404, reason: 'Application not found' }],
});

export const subscribe = defineOperation({
  resource: 'applications', method: 'POST', path: '/applications/{applicationName}/subscription', nickname: 'subscribe',
  summary: 'Subscribes the application to more channels, bridges, endpoints or devices, so it receives their events.',
  notes: 'The answer is the application as it is after the change.',
  params: { applicationName, eventSource },
  responseClass: 'Application', response: Application.schema, success: 200,
  errors: [
    { code: 400, reason: 'No eventSource, a scheme other than channel, bridge, endpoint or deviceState, or more devices than one application may be subscribed to.' },
    { code: 404, reason: 'Application not found' },
    { code: 422, reason: 'Event source does not exist' },
  ],
});

export const unsubscribe = defineOperation({
  resource: 'applications', method: 'DELETE', path: '/applications/{applicationName}/subscription', nickname: 'unsubscribe',
  summary: 'Ends subscriptions of the application to the sources given.',
  notes: 'The answer is the application as it is after the change.',
  params: { applicationName, eventSource },
  responseClass: 'Application', response: Application.schema, success: 200,
  errors: [
    { code: 400, reason: 'No eventSource, or a scheme other than channel, bridge, endpoint or deviceState.' },
    { code: 404, reason: 'Application not found' },
    { code: 409, reason: 'Never answered here: a source the application is not subscribed to gets 422.' },
    { code: 422, reason: 'Event source was not subscribed to (it does not exist, or the application is not subscribed to it).' },
  ],
});

export const filter = defineOperation({
  resource: 'applications', method: 'PUT', path: '/applications/{applicationName}/eventFilter', nickname: 'filter',
  summary: 'Sets which event types the application\'s WebSocket is sent.',
  notes: 'The body is a JSON object with an "allowed" list, a "disallowed" list, or both, each of objects naming an event type: { "allowed": [ { "type": "StasisStart" } ] }. '
    + 'A list given replaces the one held; a list left out stays as it is; an empty object (or no body) empties both. '
    + 'An event is sent when its type is in no "disallowed" entry and, if "allowed" is not empty, in an "allowed" entry; type names compare exactly. '
    + 'The filter narrows what the subscriptions bring, it adds nothing, and it lasts as long as the server remembers the application. '
    + 'The answer is the application as it is after the change.',
  params: { applicationName, filter: body.json('The filter: { "allowed": [ { "type": "…" } ], "disallowed": [ … ] }.') },
  responseClass: 'Application', response: Application.schema, success: 200,
  since: ['13.26.0', '16.3.0'],
  errors: [
    { code: 400, reason: 'Invalid format definition: a list that is not an array of objects, or a body that is neither an object nor an array.' },
    { code: 404, reason: 'Application not found' },
  ],
});

export const applicationOperations = [listApplications, getApplication, subscribe, unsubscribe, filter] as const;
