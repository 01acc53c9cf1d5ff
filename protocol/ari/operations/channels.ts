import * as v from 'valibot';
import { body, defineOperation, path, query } from '../../operation.js';
import { Channel, RTPstat } from '../models/channel.js';
import { Variable } from '../models/asterisk.js';
import { LiveRecording, Playback } from '../models/media.js';

const channelId = path.string({ description: 'Channel\'s id' });
const variables = body.variables('The "variables" key in the body object holds variable key/value pairs to set on the channel on creation. Other keys in the body object are interpreted as query parameters. Ex. { "endpoint": "SIP/Alice", "variables": { "CALLERID(name)": "Alice" } }');
const HANGUP_REASONS = ['normal', 'busy', 'congestion', 'no_answer', 'timeout', 'rejected', 'unallocated', 'normal_unspecified', 'number_incomplete', 'codec_mismatch', 'interworking', 'failure', 'answered_elsewhere'] as const;

const e404 = { code: 404, reason: 'Channel not found' };
const e409 = { code: 409, reason: 'Channel not in a Stasis application' };
const e412 = { code: 412, reason: 'Channel in invalid state' };
const guarded = [e404, e409, e412];

/** Parameters shared by originate and originateWithId (less the id itself). */
const originateParams = {
  endpoint: query.string({ description: 'Endpoint to call.', required: true, missingMessage: 'Endpoint must be specified' }),
  extension: query.string({ description: 'The extension to dial after the endpoint answers. Mutually exclusive with \'app\'.' }),
  context: query.string({ description: 'The context to dial after the endpoint answers. If omitted, uses \'default\'. Mutually exclusive with \'app\'.' }),
  priority: query.long({ description: 'The priority to dial after the endpoint answers. If omitted, uses 1. Mutually exclusive with \'app\'.' }),
  label: query.string({ description: 'The label to dial after the endpoint answers. Will supersede \'priority\' if provided. Mutually exclusive with \'app\'.' }),
  app: query.string({ description: 'The application that is subscribed to the originated channel. When the channel is answered, it will be passed to this Stasis application. Mutually exclusive with \'context\', \'extension\', \'priority\', and \'label\'.' }),
  appArgs: query.string({ description: 'The application arguments to pass to the Stasis application provided by \'app\'. Mutually exclusive with \'context\', \'extension\', \'priority\', and \'label\'.' }),
  callerId: query.string({ description: 'CallerID to use when dialing the endpoint or extension.' }),
  timeout: query.int({ description: 'Timeout (in seconds) before giving up dialing, or -1 for no timeout.', default: 30 }),
  variables,
};
const originateTail = {
  otherChannelId: query.string({ description: 'The unique id to assign the second channel when using local channels.' }),
  originator: query.string({ description: 'The unique id of the channel which is originating this one.' }),
  formats: query.string({ description: 'The format name capability list to use if originator is not specified. Ex. "ulaw,slin16".  Format names can be found with "core show codecs".' }),
};
const originateErrors = [
  { code: 400, reason: 'Invalid parameters for originating a channel.' },
  { code: 404, reason: 'Requested label can not be found.' },
  { code: 409, reason: 'Channel with given unique ID already exists.' },
];

export const list = defineOperation({
  resource: 'channels', method: 'GET', path: '/channels', nickname: 'list',
  summary: 'List all active channels in Asterisk.', params: {},
  responseClass: 'List[Channel]', response: v.array(Channel.schema), success: 200, errors: [],
});

export const originate = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels', nickname: 'originate',
  summary: 'Create a new channel (originate).',
  notes: 'The new channel is created immediately and a snapshot of it returned. If a Stasis application is provided it will be automatically subscribed to the originated channel for further events and updates.',
  params: { ...originateParams, channelId: query.string({ description: 'The unique id to assign the channel on creation.' }), ...originateTail },
  responseClass: 'Channel', response: Channel.schema, success: 200, errors: originateErrors,
});

