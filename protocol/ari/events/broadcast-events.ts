import { f } from '../../model.js';
import { Channel } from '../models/channel.js';
import { defineEvent } from './define-event.js';

/**
 * A call the dialplan's StasisBroadcast() offers to several applications at
 * once: each application whose name matches the broadcast's filter (every
 * known application without one) gets it, and may claim the call with
 * `POST /events/claim`.
 */
export const CallBroadcast = defineEvent('CallBroadcast', 'A call offered to several applications by StasisBroadcast(): the first to claim it (POST /events/claim) gets it.', {
  channel: f.ref(Channel, 'The call on offer.'),
  caller: f.string('The caller\'s number, empty when it has none.'),
  called: f.string('The extension the call is at.'),
});

/**
 * Sent when a broadcast call was claimed, to the applications it was offered
 * to, when StasisBroadcast() asked for it (its notify_claimed argument).
 */
export const CallClaimed = defineEvent('CallClaimed', 'A broadcast call was claimed; sent to the applications it was offered to when the broadcast asked for it.', {
  channel: f.ref(Channel, 'The call that was claimed.'),
  winner_app: f.string('The application that claimed it and now has it.'),
});
