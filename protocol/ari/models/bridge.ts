import { defineModel, f, optional } from '../../model.js';

export const Bridge = defineModel('Bridge', 'Channels joined together: in a mixing bridge each member hears the others, in a holding bridge only what the bridge plays.', {
  id: f.string('Id of the bridge.'),
  technology: f.string('How it mixes now: simple_bridge (two members at most), softmix (more), or holding_bridge.'),
  bridge_type: f.enum(['mixing', 'holding'] as const, 'mixing or holding, as created.'),
  bridge_class: f.string('Always stasis.'),
  creator: f.string('Always Stasis.'),
  name: f.string('Name given at creation (may be empty).'),
  channels: f.list(f.string(), 'Ids of the members, in the order they joined.'),
  video_mode: optional(f.string('Never sent: there is no video here.')),
  video_source_id: optional(f.string('Never sent: there is no video here.')),
  creationtime: f.date('When the bridge was created.'),
  bridgevars: optional(f.object('Bridge variables set with report_events, present once there is one.')),
});
