import * as v from 'valibot';
import { body, defineOperation, path, query } from '../../operation.js';
import { Endpoint } from '../models/endpoint.js';

export const listEndpoints = defineOperation({
  resource: 'endpoints', method: 'GET', path: '/endpoints', nickname: 'list',
  summary: 'Every endpoint of the fixtures, with its state and live channels.', params: {},
  responseClass: 'List[Endpoint]', response: v.array(Endpoint.schema), success: 200, errors: [],
});

export const listByTech = defineOperation({
  resource: 'endpoints', method: 'GET', path: '/endpoints/{tech}', nickname: 'listByTech',
  summary: 'The endpoints of one technology.',
  params: { tech: path.string({ description: 'Channel technology, matched without regard to case (e.g. PJSIP).' }) },
  responseClass: 'List[Endpoint]', response: v.array(Endpoint.schema), success: 200,
  errors: [{ code: 404, reason: 'No endpoint has that technology.' }],
});

export const getEndpoint = defineOperation({
  resource: 'endpoints', method: 'GET', path: '/endpoints/{tech}/{resource}', nickname: 'get',
  summary: 'One endpoint, with its state and live channels.',
  params: {
    tech: path.string({ description: 'Channel technology (e.g. PJSIP).' }),
    resource: path.string({ description: 'Endpoint name within that technology (e.g. alice).' }),
  },
  responseClass: 'Endpoint', response: Endpoint.schema, success: 200,
  errors: [{ code: 400, reason: 'Declared as Asterisk does; a lookup here answers 200 or 404.' }, { code: 404, reason: 'Endpoint not found' }],
});

const tech = path.string({ description: 'Channel technology of the endpoint (PJSIP).' });
const resource = path.string({ description: 'Endpoint name within that technology (alice).' });
const messageParams = {
  from: query.string({ description: 'Who the message is from, as the far end will see it (any SIP URI, e.g. sip:pbx@example.com).', required: true }),
  body: query.string({ description: 'The text; none sends an empty message.' }),
  variables: body.fields('Headers to add to the message, as string values under the body\'s "variables" key: { "variables": { "X-Ticket": "42" } }.'),
};
const referParams = {
  from: query.string({ description: 'Who the REFER is from, as the far end will see it.', required: true }),
  refer_to: query.string({ description: 'Where the far end is asked to call: an endpoint of ours (pjsip:bob) or any SIP URI.', required: true }),
  to_self: query.boolean({ description: 'When refer_to names one of our endpoints, refer to that endpoint through this server rather than to its own contact address.', default: false }),
  variables: body.fields('Headers to add to the REFER, as string values under the body\'s "variables" key; display_name is put in front of the Refer-To address.'),
};
const sent = 'Accepted: the far end has it (see /sim/endpoints/{tech}/{resource}).';
const errors = [
  { code: 400, reason: 'No destination, or a header value that is not a string.' },
  { code: 404, reason: 'Endpoint not found: the destination names no endpoint of ours, or one that is offline.' },
];

export const sendMessage = defineOperation({
  resource: 'endpoints', method: 'PUT', path: '/endpoints/sendMessage', nickname: 'sendMessage',
  summary: 'Sends a text message (SIP MESSAGE) to the far end of an endpoint, which records it.',
  notes: `The destination is pjsip:<endpoint>, optionally followed by /<uri>, or a SIP URI whose user is one of our endpoints (pjsip:sip:alice@example.com). ${sent}`,
  params: {
    to: query.string({ description: 'Destination: pjsip:alice, pjsip:alice/sip:alice@192.0.2.10, or pjsip:sip:alice@example.com.', required: true, missingMessage: 'To must be specified' }),
    ...messageParams,
  },
  responseClass: 'void', response: null, success: 202, since: ['13.0.0'], errors,
});

export const refer = defineOperation({
  resource: 'endpoints', method: 'POST', path: '/endpoints/refer', nickname: 'refer',
  summary: 'Sends a REFER outside any call to the far end of an endpoint, asking it to call elsewhere; the far end records it.',
  notes: `The destination is written as for sendMessage. ${sent}`,
  params: {
    to: query.string({ description: 'Destination: pjsip:alice, pjsip:alice/<uri>, or pjsip:<SIP URI of one of our endpoints>.', required: true, missingMessage: 'To must be specified' }),
    ...referParams,
  },
  responseClass: 'void', response: null, success: 202, since: ['18.20.0', '20.5.0'], errors,
});

export const sendMessageToEndpoint = defineOperation({
  resource: 'endpoints', method: 'PUT', path: '/endpoints/{tech}/{resource}/sendMessage', nickname: 'sendMessageToEndpoint',
  summary: 'Sends a text message (SIP MESSAGE) to the far end of one endpoint, which records it.',
  notes: sent,
  params: { tech, resource, ...messageParams },
  responseClass: 'void', response: null, success: 202, since: ['13.0.0'], errors,
});

export const referToEndpoint = defineOperation({
  resource: 'endpoints', method: 'POST', path: '/endpoints/{tech}/{resource}/refer', nickname: 'referToEndpoint',
  summary: 'Sends a REFER outside any call to the far end of one endpoint; the far end records it.',
  notes: sent,
  params: { tech, resource, ...referParams },
  responseClass: 'void', response: null, success: 202, since: ['18.20.0', '20.5.0'], errors,
});

export const endpointOperations = [listEndpoints, sendMessage, refer, listByTech, getEndpoint, sendMessageToEndpoint, referToEndpoint] as const;
