import { f } from '../../model.js';
import { Channel } from '../models/channel.js';
import { defineEvent } from './define-event.js';

export const ApplicationReplaced = defineEvent('ApplicationReplaced', 'Sent to the older event WebSocket of an application when a newer one connects with the same name: from then on the newer socket gets its events; the older stays open.', {});
export const ApplicationMoveFailed = defineEvent('ApplicationMoveFailed', 'A move named an application without a connected WebSocket; the channel stays where it was.', {
  channel: f.ref(Channel),
  destination: f.string(),
  args: f.list(f.string(), 'Arguments the move asked for.'),
});