export const create = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/create', nickname: 'create', since: ['14.0.0'],
  summary: 'Create channel.',
  params: {
    endpoint: query.string({ description: 'Endpoint for channel communication', required: true }),
    app: query.string({ description: 'Stasis Application to place channel into', required: true }),
    appArgs: query.string({ description: 'The application arguments to pass to the Stasis application provided by \'app\'. Mutually exclusive with \'context\', \'extension\', \'priority\', and \'label\'.' }),
    channelId: query.string({ description: 'The unique id to assign the channel on creation.' }),
    ...originateTail,
    variables,
  },
  responseClass: 'Channel', response: Channel.schema, success: 200,
  errors: [{ code: 400, reason: 'Invalid parameters for creating a channel.' }, { code: 409, reason: 'Channel with given unique ID already exists.' }],
});

export const get = defineOperation({
  resource: 'channels', method: 'GET', path: '/channels/{channelId}', nickname: 'get',
  summary: 'Channel details.', params: { channelId },
  responseClass: 'Channel', response: Channel.schema, success: 200, errors: [e404],
});

export const originateWithId = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}', nickname: 'originateWithId', since: ['12.2.0'],
  summary: 'Create a new channel (originate with id).',
  notes: 'The new channel is created immediately and a snapshot of it returned. If a Stasis application is provided it will be automatically subscribed to the originated channel for further events and updates.',
  params: { channelId: path.string({ description: 'The unique id to assign the channel on creation.' }), ...originateParams, ...originateTail },
  responseClass: 'Channel', response: Channel.schema, success: 200, errors: originateErrors,
});

export const hangup = defineOperation({
  resource: 'channels', method: 'DELETE', path: '/channels/{channelId}', nickname: 'hangup',
  summary: 'Delete (i.e. hangup) a channel.',
  params: {
    channelId,
    reason_code: query.string({ description: 'The reason code for hanging up the channel for detail use. Mutually exclusive with \'reason\'. See detail hangup codes at here. https://docs.asterisk.org/Configuration/Miscellaneous/Hangup-Cause-Mappings/' }),
    reason: query.string({ description: 'Reason for hanging up the channel for simple use. Mutually exclusive with \'reason_code\'.', values: HANGUP_REASONS, handlerValidates: true }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'Invalid reason for hangup provided' }, e404],
});

export const continueInDialplan = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/continue', nickname: 'continueInDialplan',
  summary: 'Exit application; continue execution in the dialplan.',
  params: {
    channelId,
    context: query.string({ description: 'The context to continue to.' }),
    extension: query.string({ description: 'The extension to continue to.' }),
    priority: query.int({ description: 'The priority to continue to.' }),
    label: query.string({ description: 'The label to continue to - will supersede \'priority\' if both are provided.' }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'Requested priority is illegal' }, { code: 404, reason: 'Channel not found, or the requested label can not be found' }, e409, e412],
});

export const move = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/move', nickname: 'move', since: ['13.26.0', '16.3.0'],
  summary: 'Move the channel from one Stasis application to another.',
  params: {
    channelId,
    app: query.string({ description: 'The channel will be passed to this Stasis application.', required: true, missingMessage: 'Application name is required' }),
    appArgs: query.string({ description: 'The application arguments to pass to the Stasis application provided by \'app\'.' }),
  },
  responseClass: 'void', response: null, success: 204, errors: [e404, e409],
});

export const redirect = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/redirect', nickname: 'redirect', since: ['13.3.0'],
  summary: 'Redirect the channel to a different location.',
  params: {
    channelId,
    endpoint: query.string({ description: 'The endpoint to redirect the channel to', required: true, handlerValidates: true }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [
    { code: 400, reason: 'Endpoint parameter not provided' },
    { code: 404, reason: 'Channel or endpoint not found' }, e409, e412,
    { code: 422, reason: 'Endpoint is not the same type as the channel' },
  ],
});

/** The many operations that take only the channel id and answer 204 behind the 404/409/412 guards. */
function simple(method: 'POST' | 'DELETE', suffix: string, nickname: string, summary: string) {
  return defineOperation({
    resource: 'channels', method, path: `/channels/{channelId}/${suffix}`, nickname, summary,
    params: { channelId }, responseClass: 'void', response: null, success: 204, errors: guarded,
  });
}

