import { defineModel, f, optional } from '../../model.js';

export const ENDPOINT_STATES = ['unknown', 'offline', 'online'] as const;

export const Endpoint = defineModel('Endpoint', 'A simulated far end from the endpoints fixture, which calls can reach and come from; it is known by technology and resource together, not by a single id.', {
  technology: f.string('Channel technology (PJSIP).'),
  resource: f.string('Name within the technology (alice).'),
  state: optional(f.enum(ENDPOINT_STATES, 'As the fixture declares it; calling an offline endpoint fails at once.')),
  channel_ids: f.list(f.string(), 'Live channels to or from it.'),
});
