import { body, defineOperation, path, query } from '../operation.js';
import { SimEndpoint } from './endpoint-models.js';

// The far end of an endpoint outside calls: it registers and unregisters
// contacts, answers (or stops answering) qualify pings, sends text messages,
// and keeps what we sent it.

const tech = path.string({ description: 'Channel technology of the endpoint (PJSIP).' });
const resource = path.string({ description: 'Endpoint name within that technology (alice).' });
const uri = query.string({ description: 'The contact URI (sip:alice@192.0.2.10:5060).', required: true });
const e404 = { code: 404, reason: 'Endpoint not found' };

export const getSimEndpoint = defineOperation({
  resource: 'sim', method: 'GET', path: '/endpoints/{tech}/{resource}', nickname: 'getEndpoint',
  summary: 'An endpoint\'s registered contacts, and the text messages and REFERs its far end received.',
  params: { tech, resource },
  responseClass: 'SimEndpoint', response: SimEndpoint.schema, success: 200, errors: [e404],
});

export const registerContact = defineOperation({
  resource: 'sim', method: 'POST', path: '/endpoints/{tech}/{resource}/contacts', nickname: 'register',
  summary: 'The far end registers a contact (or refreshes its registration): the endpoint goes online if it was not.',
  notes: 'A new contact raises ContactStatusChange (NonQualified, then Unknown, or Reachable once qualified); the first reachable contact of an endpoint that was not online raises EndpointStateChange and PeerStatusChange first. Registering a known contact again only moves its expiry. An endpoint the fixtures declare online has a fixed address and stays online whatever its registrations do.',
  params: {
    tech, resource, uri,
    expires: query.int({ description: 'Seconds (simulated) until the registration runs out, when the contact goes away as if unregistered.', default: 3600, min: 1, max: 86400 }),
    qualify: query.boolean({ description: 'Qualify the contact: it counts as reachable only while it answers (see contacts/qualify), with the endpoint\'s round trip time.', default: false }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'A uri that is not a sip: or sips: URI, or an expiry out of range.' }, e404],
});

export const unregisterContact = defineOperation({
  resource: 'sim', method: 'DELETE', path: '/endpoints/{tech}/{resource}/contacts', nickname: 'unregister',
  summary: 'The far end removes a registered contact (ContactStatusChange Removed); an endpoint left with no reachable contact goes back to the state its fixture declares.',
  params: { tech, resource, uri },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 404, reason: 'Endpoint not found, or Contact not found' }],
});

export const qualifyContact = defineOperation({
  resource: 'sim', method: 'POST', path: '/endpoints/{tech}/{resource}/contacts/qualify', nickname: 'qualify',
  summary: 'The next qualify of a contact finds it reachable (it answers) or unreachable (it does not).',
  params: {
    tech, resource, uri,
    reachable: query.boolean({ description: 'Whether the contact answers.', required: true }),
    roundtrip_usec: query.int({ description: 'Round trip time it answers in, microseconds; default: the endpoint\'s rtt from the fixtures.', min: 0 }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 404, reason: 'Endpoint not found, or Contact not found' }, { code: 409, reason: 'The contact registered without qualify.' }],
});

export const sendFarMessage = defineOperation({
  resource: 'sim', method: 'POST', path: '/endpoints/{tech}/{resource}/messages', nickname: 'sendMessage',
  summary: 'The far end of an endpoint sends us a text message (SIP MESSAGE); applications subscribed to the endpoint get TextMessageReceived.',
  notes: 'Answers 202 when at least one application is subscribed to the endpoint (by name, by technology, or to everything), as the server would answer the MESSAGE, and 404 when none is.',
  params: {
    tech, resource,
    to: query.string({ description: 'Whom the message is addressed to (sip:pbx@example.com).', required: true }),
    from: query.string({ description: 'Who it is from; default sip:<resource>@<technology>.sim.invalid.' }),
    body: query.string({ description: 'The text; default empty.' }),
    variables: body.fields<Record<string, string>>('Headers of the message, as string values under the body\'s "variables" key.'),
  },
  responseClass: 'void', response: null, success: 202,
  errors: [{ code: 400, reason: 'A header value that is not a string.' }, { code: 404, reason: 'Endpoint not found, or no application receives messages from this endpoint' }],
});

export const simEndpointOperations = [getSimEndpoint, registerContact, unregisterContact, qualifyContact, sendFarMessage] as const;