export const answer = simple('POST', 'answer', 'answer', 'Answer a channel.');
export const ring = simple('POST', 'ring', 'ring', 'Indicate ringing to a channel.');
export const ringStop = simple('DELETE', 'ring', 'ringStop', 'Stop ringing indication on a channel if locally generated.');
export const hold = simple('POST', 'hold', 'hold', 'Hold a channel.');
export const unhold = simple('DELETE', 'hold', 'unhold', 'Remove a channel from hold.');
export const stopMoh = simple('DELETE', 'moh', 'stopMoh', 'Stop playing music on hold to a channel.');
export const startSilence = simple('POST', 'silence', 'startSilence', 'Play silence to a channel.');
export const stopSilence = simple('DELETE', 'silence', 'stopSilence', 'Stop playing silence to a channel.');

export const startMoh = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/moh', nickname: 'startMoh',
  summary: 'Play music on hold to a channel.',
  notes: 'Using media operations such as /play on a channel playing MOH in this manner will suspend MOH without resuming automatically. If continuing music on hold is desired, the stasis application must reinitiate music on hold.',
  params: { channelId, mohClass: query.string({ description: 'Music on hold class to use' }) },
  responseClass: 'void', response: null, success: 204, errors: guarded,
});

export const sendDTMF = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/dtmf', nickname: 'sendDTMF',
  summary: 'Send provided DTMF to a given channel.',
  params: {
    channelId,
    dtmf: query.string({ description: 'DTMF To send.', required: true, handlerValidates: true }),
    before: query.int({ description: 'Amount of time to wait before DTMF digits (specified in milliseconds) start.', default: 0, min: 0 }),
    between: query.int({ description: 'Amount of time in between DTMF digits (specified in milliseconds).', default: 100, min: 0 }),
    duration: query.int({ description: 'Length of each DTMF digit (specified in milliseconds).', default: 100, min: 0 }),
    after: query.int({ description: 'Amount of time to wait after DTMF digits (specified in milliseconds) end.', default: 0, min: 0 }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'DTMF is required' }, ...guarded],
});

const muteDirection = query.string({
  description: 'Direction in which to mute audio', default: 'both', values: ['both', 'in', 'out'] as const, handlerValidates: true,
});
export const mute = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/mute', nickname: 'mute', summary: 'Mute a channel.',
  params: { channelId, direction: muteDirection }, responseClass: 'void', response: null, success: 204, errors: guarded,
});
export const unmute = defineOperation({
  resource: 'channels', method: 'DELETE', path: '/channels/{channelId}/mute', nickname: 'unmute', summary: 'Unmute a channel.',
  params: { channelId, direction: muteDirection }, responseClass: 'void', response: null, success: 204, errors: guarded,
});

const playParams = {
  media: query.string({ description: 'Media URIs to play.', required: true, allowMultiple: true, handlerValidates: true }),
  lang: query.string({ description: 'For sounds, selects language for sound.' }),
  offsetms: query.int({ description: 'Number of milliseconds to skip before playing. Only applies to the first URI if multiple media URIs are specified.', default: 0, min: 0, handlerValidates: true }),
  skipms: query.int({ description: 'Number of milliseconds to skip for forward/reverse operations.', default: 3000, min: 0, handlerValidates: true }),
};
export const play = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/play', nickname: 'play',
  summary: 'Start playback of media.',
  notes: 'The media URI may be any of a number of URI\'s. Currently sound:, recording:, number:, digits:, characters:, and tone: URI\'s are supported. This operation creates a playback resource that can be used to control the playback of media (pause, rewind, fast forward, etc.)',
  params: { channelId, ...playParams, playbackId: query.string({ description: 'Playback ID.' }) },
  responseClass: 'Playback', response: Playback.schema, success: 201, errors: [...guarded, { code: 409, reason: 'Channel not in a Stasis application, or a playback with the given id already exists' }],
});
export const playWithId = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/play/{playbackId}', nickname: 'playWithId', since: ['12.2.0'],
  summary: 'Start playback of media and specify the playbackId.',
  notes: 'The media URI may be any of a number of URI\'s. Currently sound:, recording:, number:, digits:, characters:, and tone: URI\'s are supported. This operation creates a playback resource that can be used to control the playback of media (pause, rewind, fast forward, etc.)',
  params: { channelId, playbackId: path.string({ description: 'Playback ID.' }), ...playParams },
  responseClass: 'Playback', response: Playback.schema, success: 201, errors: [...guarded, { code: 409, reason: 'Channel not in a Stasis application, or a playback with the given id already exists' }],
});

