import { f, optional } from '../../model.js';
import { Bridge } from '../models/bridge.js';
import { Channel } from '../models/channel.js';
import { Endpoint } from '../models/endpoint.js';
import { defineEvent } from './define-event.js';

/**
 * A user event: raised by ARI (`POST /events/user/{eventName}`, to one
 * application, with the sources it names) or by the dialplan's UserEvent()
 * (to the applications that hear about the channel).
 */
export const ChannelUserevent = defineEvent('ChannelUserevent', 'An event a user raised, through ARI or the dialplan\'s UserEvent(), with fields of their choosing.', {
  eventname: f.string('The name it was raised with.'),
  channel: optional(f.ref(Channel, 'The channel it concerns: the one running UserEvent(), or a channel: source.')),
  bridge: optional(f.ref(Bridge, 'The bridge given as a bridge: source.')),
  endpoint: optional(f.ref(Endpoint, 'The endpoint given as an endpoint: source.')),
  userevent: f.object('The fields it was raised with (the variables of the request, or the key: value pairs of UserEvent()), plus eventname again.'),
});
