import { body, defineOperation, path, query } from '../../operation.js';
import { Variables } from '../models/asterisk.js';

// Channel operations that Asterisk 20 to 23 added: early media, transfer progress, and
// reading or writing several variables in one request (releases from Asterisk's change logs).

const channel = path.string({ description: 'Id or name of a live channel.' });
const missing = { code: 404, reason: 'Channel not found' };
const notInApp = { code: 409, reason: 'Channel not in Stasis application' };
const badState = { code: 412, reason: 'Channel in invalid state' };

/** The values transfer_progress accepts, each the outcome reported to the far end that asked for the transfer. */
export const TRANSFER_STATES = ['channel_progress', 'channel_answered', 'channel_unavailable', 'channel_declined'] as const;

export const progress = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/progress', nickname: 'progress', since: ['20.16.0', '22.6.0'],
  summary: 'Tells the far end that early media is coming (a 183 Session Progress for a SIP far end) without answering.',
  notes: 'No event follows on this channel. On the dialplan half of a Local pair, the half that placed the call reports Dial PROGRESS.',
  params: { channelId: channel },
  responseClass: 'void', response: null, success: 204, errors: [missing, notInApp, badState],
});

export const transferProgress = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/transfer_progress', nickname: 'transfer_progress', since: ['22.3.0', '21.8.0', '20.13.0'],
  summary: 'Reports to the far end how the transfer it asked for (SIP REFER) is going, as a NOTIFY with a SIP status.',
  notes: 'channel_progress is a 100 Trying and leaves the transfer open; channel_answered (200), channel_unavailable (503) and channel_declined (603) end it. The simulation API lists what the far end was told.',
  params: {
    channelId: channel,
    states: query.string({ description: 'How the transfer is going.', required: true, values: TRANSFER_STATES, handlerValidates: true }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'No states, or a value not in the list.' }, missing, notInApp],
});

export const getChannelVars = defineOperation({
  resource: 'channels', method: 'GET', path: '/channels/{channelId}/variables', nickname: 'getChannelVars', since: ['20.20.0', '22.10.0', '23.4.0'],
  summary: 'Reads several variables of the channel (or dialplan functions such as CALLERID(num)) in one request.',
  notes: 'Names that are not set on the channel are left out of the answer.',
  params: {
    channelId: channel,
    variables: query.string({ description: 'Comma-separated names of variables or functions to read.', required: true, allowMultiple: true, missingMessage: 'Variable names are required' }),
  },
  responseClass: 'Variables', response: Variables.schema, success: 200,
  errors: [{ code: 400, reason: 'No variable names given.' }, { code: 404, reason: 'No such channel, or a function that cannot be read.' }, notInApp],
});

export const setChannelVars = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/variables', nickname: 'setChannelVars', since: ['20.20.0', '22.10.0', '23.4.0'],
  summary: 'Sets several variables of the channel (or writes functions) in one request, in the order given; each raises the event a single setChannelVar would.',
  params: {
    channelId: channel,
    variables: body.variables('JSON body {"variables": {"NAME": "value", "OTHER": {"value": "…", "report_events": true}}}; names are trimmed, and function names such as CALLERID(name) write the function.'),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'No variables, a malformed one, a function that cannot be written, or more variables than the channel may hold.' }, missing, notInApp],
});