export const record = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/record', nickname: 'record',
  summary: 'Start a recording.',
  notes: 'Record audio from a channel. Note that this will not capture audio sent to the channel. The bridge itself has a record feature if that\'s what you want.',
  params: {
    channelId,
    name: query.string({ description: 'Recording\'s filename', required: true, missingMessage: 'Recording name is required' }),
    format: query.string({ description: 'Format to encode audio in', required: true }),
    maxDurationSeconds: query.int({ description: 'Maximum duration of the recording, in seconds. 0 for no limit', default: 0, min: 0, invalidMessage: 'max_duration_seconds cannot be negative' }),
    maxSilenceSeconds: query.int({ description: 'Maximum duration of silence, in seconds. 0 for no limit', default: 0, min: 0, invalidMessage: 'max_silence_seconds cannot be negative' }),
    ifExists: query.string({ description: 'Action to take if a recording with the same name already exists.', default: 'fail', values: ['fail', 'overwrite', 'append'] as const, handlerValidates: true }),
    beep: query.boolean({ description: 'Play beep when recording begins', default: false }),
    terminateOn: query.string({ description: 'DTMF input to terminate recording', default: 'none', values: ['none', 'any', '*', '#'] as const, handlerValidates: true }),
  },
  responseClass: 'LiveRecording', response: LiveRecording.schema, success: 201,
  errors: [
    { code: 400, reason: 'Invalid parameters' }, e404,
    { code: 409, reason: 'Channel is not in a Stasis application; the channel is currently bridged with other channels; A recording with the same name already exists on the system and can not be overwritten because it is in progress or ifExists=fail; the recordings quota (RECORDINGS_MAX_BYTES) has no room for another recording' },
    { code: 422, reason: 'The format specified is unknown on this system' },
  ],
});

export const getChannelVar = defineOperation({
  resource: 'channels', method: 'GET', path: '/channels/{channelId}/variable', nickname: 'getChannelVar',
  summary: 'Get the value of a channel variable or function.',
  params: { channelId, variable: query.string({ description: 'The channel variable or function to get', required: true, missingMessage: 'Variable name is required' }) },
  responseClass: 'Variable', response: Variable.schema, success: 200,
  errors: [{ code: 400, reason: 'Missing variable parameter.' }, { code: 404, reason: 'Channel or variable not found' }, e409],
});

export const setChannelVar = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/variable', nickname: 'setChannelVar',
  summary: 'Set the value of a channel variable or function.',
  params: {
    channelId,
    variable: query.string({ description: 'The channel variable or function to set', required: true, missingMessage: 'Variable name is required' }),
    value: query.string({ description: 'The value to set the variable to' }),
    report_events: query.boolean({ description: 'Include the variable in the channelvars of every later event about this channel.', default: false }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'Missing variable parameter.' }, e404, e409],
});

