import * as v from 'valibot';
import { body, defineOperation, path, query, rawBody, type Params } from '../operation.js';
import { Channel } from '../ari/models/channel.js';
import { CallRecord, SimChannel } from './models.js';
import { HANGUP_REASONS } from '../ari/hangup-reasons.js';
import { simEndpointOperations } from './endpoint-operations.js';
import { simClockOperations } from './clock-operations.js';
import { simHeardOperations } from './heard.js';
import { simFaultOperations } from './fault-operations.js';
import { simScriptOperations } from './script-operations.js';
import type { ScriptStep } from './script.js';
import { simTapOperations } from './tap.js';

const channelId = path.string({ description: 'Id or name of a live channel.' });
const e404 = { code: 404, reason: 'Channel not found' };

export const placeCall = defineOperation({
  resource: 'sim', method: 'POST', path: '/calls', nickname: 'placeCall',
  summary: 'Place an inbound call: the endpoint calls into a dialplan extension.',
  notes: 'The new channel starts in state Ring and runs the dialplan from context/extension/1. Stasis(${STASIS_APP}) in the bundled dialplan puts it in the application named by the STASIS_APP variable (set it in variables, or globally).',
  params: {
    endpoint: query.string({ description: 'Calling endpoint (tech/resource), e.g. PJSIP/alice.', required: true }),
    extension: query.string({ description: 'Extension dialled.', default: 's' }),
    context: query.string({ description: 'Dialplan context; defaults to the endpoint\'s context.' }),
    callerId: query.string({ description: 'Caller ID presented, e.g. "Alice" <1001>; defaults to the endpoint\'s.' }),
    channelId: query.string({ description: 'Id for the new channel; generated when not given.' }),
    redirectingFrom: query.string({ description: 'Number the call was redirected from before it reached us (a SIP Diversion): the channel shows it as caller_rdnis and REDIRECTING(from-num), with a redirecting count of 1.' }),
    variables: body.variables('{"variables": {"NAME": "value"}} set on the channel before the dialplan runs.'),
    script: body.fields<ScriptStep[]>('A script the caller follows, under the body\'s "script" key: a list of steps with one key each (answer and reject are for calls the far end receives, so not here). It starts as the call is placed.'),
  },
  responseClass: 'Channel', response: Channel.schema, success: 200,
  errors: [
    { code: 400, reason: 'Invalid endpoint, unknown context/extension, or a bad script (the message names the step).' },
    { code: 409, reason: 'Channel with given unique ID already exists, or the endpoint\'s channel driver (chan_pjsip.so) is not loaded and the call is refused.' },
  ],
});

export const getSimChannel = defineOperation({
  resource: 'sim', method: 'GET', path: '/channels/{channelId}', nickname: 'getChannel',
  summary: 'What the far end of a live channel perceives (indications, media, DTMF heard) and is doing.',
  params: { channelId },
  responseClass: 'SimChannel', response: SimChannel.schema, success: 200, errors: [e404],
});

export const farAnswer = defineOperation({
  resource: 'sim', method: 'POST', path: '/channels/{channelId}/answer', nickname: 'answer',
  summary: 'The far end answers an outgoing call that is ringing (e.g. to PJSIP/manual).',
  params: { channelId },
  responseClass: 'void', response: null, success: 204,
  errors: [e404, { code: 409, reason: 'Channel is not an outgoing call waiting for an answer.' }],
});

export const farHangup = defineOperation({
  resource: 'sim', method: 'POST', path: '/channels/{channelId}/hangup', nickname: 'hangup',
  summary: 'The far end hangs up (or, before answering, rejects the call) with a cause.',
  params: {
    channelId,
    cause: query.int({ description: 'Q.850 cause code; default 16 (normal clearing).', min: 0, max: 127 }),
    reason: query.string({ description: 'Cause by name (as ARI hangup reasons); exclusive with cause.', values: HANGUP_REASONS }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'Both cause and reason given, or an invalid one.' }, e404],
});

export const farDtmf = defineOperation({
  resource: 'sim', method: 'POST', path: '/channels/{channelId}/dtmf', nickname: 'pressDtmf',
  summary: 'The far end presses DTMF digits; each ends with a ChannelDtmfReceived event.',
  params: {
    channelId,
    dtmf: query.string({ description: 'Digits (0-9, A-D, *, #).', required: true }),
    duration: query.int({ description: 'Length of each digit, ms.', default: 100, min: 1 }),
    between: query.int({ description: 'Gap between digits, ms.', default: 100, min: 0 }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'Missing or invalid digits.' }, e404, { code: 409, reason: 'Channel has no media yet (Down).' }],
});

function toggle<const N extends string, const E extends Params>(method: 'POST' | 'DELETE', suffix: string, nickname: N, summary: string, extra: E = {} as E) {
  return defineOperation({
    resource: 'sim', method, path: `/channels/{channelId}/${suffix}`, nickname, summary,
    params: { channelId, ...extra }, responseClass: 'void', response: null, success: 204, errors: [e404],
  });
}

