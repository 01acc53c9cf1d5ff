import { f } from '../../model.js';
import { Channel } from '../models/channel.js';
import { defineEvent } from './define-event.js';

export const ApplicationReplaced = defineEvent('ApplicationReplaced', 'Notification that another WebSocket has taken over for an application. An application may only be subscribed to by a single WebSocket at a time. If multiple WebSockets attempt to subscribe to the same application, the newer WebSocket wins, and the older one receives this event.', {});
export const ApplicationMoveFailed = defineEvent('ApplicationMoveFailed', 'Notification that trying to move a channel to another Stasis application failed.', {
  channel: f.ref(Channel),
  destination: f.string(),
  args: f.list(f.string(), 'Arguments to the application'),
});