const snoopParams = {
  spy: query.string({ description: 'Direction of audio to spy on', default: 'none', values: ['none', 'both', 'out', 'in'] as const, invalidMessage: 'Invalid direction specified for spy' }),
  whisper: query.string({ description: 'Direction of audio to whisper into', default: 'none', values: ['none', 'both', 'out', 'in'] as const, invalidMessage: 'Invalid direction specified for whisper' }),
  app: query.string({ description: 'Application the snooping channel is placed into', required: true, handlerValidates: true }),
  appArgs: query.string({ description: 'The application arguments to pass to the Stasis application' }),
};
const snoopErrors = [
  { code: 400, reason: 'Invalid parameters' }, { code: 404, reason: 'Channel not found' },
  { code: 409, reason: 'A channel with the given snoop id already exists' },
];
export const snoopChannel = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/snoop', nickname: 'snoopChannel',
  summary: 'Start snooping.', notes: 'Snoop (spy/whisper) on a specific channel.',
  params: { channelId, ...snoopParams, snoopId: query.string({ description: 'Unique ID to assign to snooping channel' }) },
  responseClass: 'Channel', response: Channel.schema, success: 200, errors: snoopErrors,
});
export const snoopChannelWithId = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/snoop/{snoopId}', nickname: 'snoopChannelWithId', since: ['12.2.0'],
  summary: 'Start snooping.', notes: 'Snoop (spy/whisper) on a specific channel.',
  params: { channelId, snoopId: path.string({ description: 'Unique ID to assign to snooping channel' }), ...snoopParams },
  responseClass: 'Channel', response: Channel.schema, success: 200, errors: snoopErrors,
});

export const dial = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/dial', nickname: 'dial', since: ['14.0.0'],
  summary: 'Dial a created channel.',
  params: {
    channelId,
    caller: query.string({ description: 'Channel ID of caller' }),
    timeout: query.int({ description: 'Dial timeout', default: 0, min: 0 }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 404, reason: 'Channel cannot be found.' }, { code: 409, reason: 'Channel cannot be dialed.' }],
});

export const rtpstatistics = defineOperation({
  resource: 'channels', method: 'GET', path: '/channels/{channelId}/rtp_statistics', nickname: 'rtpstatistics', since: ['18.8.0'],
  summary: 'RTP stats on a channel.', params: { channelId },
  responseClass: 'RTPstat', response: RTPstat.schema, success: 200, errors: [{ code: 404, reason: 'Channel cannot be found, or it has no RTP session.' }],
});

export const externalMedia = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/externalMedia', nickname: 'externalMedia', since: ['16.6.0', '17.1.0'],
  summary: 'Start an External Media session.',
  notes: 'Create a channel to an External Media source/sink.',
  params: {
    channelId: query.string({ description: 'The unique id to assign the channel on creation.' }),
    app: query.string({ description: 'Stasis Application to place channel into', required: true, handlerValidates: true }),
    variables,
    external_host: query.string({ description: 'Hostname/ip:port of external host', required: true, handlerValidates: true }),
    encapsulation: query.string({ description: 'Payload encapsulation protocol', default: 'rtp', values: ['rtp', 'audiosocket'] as const, handlerValidates: true }),
    transport: query.string({ description: 'Transport protocol', default: 'udp', values: ['udp', 'tcp'] as const, handlerValidates: true }),
    connection_type: query.string({ description: 'Connection type (client/server)', default: 'client', values: ['client'] as const, handlerValidates: true }),
    format: query.string({ description: 'Format to encode audio in', required: true, handlerValidates: true }),
    direction: query.string({ description: 'External media direction', default: 'both', values: ['both'] as const, handlerValidates: true }),
    data: query.string({ description: 'An arbitrary data field' }),
  },
  responseClass: 'Channel', response: Channel.schema, success: 200,
  errors: [{ code: 400, reason: 'Invalid parameters' }, { code: 409, reason: 'Channel is not in a Stasis application; Channel is already bridged' }],
});

/** Every channels operation, in the order the docs list them. */
export const channelOperations = [
  list, originate, create, get, originateWithId, hangup, continueInDialplan, move, redirect, answer, ring, ringStop,
  sendDTMF, mute, unmute, hold, unhold, startMoh, stopMoh, startSilence, stopSilence, play, playWithId, record,
  getChannelVar, setChannelVar, snoopChannel, snoopChannelWithId, dial, rtpstatistics, externalMedia,
] as const;
