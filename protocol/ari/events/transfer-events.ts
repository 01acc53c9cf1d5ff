import { defineModel, f, optional } from '../../model.js';
import { Bridge } from '../models/bridge.js';
import { Channel } from '../models/channel.js';
import { TRANSFER_STATES } from '../operations/channel-additions.js';
import { defineEvent } from './define-event.js';

// Transfers left to the application (Asterisk 22.3, 21.8, 20.13): when a channel's transfer
// handling is ari-only, a REFER from its far end moves nothing; the application hears of it as a
// ChannelTransfer, carries it out itself, and reports back with POST /channels/{id}/transfer_progress.
// Each report the far end is sent is announced again as a ChannelTransfer with its state.

/** The outcomes an application reports with transfer_progress; ChannelTransfer's state names them the same way. */
export type ChannelTransferState = (typeof TRANSFER_STATES)[number];

export const AdditionalParam = defineModel('AdditionalParam', 'A name and value the REFER carried besides its destination (for SIP, a tag of the dialog being replaced).', {
  parameter_name: f.string('Name of the parameter.'),
  parameter_value: f.string('Its value.'),
});

export const RequiredDestination = defineModel('RequiredDestination', 'Where the far end asked the call to go, as its REFER put it.', {
  protocol_id: optional(f.string('For an attended transfer: the protocol id (SIP Call-ID) of the far end\'s other call, the one to be replaced.')),
  destination: optional(f.string('The user part of the address the call is to go to: the number dialled for a blind transfer; for an attended one, the extension the other call reached, when the far end placed it to us.')),
  additional_protocol_params: optional(f.list(f.ref(AdditionalParam), 'Further values of the REFER, when it had any.')),
});

export const ReferTo = defineModel('ReferTo', 'The destination of a transfer: what was asked for, and the channels and bridge the server found for it.', {
  requested_destination: f.ref(RequiredDestination, 'The destination as the far end gave it.'),
  destination_channel: optional(f.ref(Channel, 'For an attended transfer: our channel of the call to be replaced, when it is one of ours.')),
  connected_channel: optional(f.ref(Channel, 'The party bridged with destination_channel, when there is exactly one.')),
  bridge: optional(f.ref(Bridge, 'The bridge destination_channel is in, when it is in one.')),
});

export const ReferredBy = defineModel('ReferredBy', 'Who asked for a transfer: the channel the REFER arrived on, and whom it was talking to.', {
  source_channel: f.ref(Channel, 'The channel whose far end sent the REFER.'),
  connected_channel: optional(f.ref(Channel, 'The party bridged with source_channel, when there is exactly one.')),
  bridge: optional(f.ref(Bridge, 'The bridge source_channel is in, when it is in one.')),
});

export const ChannelTransfer = defineEvent('ChannelTransfer', 'A far end asked for a transfer on a channel whose transfer handling is ari-only (endpoint option transfer_handling, or PJSIP_TRANSFER_HANDLING on the channel). The server moves nothing: the application carries the transfer out and reports how it went with transfer_progress, each report being announced again with its state. Sent to the applications subscribed to the channel the request arrived on.', {
  state: optional(f.oneOf(TRANSFER_STATES, 'The progress last reported with transfer_progress; absent on the event that announces the request.')),
  refer_to: f.ref(ReferTo, 'Where the call is to go.'),
  referred_by: f.ref(ReferredBy, 'Who asked for it.'),
});

/** Models events.json declares for ChannelTransfer besides the event itself. */
export const TRANSFER_EVENT_MODELS = [AdditionalParam, RequiredDestination, ReferTo, ReferredBy] as const;
