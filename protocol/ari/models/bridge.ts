import { defineModel, f, optional } from '../../model.js';

export const Bridge = defineModel('Bridge', 'The merging of media from one or more channels. Everything in a bridge hears the others\' media, mixed.', {
  id: f.string('Unique identifier for this bridge'),
  technology: f.string('Name of the current bridging technology'),
  bridge_type: f.enum(['mixing', 'holding'] as const, 'Type of bridge technology'),
  bridge_class: f.string('Bridging class'),
  creator: f.string('Entity that created the bridge'),
  name: f.string('Name the creator gave the bridge'),
  channels: f.list(f.string(), 'Ids of channels participating in this bridge'),
  video_mode: optional(f.string('The video mode the bridge uses. Can be \'none\', \'talker\', \'sfu\', or \'single\'.')),
  video_source_id: optional(f.string('The ID of the channel that is the source of video in this bridge, if one exists.')),
  creationtime: f.date('Timestamp when bridge was created'),
});
