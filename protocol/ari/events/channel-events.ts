import { f, optional } from '../../model.js';
import { Channel } from '../models/channel.js';
import { defineEvent } from './define-event.js';

const channel = f.ref(Channel);

export const StasisStart = defineEvent('StasisStart', 'A channel entered the application, which may now control it.', {
  args: f.list(f.string(), 'Arguments from Stasis() or appArgs, split at commas.'),
  channel,
  replace_channel: optional(f.ref(Channel)),
});
export const StasisEnd = defineEvent('StasisEnd', 'A channel left the application (continue, move, hangup); on hangup it comes before ChannelDestroyed.', { channel });
export const ChannelCreated = defineEvent('ChannelCreated', 'A channel came into being; only applications subscribed to everything, or to its endpoint, hear of it.', { channel });
export const ChannelDestroyed = defineEvent('ChannelDestroyed', 'A channel is gone, with its hangup cause.', {
  cause: f.int('Q.850 cause number.'),
  cause_txt: f.string('The cause in words (Normal Clearing, User busy, …).'),
  tech_cause: optional(f.int('Technology cause: the SIP status a far end refused an outgoing SIP call with (486 for busy, 480, 404, …), or the WebSocket status of a media WebSocket channel ended from its socket (1000 HANGUP, 1001 closed or broken).')),
  channel,
});
export const ChannelStateChange = defineEvent('ChannelStateChange', 'The state of a channel changed (Ringing, Up, …).', { channel });
export const ChannelHangupRequest = defineEvent('ChannelHangupRequest', 'The channel was asked to hang up: by ARI (soft, cause 32) or by its far end (with that cause).', {
  cause: optional(f.int('Q.850 cause of the far end, or 32 for a request made through ARI.')),
  soft: optional(f.boolean('True for a request made through ARI.')),
  tech_cause: optional(f.int('Technology cause: the SIP status a far end refused an outgoing SIP call with (486 for busy, 480, 404, …), or the WebSocket status of a media WebSocket channel ended from its socket (1000 HANGUP, 1001 closed or broken).')),
  channel,
});
export const ChannelDialplan = defineEvent('ChannelDialplan', 'A channel moved to another dialplan location, or started an application there.', {
  channel: f.ref(Channel, 'The channel, at its new location.'),
  dialplan_app: f.string('Application run at that location (e.g. Stasis).'),
  dialplan_app_data: f.string('Its argument string.'),
});
export const ChannelCallerId = defineEvent('ChannelCallerId', 'The caller ID of a channel changed (CALLERID written, for instance).', {
  caller_presentation: f.int('Presentation code as a number.'),
  caller_presentation_txt: f.string('Presentation code in words.'),
  channel: f.ref(Channel, 'The channel, with its new caller ID.'),
});
export const ChannelConnectedLine = defineEvent('ChannelConnectedLine', 'The connected line of a channel changed.', {
  channel: f.ref(Channel, 'The channel, with its new connected line.'),
});
export const ChannelVarset = defineEvent('ChannelVarset', 'A variable was set or removed, on a channel or globally.', {
  variable: f.string('Variable name.'),
  value: f.string('New value (empty when removed).'),
  channel: optional(f.ref(Channel, 'The channel; absent for a global variable.')),
});
export const ChannelDtmfReceived = defineEvent('ChannelDtmfReceived', 'A digit arrived from the far end (simulation API, the other half of a Local pair, or RTP events); sent when the digit ends.', {
  digit: f.string('The digit: 0-9, A-D, * or #.'),
  duration_ms: f.int('How long it lasted, in simulated milliseconds.'),
  channel: f.ref(Channel, 'The channel that received it.'),
});
export const ChannelHold = defineEvent('ChannelHold', 'The far end put the channel on hold, or a hold indication was intercepted (HOLD_INTERCEPT).', {
  channel: f.ref(Channel, 'The channel concerned.'),
  musicclass: optional(f.string('Music class asked for, or N/A.')),
});
export const ChannelUnhold = defineEvent('ChannelUnhold', 'The hold ended (far end, or intercepted indication).', {
  channel: f.ref(Channel, 'The channel concerned.'),
});
export const ChannelTalkingStarted = defineEvent('ChannelTalkingStarted', 'With TALK_DETECT set on the channel, the far end started talking.', {
  channel: f.ref(Channel, 'The channel concerned.'),
});
export const ChannelTalkingFinished = defineEvent('ChannelTalkingFinished', 'With TALK_DETECT set on the channel, the far end stopped talking.', {
  channel: f.ref(Channel, 'The channel concerned.'),
  duration: f.int('How long the talking lasted, in simulated milliseconds.'),
});
export const ChannelToneDetected = defineEvent('ChannelToneDetected', 'With TONE_DETECT set on the channel, the tone it listens for was heard for at least the minimum duration.', {
  channel: f.ref(Channel, 'The channel concerned.'),
});
export const Dial = defineEvent('Dial', 'Progress of a dial: first with an empty dialstatus, then as the far end rings, answers or fails.', {
  caller: optional(f.ref(Channel, 'Channel on whose behalf the dial runs (dial with caller); absent otherwise.')),
  peer: f.ref(Channel, 'The channel being dialled.'),
  forward: optional(f.string('Always empty: calls are not forwarded here.')),
  forwarded: optional(f.ref(Channel, 'Never sent.')),
  dialstring: optional(f.string('What was dialled: the resource part of the endpoint.')),
  dialstatus: f.string('Empty at first, then RINGING, PROGRESS, ANSWER, BUSY, NOANSWER, CONGESTION or CHANUNAVAIL.'),
});
