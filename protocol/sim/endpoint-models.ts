import { defineModel, f, optional } from '../model.js';
import { Endpoint } from '../ari/models/endpoint.js';
import { CONTACT_STATUSES } from '../ari/events/endpoint-events.js';
import { SimEndpointScript } from './script.js';

export const SimContact = defineModel('SimContact', 'A contact the far end of an endpoint registered.', {
  uri: f.string('The contact URI it registered.'),
  aor: f.string('The address of record (named after the endpoint).'),
  contact_status: f.enum(CONTACT_STATUSES, 'Its status, as ContactStatusChange reports it.'),
  qualified: f.boolean('Whether the server qualifies it (asks it, with OPTIONS, whether it is reachable).'),
  roundtrip_usec: f.string('Round trip time of its last successful qualify, in microseconds ("0" when unknown).'),
  expires: f.date('When the registration runs out unless the far end registers again.'),
});

export const FarEndMessage = defineModel('FarEndMessage', 'A text message the far end received from us.', {
  from: f.string('Who it was from, as sent.'),
  to: f.string('The destination it was sent to, as the sender wrote it.'),
  body: f.string('The text (empty when none was sent).'),
  variables: f.object('Headers it carried, by name.'),
  received: f.date('When the far end got it.'),
});

export const FarEndRefer = defineModel('FarEndRefer', 'A REFER the far end received from us, outside any call.', {
  from: f.string('Who it was from, as sent.'),
  to: f.string('The destination it was sent to, as the sender wrote it.'),
  refer_to: f.string('Where the far end was asked to call, as the sender wrote it.'),
  to_self: f.boolean('Whether it was asked to call that endpoint through this server.'),
  variables: f.object('Headers it carried, by name (display_name included).'),
  received: f.date('When the far end got it.'),
});

export const SimEndpoint = defineModel('SimEndpoint', 'An endpoint as the simulator sees it: its registrations, and what its far end received outside calls.', {
  endpoint: f.ref(Endpoint),
  contacts: f.list(f.ref(SimContact), 'Its registered contacts, oldest first; at most SIM_FAR_END_KEEP (one more displaces the one that expires soonest).'),
  messages: f.list(f.ref(FarEndMessage), 'Text messages its far end received, oldest first: the newest SIM_FAR_END_KEEP of them.'),
  refers: f.list(f.ref(FarEndRefer), 'REFERs its far end received, oldest first: the newest SIM_FAR_END_KEEP of them.'),
  script: optional(f.ref(SimEndpointScript, 'The script the next call we place to it follows, when there is one (GET …/script).')),
});
