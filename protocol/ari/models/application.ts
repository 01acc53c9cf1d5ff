import { defineModel, f } from '../../model.js';

export const Application = defineModel('Application', 'Details of a Stasis application', {
  name: f.string('Name of this application'),
  channel_ids: f.list(f.string(), 'Id\'s for channels subscribed to.'),
  bridge_ids: f.list(f.string(), 'Id\'s for bridges subscribed to.'),
  endpoint_ids: f.list(f.string(), '{tech}/{resource} for endpoints subscribed to.'),
  device_names: f.list(f.string(), 'Names of the devices subscribed to.'),
  events_allowed: f.list(f.object(), 'Event types sent to the application.'),
  events_disallowed: f.list(f.object(), 'Event types not sent to the application.'),
});
