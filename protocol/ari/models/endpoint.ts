import * as v from 'valibot';
import { defineModel, f, optional, type Field } from '../../model.js';

export const ENDPOINT_STATES = ['unknown', 'offline', 'online'] as const;
export type EndpointState = (typeof ENDPOINT_STATES)[number];

export const Endpoint = defineModel('Endpoint', 'A simulated far end from the endpoints fixture, which calls can reach and come from; it is known by technology and resource together, not by a single id.', {
  technology: f.string('Channel technology (PJSIP).'),
  resource: f.string('Name within the technology (alice).'),
  state: optional(f.enum(ENDPOINT_STATES, 'online while the far end can be reached (a fixed address, or a registered contact that answers), offline while it cannot; calling an offline endpoint fails at once.')),
  channel_ids: f.list(f.string(), 'Live channels to or from it.'),
});

/**
 * Documented as an `object`, as Asterisk documents it; on the wire Asterisk
 * sends a list holding one single-key object per variable, and so do we.
 */
const messageVariables: Field<v.ArraySchema<v.RecordSchema<v.StringSchema<undefined>, v.StringSchema<undefined>, undefined>, undefined>> = {
  schema: v.array(v.record(v.string(), v.string())),
  doc: { type: 'object', required: false, description: 'Headers the message carried, as a list of { "name": "value" } objects, one per header.' },
};

export const TextMessage = defineModel('TextMessage', 'A text message (SIP MESSAGE) outside any call: one the far end of an endpoint sent us.', {
  from: f.string('Who sent it, as the far end wrote it (a SIP URI, possibly with a display name).'),
  to: f.string('Whom it was addressed to, as the far end wrote it.'),
  body: f.string('The text.'),
  variables: messageVariables,
});
