import { defineModel, f, optional } from '../../model.js';
import { Endpoint, TextMessage } from '../models/endpoint.js';
import { defineEvent } from './define-event.js';

// Events about endpoints rather than channels. They reach the applications
// subscribed to the endpoint (endpoint:PJSIP/alice), to its technology
// (endpoint:PJSIP) or to everything (subscribeAll).

/** The statuses a contact goes through, as PJSIP names them. */
export const CONTACT_STATUSES = ['Unreachable', 'Reachable', 'Unknown', 'NonQualified', 'Removed'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export const ContactInfo = defineModel('ContactInfo', 'One registered contact of an endpoint, and how it is doing.', {
  uri: f.string('Where the far end registered from (its contact URI).'),
  contact_status: f.enum(CONTACT_STATUSES, 'NonQualified when it has just registered, then Unknown when it is not qualified, or Reachable / Unreachable as qualifying finds it; Removed once it is gone (unregistered or expired).'),
  aor: f.string('The address of record it registered to (named after the endpoint).'),
  roundtrip_usec: optional(f.string('Round trip time of the last qualify, in microseconds ("0" when unknown).')),
});

export const Peer = defineModel('Peer', 'How a far end can be reached, as its technology reports it.', {
  peer_status: f.string('Reachable or Unreachable (PJSIP\'s words).'),
  cause: optional(f.string('Why it changed. Not sent: PJSIP gives no reason.')),
  address: optional(f.string('Its IP address. Not sent: PJSIP does not report it here.')),
  port: optional(f.string('Its port. Not sent: PJSIP does not report it here.')),
  time: optional(f.string('When it was last heard from. Not sent: PJSIP does not report it here.')),
});

const endpoint = f.ref(Endpoint);

export const EndpointStateChange = defineEvent('EndpointStateChange', 'The endpoint\'s snapshot changed: a call to or from it appeared or ended (channel_ids), or it went online or offline (its first contact registered or answered qualifying again, or its last one left or stopped answering).', { endpoint });

export const ContactStatusChange = defineEvent('ContactStatusChange', 'A contact of an endpoint registered, changed status or went away.', {
  endpoint,
  contact_info: f.ref(ContactInfo),
});

export const PeerStatusChange = defineEvent('PeerStatusChange', 'An endpoint became reachable or unreachable; sent right after the EndpointStateChange that says the same.', {
  endpoint,
  peer: f.ref(Peer),
});

export const TextMessageReceived = defineEvent('TextMessageReceived', 'The far end of an endpoint sent a text message; applications subscribed to the endpoint receive it.', {
  message: f.ref(TextMessage),
  endpoint: optional(f.ref(Endpoint, 'The endpoint it came from.')),
});

/** Models events.json declares for the endpoint events besides the events themselves. */
export const ENDPOINT_EVENT_MODELS = [ContactInfo, Peer] as const;
