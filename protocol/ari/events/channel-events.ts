import { f, optional } from '../../model.js';
import { Channel } from '../models/channel.js';
import { defineEvent } from './define-event.js';

const channel = f.ref(Channel);

export const StasisStart = defineEvent('StasisStart', 'Notification that a channel has entered a Stasis application.', {
  args: f.list(f.string(), 'Arguments to the application'),
  channel,
  replace_channel: optional(f.ref(Channel)),
});
export const StasisEnd = defineEvent('StasisEnd', 'Notification that a channel has left a Stasis application.', { channel });
export const ChannelCreated = defineEvent('ChannelCreated', 'Notification that a channel has been created.', { channel });
export const ChannelDestroyed = defineEvent('ChannelDestroyed', 'Notification that a channel has been destroyed.', {
  cause: f.int('Integer representation of the cause of the hangup'),
  cause_txt: f.string('Text representation of the cause of the hangup'),
  tech_cause: optional(f.int('Integer representation of the technology-specific off-nominal cause of the hangup.')),
  channel,
});
export const ChannelStateChange = defineEvent('ChannelStateChange', 'Notification of a channel\'s state change.', { channel });
export const ChannelHangupRequest = defineEvent('ChannelHangupRequest', 'A hangup was requested on the channel.', {
  cause: optional(f.int('Integer representation of the cause of the hangup.')),
  soft: optional(f.boolean('Whether the hangup request was a soft hangup request.')),
  tech_cause: optional(f.int('Integer representation of the technology-specific off-nominal cause of the hangup.')),
  channel,
});
export const ChannelDialplan = defineEvent('ChannelDialplan', 'Channel changed location in the dialplan.', {
  channel: f.ref(Channel, 'The channel that changed dialplan location.'),
  dialplan_app: f.string('The application about to be executed.'),
  dialplan_app_data: f.string('The data to be passed to the application.'),
});
export const ChannelCallerId = defineEvent('ChannelCallerId', 'Channel changed Caller ID.', {
  caller_presentation: f.int('The integer representation of the Caller Presentation value.'),
  caller_presentation_txt: f.string('The text representation of the Caller Presentation value.'),
  channel: f.ref(Channel, 'The channel that changed Caller ID.'),
});
export const ChannelConnectedLine = defineEvent('ChannelConnectedLine', 'Channel changed Connected Line.', {
  channel: f.ref(Channel, 'The channel whose connected line has changed.'),
});
export const ChannelVarset = defineEvent('ChannelVarset', 'Channel variable changed.', {
  variable: f.string('The variable that changed.'),
  value: f.string('The new value of the variable.'),
  channel: optional(f.ref(Channel, 'The channel on which the variable was set. If missing, the variable is a global variable.')),
});
export const ChannelDtmfReceived = defineEvent('ChannelDtmfReceived', 'DTMF received on a channel. This event is sent when the DTMF ends. There is no notification about the start of DTMF', {
  digit: f.string('DTMF digit received (0-9, A-E, # or *)'),
  duration_ms: f.int('Number of milliseconds DTMF was received'),
  channel: f.ref(Channel, 'The channel on which DTMF was received'),
});
export const ChannelHold = defineEvent('ChannelHold', 'A channel initiated a media hold.', {
  channel: f.ref(Channel, 'The channel that initiated the hold event.'),
  musicclass: optional(f.string('The music on hold class that the initiator requested.')),
});
export const ChannelUnhold = defineEvent('ChannelUnhold', 'A channel initiated a media unhold.', {
  channel: f.ref(Channel, 'The channel that initiated the unhold event.'),
});
export const ChannelTalkingStarted = defineEvent('ChannelTalkingStarted', 'Talking was detected on the channel.', {
  channel: f.ref(Channel, 'The channel on which talking started.'),
});
export const ChannelTalkingFinished = defineEvent('ChannelTalkingFinished', 'Talking is no longer detected on the channel.', {
  channel: f.ref(Channel, 'The channel on which talking completed.'),
  duration: f.int('The length of time, in milliseconds, that talking was detected on the channel'),
});
export const Dial = defineEvent('Dial', 'Dialing state has changed.', {
  caller: optional(f.ref(Channel, 'The calling channel.')),
  peer: f.ref(Channel, 'The dialed channel.'),
  forward: optional(f.string('Forwarding target requested by the original dialed channel.')),
  forwarded: optional(f.ref(Channel, 'Channel that the caller has been forwarded to.')),
  dialstring: optional(f.string('The dial string for calling the peer channel.')),
  dialstatus: f.string('Current status of the dialing attempt to the peer.'),
});
