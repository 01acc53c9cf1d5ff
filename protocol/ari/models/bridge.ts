import { defineModel, f, optional } from '../../model.js';

/** Video modes a bridge reports (Asterisk's names): talker follows who speaks, single shows one chosen member, sfu forwards every stream. */
export const VIDEO_MODES = ['none', 'talker', 'single', 'sfu'] as const;

export const Bridge = defineModel('Bridge', 'Channels joined together: in a mixing bridge each member hears the others, in a holding bridge only what the bridge plays.', {
  id: f.string('Id of the bridge.'),
  technology: f.string('How it mixes now: simple_bridge (two members at most), softmix (more, or any number in a video_sfu bridge), or holding_bridge.'),
  bridge_type: f.enum(['mixing', 'holding'] as const, 'mixing or holding, as created.'),
  bridge_class: f.string('Always stasis.'),
  creator: f.string('Always Stasis.'),
  name: f.string('Name given at creation (may be empty).'),
  channels: f.list(f.string(), 'Ids of the members, in the order they joined.'),
  video_mode: optional(f.oneOf(VIDEO_MODES, 'Which member\'s video the bridge would show: talker (the default), single (one member chosen with videoSource, or video_single at creation) or sfu (video_sfu at creation). Always sent; no video flows here.')),
  video_source_id: optional(f.string('The member chosen as video source in single mode; absent when there is none.')),
  creationtime: f.date('When the bridge was created.'),
  bridgevars: optional(f.object('Bridge variables set with report_events, present once there is one.')),
});