export const farHold = toggle('POST', 'hold', 'hold', 'The far end puts us on hold (ChannelHold).', {
  musicclass: query.string({ description: 'Music class the far end asks for.' }),
});
export const farUnhold = toggle('DELETE', 'hold', 'unhold', 'The far end takes us off hold (ChannelUnhold).');
export const farTalkStart = toggle('POST', 'talk', 'startTalking', 'The far end starts talking (ChannelTalkingStarted when TALK_DETECT is set).');
export const farTalkStop = toggle('DELETE', 'talk', 'stopTalking', 'The far end stops talking (ChannelTalkingFinished when TALK_DETECT is set).');

export const farBlindTransfer = defineOperation({
  resource: 'sim', method: 'POST', path: '/channels/{channelId}/transfer', nickname: 'blindTransfer',
  summary: 'The far end transfers the call blind (a SIP REFER): in a bridge, a Local channel to the target takes its place (BridgeBlindTransfer) and the far end then hangs up.',
  notes: 'Outside a bridge the attempt is reported as BridgeBlindTransfer with result Invalid and nothing moves. When the channel\'s transfer handling is ari-only, nothing moves and the extension is not looked up: the far end is sent a 100 Trying NOTIFY and the channel\'s applications get ChannelTransfer with the extension as the requested destination.',
  params: {
    channelId,
    exten: query.string({ description: 'Extension the call is sent to.', required: true }),
    context: query.string({ description: 'Dialplan context; by default the channel\'s TRANSFER_CONTEXT variable, else its endpoint\'s context.' }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'No extension, or no such extension in the context.' }, e404, { code: 409, reason: 'Channel is not answered.' }],
});

const attendedErrors = [
  { code: 400, reason: 'No target, or the same call twice.' }, e404,
  { code: 409, reason: 'A call is not answered.' },
];
const target = query.string({ description: 'Id or name of the far end\'s other call, to the transfer target.', required: true });

export const farAttendedTransfer = defineOperation({
  resource: 'sim', method: 'POST', path: '/channels/{channelId}/attendedTransfer', nickname: 'attendedTransfer', params: { channelId, target },
  summary: 'The far end joins two of its calls (a SIP REFER with Replaces): channelId is its call to the party transferred, target its call to the transfer target. Two bridged calls are linked by a Local pair (BridgeAttendedTransfer, destination_type link) and the far end hangs up both.',
  notes: 'Two unbridged calls, or a bridged call alone in its bridge, give BridgeAttendedTransfer with result Invalid. One bridged and one unbridged call: a Local pair takes the unbridged call\'s place in its application (Stasis, with replace_channel, or its dialplan application) and the bridged call\'s place in the bridge (destination_type application, destination_application naming what the unbridged call ran); the far end hangs up both. When channelId\'s transfer handling is ari-only, any two calls are accepted and nothing moves: the far end is sent a 100 Trying NOTIFY and channelId\'s applications get ChannelTransfer naming target as the call to replace.',
  responseClass: 'void', response: null, success: 204, errors: attendedErrors,
});

export const setFarAudio = defineOperation({
  resource: 'sim', method: 'POST', path: '/channels/{channelId}/audio', nickname: 'setAudio',
  summary: 'What the far end sends from now on: silence, a tone, or a sound from the catalogue.',
  params: {
    channelId,
    source: query.string({ description: 'silence, tone or sound.', required: true, values: ['silence', 'tone', 'sound'] as const }),
    tone: query.string({ description: 'For source=tone: an indication of the tone zone (ring, busy, …) or an Asterisk tone list (440+480/2000,0/4000).' }),
    sound: query.string({ description: 'For source=sound: a sound id.' }),
    lang: query.string({ description: 'For source=sound: the language (default: the channel\'s).' }),
    loop: query.boolean({ description: 'For source=sound: start over at the end instead of falling silent.', default: false }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'Missing or invalid tone, or unknown sound' }, e404],
});

export const uploadFarAudio = defineOperation({
  resource: 'sim', method: 'PUT', path: '/channels/{channelId}/audio', nickname: 'uploadAudio',
  summary: 'The far end speaks uploaded audio: a WAV file (8 to 48 kHz, PCM or G.711) or raw 8 kHz 16-bit little-endian PCM (audio/x-sln or application/octet-stream).',
  params: {
    channelId,
    loop: query.boolean({ description: 'Start over at the end instead of falling silent.', default: false }),
    audio: rawBody('The audio, as the request body.'),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'No audio, audio that cannot be decoded, more than SIM_AUDIO_MAX_SECONDS of it, or another Content-Type.' }, e404],
});

export const history = defineOperation({
  resource: 'sim', method: 'GET', path: '/history', nickname: 'history',
  summary: 'Ended channels, newest first, with cause, times, last application and variables.',
  params: {
    limit: query.int({ description: 'Maximum number of records.', default: 100, min: 1, max: 1000 }),
    before: query.string({ description: 'Only channels that ended before the one with this id (paging).' }),
  },
  responseClass: 'List[CallRecord]', response: v.array(CallRecord.schema), success: 200,
  errors: [{ code: 404, reason: 'The channel given in before is not in the history.' }],
});

export const simOperations = [
  placeCall, getSimChannel, farAnswer, farHangup, farDtmf, farHold, farUnhold, farTalkStart, farTalkStop, farBlindTransfer, farAttendedTransfer, setFarAudio, uploadFarAudio, history,
  ...simEndpointOperations, ...simClockOperations, ...simHeardOperations, ...simFaultOperations, ...simScriptOperations, ...simTapOperations,
] as const;
