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
