import { defineModel, f } from '../../model.js';

export const Application = defineModel('Application', 'An application and the event sources it is subscribed to.', {
  name: f.string('The name it connected with.'),
  channel_ids: f.list(f.string(), 'Channels whose events it receives.'),
  bridge_ids: f.list(f.string(), 'Bridges whose events it receives.'),
  endpoint_ids: f.list(f.string(), 'Endpoints it subscribed to, as tech/resource, or a bare tech for all of one technology.'),
  device_names: f.list(f.string(), 'Devices it subscribed to (deviceState:<name>), as it named them.'),
  events_allowed: f.list(f.object(), 'The "allowed" list of its event filter as it was set (empty: every type not disallowed is sent).'),
  events_disallowed: f.list(f.object(), 'The "disallowed" list of its event filter as it was set (empty: nothing is held back).'),
});
