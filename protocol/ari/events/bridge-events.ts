import { f, optional } from '../../model.js';
import { Bridge } from '../models/bridge.js';
import { Channel } from '../models/channel.js';
import { defineEvent } from './define-event.js';

export const BridgeVideoSourceChanged = defineEvent('BridgeVideoSourceChanged', 'The video source of a bridge changed: one was chosen, cleared, or left the bridge.', {
  bridge: f.ref(Bridge, 'The bridge as it is now.'),
  old_video_source_id: optional(f.string('The previous video source, when there was one.')),
});

export const BridgeBlindTransfer = defineEvent('BridgeBlindTransfer', 'A member of a bridge sent its call elsewhere (a SIP REFER from the far end): a Local channel took its place, and its other half runs the dialplan at the target.', {
  channel: f.ref(Channel, 'The channel that asked for the transfer.'),
  replace_channel: optional(f.ref(Channel, 'The Local channel that took the transferer\'s place in the bridge.')),
  transferee: optional(f.ref(Channel, 'The party being transferred, when the bridge held exactly one other member.')),
  exten: f.string('Extension the call was sent to.'),
  context: f.string('Context the call was sent to.'),
  result: f.oneOf(['Fail', 'Invalid', 'Not Permitted', 'Success'] as const, 'How the transfer went: Success, or why it did not happen.'),
  is_external: f.boolean('True when the far end asked for it (a REFER); false for a transfer made inside the server.'),
  bridge: optional(f.ref(Bridge, 'The bridge the transferer was in, as it was when the transfer began.')),
});

const channelField = (description: string) => optional(f.ref(Channel, description));
const bridgeField = (description: string) => optional(f.ref(Bridge, description));

export const BridgeAttendedTransfer = defineEvent('BridgeAttendedTransfer', 'A phone with two calls joined them (a SIP REFER with Replaces). Between two bridges of the applications this links them: a Local channel pair takes the two transferer channels\' places.', {
  transferer_first_leg: f.ref(Channel, 'The transferer\'s call to the party being transferred.'),
  transferer_second_leg: f.ref(Channel, 'The transferer\'s call to the transfer target.'),
  result: f.oneOf(['Fail', 'Invalid', 'Not Permitted', 'Success'] as const, 'How the transfer went: Success, or why it did not happen.'),
  is_external: f.boolean('True when the far end asked for it (a REFER).'),
  transferee: channelField('The party transferred, when the first call\'s bridge held exactly one other member.'),
  transfer_target: channelField('The target, when the second call\'s bridge held exactly one other member.'),
  transferer_first_leg_bridge: bridgeField('The first call\'s bridge, as it was when the transfer began.'),
  transferer_second_leg_bridge: bridgeField('The second call\'s bridge, as it was when the transfer began.'),
  destination_type: f.oneOf(['bridge', 'application', 'link', 'threeway', 'fail'] as const, 'How the calls were joined: link (a Local pair between the two bridges, what application bridges give), application (one call was bridged: the bridge was joined to what the other call was running), or fail.'),
  destination_bridge: optional(f.string('The surviving bridge when the bridges were merged (never here: application bridges do not merge).')),
  destination_application: optional(f.string('The application the unbridged call was running, which the bridge is now joined to (destination_type application).')),
  destination_link_first_leg: channelField('The Local channel that took the first call\'s place.'),
  destination_link_second_leg: channelField('The Local channel that took the second call\'s place.'),
  destination_threeway_channel: channelField('The surviving transferer channel in a three-way call (not produced here).'),
  destination_threeway_bridge: bridgeField('The bridge of a three-way call (not produced here).'),
  replace_channel: channelField('With destination_type application: the Local channel that took the bridged transferer\'s place in its bridge.'),
});
