import { defineModel, f, optional } from '../../model.js';

export const ENDPOINT_STATES = ['unknown', 'offline', 'online'] as const;

export const Endpoint = defineModel('Endpoint', 'An external device that may offer/accept calls to/from the server. Unlike most resources, which have a single unique identifier, an endpoint is uniquely identified by the technology/resource pair.', {
  technology: f.string('Technology of the endpoint'),
  resource: f.string('Identifier of the endpoint, specific to the given technology.'),
  state: optional(f.enum(ENDPOINT_STATES, 'Endpoint\'s state')),
  channel_ids: f.list(f.string(), 'Id\'s of channels associated with this endpoint'),
});
