import * as v from 'valibot';
import { body, defineOperation, path, query } from '../../operation.js';
import { Channel, RTPstat } from '../models/channel.js';
import { Variable } from '../models/asterisk.js';
import { LiveRecording, Playback } from '../models/media.js';
import { HANGUP_REASONS } from '../hangup-reasons.js';
import { getChannelVars, progress, setChannelVars, transferProgress } from './channel-additions.js';

const channelId = path.string({ description: 'Id or name of a live channel.' });
const variables = body.variables('JSON body. Its "variables" object lists variables to set on the new channel, name to value (a string, or {"value": "…", "report_events": true}); function names such as CALLERID(name) are written as functions. Any other top-level key stands for the query parameter of that name and wins over it. Example: {"endpoint": "PJSIP/alice", "variables": {"CALLERID(name)": "Alice"}}');

const e404 = { code: 404, reason: 'Channel not found' };
const e409 = { code: 409, reason: 'Channel not in Stasis application' };
const e412 = { code: 412, reason: 'Channel in invalid state' };
const guarded = [e404, e409, e412];

/** Parameters shared by originate and originateWithId (less the id itself). */
const originateParams = {
  endpoint: query.string({ description: 'Who to call, as tech/resource: an endpoint of the fixtures (PJSIP/alice), Local/exten@context for a Local channel pair, or a media WebSocket: WebSocket/INCOMING (the application connects to /media/<id>) or WebSocket/<websocket_client connection> (we connect), optionally followed by /<options>: those of externalMedia\'s transport_data plus c(codec).', required: true, missingMessage: 'Endpoint must be specified' }),
  extension: query.string({ description: 'Dialplan extension the channel runs once answered; not together with app.' }),
  context: query.string({ description: 'Context of that extension (default: default); not together with app.' }),
  priority: query.long({ description: 'Priority to start at (default: 1); not together with app.' }),
  label: query.string({ description: 'Label to start at instead of a priority (a number counts as a priority); not together with app.' }),
  app: query.string({ description: 'Application that hears about the channel from its creation and receives it (StasisStart) once it is answered; not together with extension, context, priority or label.' }),
  appArgs: query.string({ description: 'Comma-separated arguments that StasisStart carries to app.' }),
  callerId: query.string({ description: 'Caller ID the far end is shown, e.g. "Alice" <1001>.' }),
  timeout: query.int({ description: 'Seconds to let the far end ring before the call fails (cause 19); -1 rings forever, 0 means the default.', default: 30 }),
  variables,
};
const originateTail = {
  otherChannelId: query.string({ description: 'Id for the second half of a Local channel pair (default: channelId followed by ;2).' }),
  originator: query.string({ description: 'Id of an existing channel this call is made for: the new channel takes its formats (and, with create, app is subscribed to it). Not together with formats.' }),
  formats: query.string({ description: 'Comma-separated audio formats the new channel offers, each one listed in the formats fixture (e.g. ulaw,slin16); default ulaw, alaw and slin. Not together with originator.' }),
};
const originateErrors = [
  { code: 400, reason: 'Missing, malformed or unknown endpoint, or one whose channel driver is not loaded (Allocation failed); neither app nor extension, or app mixed with dialplan parameters; originator with formats, or an unknown originator or format; a timeout below -1; a malformed variable; an id over 149 characters.' },
  { code: 404, reason: 'Requested label can not be found' },
  { code: 409, reason: 'Channel with given unique ID already exists' },
];

export const list = defineOperation({
  resource: 'channels', method: 'GET', path: '/channels', nickname: 'list',
  summary: 'Snapshots of every live channel.', params: {},
  responseClass: 'List[Channel]', response: v.array(Channel.schema), success: 200, errors: [],
});

export const originate = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels', nickname: 'originate',
  summary: 'Originates a call: a new channel that dials its endpoint at once.',
  notes: 'The answer carries the new channel while it is still Down; Dial and ChannelStateChange events follow as the far end rings and answers. With app, that application is subscribed to the channel from the start and gets StasisStart after the answer; with extension, the answered channel runs the dialplan from there.',
  params: { ...originateParams, channelId: query.string({ description: 'Id for the new channel; generated when not given.' }), ...originateTail },
  responseClass: 'Channel', response: Channel.schema, success: 200, errors: originateErrors,
});

export const create = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/create', nickname: 'create', since: ['14.0.0'],
  summary: 'Makes a channel inside an application without dialling it: it enters app at once (StasisStart, state Down) and waits for /dial.',
  params: {
    endpoint: query.string({ description: 'Who the channel will call once dialled, as tech/resource (as for originate, WebSocket/… included).', required: true }),
    app: query.string({ description: 'Application the channel is placed in right away.', required: true }),
    appArgs: query.string({ description: 'Comma-separated arguments that StasisStart carries to app.' }),
    channelId: query.string({ description: 'Id for the new channel; generated when not given.' }),
    ...originateTail,
    variables,
  },
  responseClass: 'Channel', response: Channel.schema, success: 200,
  errors: [{ code: 400, reason: 'Missing, malformed or unknown endpoint, or one whose channel driver is not loaded (Allocation failed); no app; originator with formats, or an unknown originator or format; a malformed variable; an id over 149 characters.' }, { code: 409, reason: 'Channel with given unique ID already exists' }],
});

export const get = defineOperation({
  resource: 'channels', method: 'GET', path: '/channels/{channelId}', nickname: 'get',
  summary: 'Snapshot of one live channel.', params: { channelId },
  responseClass: 'Channel', response: Channel.schema, success: 200, errors: [e404],
});

export const originateWithId = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}', nickname: 'originateWithId', since: ['12.2.0'],
  summary: 'Originates a call as POST /channels does, under the channel id given in the path.',
  notes: 'The answer carries the new channel while it is still Down; Dial and ChannelStateChange events follow as the far end rings and answers. With app, that application is subscribed to the channel from the start and gets StasisStart after the answer; with extension, the answered channel runs the dialplan from there.',
  params: { channelId: path.string({ description: 'Id for the new channel.' }), ...originateParams, ...originateTail },
  responseClass: 'Channel', response: Channel.schema, success: 200, errors: originateErrors,
});

export const hangup = defineOperation({
  resource: 'channels', method: 'DELETE', path: '/channels/{channelId}', nickname: 'hangup',
  summary: 'Hangs up a channel, in an application or not: ChannelHangupRequest, StasisEnd when it was in one, then ChannelDestroyed with the cause.',
  params: {
    channelId,
    reason_code: query.string({ description: 'Hangup cause as a Q.850 number (any integer, e.g. 17 for busy); not together with reason.' }),
    reason: query.string({ description: 'Hangup cause by name (normal is 16, busy 17, congestion 34, no_answer 19, …); normal when neither this nor reason_code is given. Not together with reason_code.', values: HANGUP_REASONS, handlerValidates: true }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'Both reason and reason_code, a reason not in the list, or a reason_code that is not an integer.' }, e404],
});

export const continueInDialplan = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/continue', nickname: 'continueInDialplan',
  summary: 'Lets the channel leave its application (StasisEnd) and resume the dialplan at the location given.',
  params: {
    channelId,
    context: query.string({ description: 'Context to resume in (default: the current one).' }),
    extension: query.string({ description: 'Extension to resume at (default: the current one, or s when a context is given).' }),
    priority: query.int({ description: 'Priority to resume at (default: the next one when neither context nor extension is given, else 1).' }),
    label: query.string({ description: 'Label to resume at; wins over priority, and a number counts as a priority.' }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'Requested priority is illegal' }, { code: 404, reason: 'No such channel, or no such label in the target extension.' }, e409, e412],
});

export const move = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/move', nickname: 'move', since: ['13.26.0', '16.3.0'],
  summary: 'Hands the channel to another application: StasisEnd here, StasisStart there. When that application has no connected WebSocket, the channel stays and its current application gets ApplicationMoveFailed.',
  params: {
    channelId,
    app: query.string({ description: 'Application to hand the channel to.', required: true, missingMessage: 'Application name is required' }),
    appArgs: query.string({ description: 'Comma-separated arguments for StasisStart in the new application (empty ones are dropped).' }),
  },
  responseClass: 'void', response: null, success: 204, errors: [e404, e409],
});

export const redirect = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/redirect', nickname: 'redirect', since: ['13.3.0'],
  summary: 'Sends the far end of the channel elsewhere: a PJSIP far end is redirected and hangs up shortly after; a Local pair restarts its dialplan half at the new extension.',
  params: {
    channelId,
    endpoint: query.string({ description: 'Destination as tech/resource, with the same technology as the channel.', required: true, handlerValidates: true }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [
    { code: 400, reason: 'No endpoint given.' },
    { code: 404, reason: 'No such channel, or no such endpoint.' }, e409, e412,
    { code: 422, reason: 'The endpoint is not tech/resource, or its technology differs from the channel one.' },
  ],
});

/** The many operations that take only the channel id and answer 204 behind the 404/409/412 guards. */
function simple(method: 'POST' | 'DELETE', suffix: string, nickname: string, summary: string) {
  return defineOperation({
    resource: 'channels', method, path: `/channels/{channelId}/${suffix}`, nickname, summary,
    params: { channelId }, responseClass: 'void', response: null, success: 204, errors: guarded,
  });
}

export const answer = simple('POST', 'answer', 'answer', 'Answers the channel (state Up); a channel that is Up already stays as it is.');
export const ring = simple('POST', 'ring', 'ring', 'Starts a ringing indication toward the far end.');
export const ringStop = simple('DELETE', 'ring', 'ringStop', 'Ends the ringing indication that ring started.');
export const hold = simple('POST', 'hold', 'hold', 'Indicates hold to the far end; this channel gets no event unless HOLD_INTERCEPT(set) is on it.');
export const unhold = simple('DELETE', 'hold', 'unhold', 'Withdraws the hold indication.');
export const stopMoh = simple('DELETE', 'moh', 'stopMoh', 'Ends the music on hold that startMoh started.');
export const startSilence = simple('POST', 'silence', 'startSilence', 'Sends silence to the far end (replacing music on hold) until stopped or until a playback starts.');
export const stopSilence = simple('DELETE', 'silence', 'stopSilence', 'Stops sending silence.');

export const startMoh = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/moh', nickname: 'startMoh',
  summary: 'Plays a music on hold class to the far end (replacing silence).',
  notes: 'A playback on the channel ends the music, and it does not come back when the playback is over: call startMoh again for that.',
  params: { channelId, mohClass: query.string({ description: 'Class from the music on hold fixtures; a missing or unknown one plays default.' }) },
  responseClass: 'void', response: null, success: 204, errors: guarded,
});

export const sendDTMF = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/dtmf', nickname: 'sendDTMF',
  summary: 'Sends DTMF digits to the far end (no event on this channel). The 204 comes at once; later commands on the channel wait until the digits are over.',
  params: {
    channelId,
    dtmf: query.string({ description: 'Digits 0-9, A-D, * and #; w waits 500 ms and W one second.', required: true, handlerValidates: true }),
    before: query.int({ description: 'Milliseconds of quiet before the first digit.', default: 0, min: 0 }),
    between: query.int({ description: 'Milliseconds of quiet between two digits.', default: 100, min: 0 }),
    duration: query.int({ description: 'Milliseconds each digit sounds.', default: 100, min: 0 }),
    after: query.int({ description: 'Milliseconds the channel stays busy after the last digit.', default: 0, min: 0 }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'No digits, or a character that is neither a DTMF digit nor a pause.' }, ...guarded],
});

const muteDirection = query.string({
  description: 'Which audio: in (from the far end), out (to the far end), or both.', default: 'both', values: ['both', 'in', 'out'] as const, handlerValidates: true,
});
export const mute = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/mute', nickname: 'mute', summary: 'Mutes the channel audio in one direction or both.',
  params: { channelId, direction: muteDirection }, responseClass: 'void', response: null, success: 204, errors: guarded,
});
export const unmute = defineOperation({
  resource: 'channels', method: 'DELETE', path: '/channels/{channelId}/mute', nickname: 'unmute', summary: 'Lifts a mute in one direction or both.',
  params: { channelId, direction: muteDirection }, responseClass: 'void', response: null, success: 204, errors: guarded,
});

const playParams = {
  media: query.string({ description: 'What to play, one URI or several in turn: sound:, recording:, number:, digits:, characters: or tone:.', required: true, allowMultiple: true, handlerValidates: true }),
  lang: query.string({ description: 'Language for sound: URIs (default: the channel language).' }),
  offsetms: query.int({ description: 'Milliseconds to skip at the start of the first URI.', default: 0, min: 0, handlerValidates: true }),
  skipms: query.int({ description: 'How far forward and reverse jump, in milliseconds (0 means the default).', default: 3000, min: 0, handlerValidates: true }),
};
export const play = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/play', nickname: 'play',
  summary: 'Queues media for the channel and answers with the playback, state queued.',
  notes: 'Playbacks on one channel run one after another, and the first to start ends any music on hold or silence. PlaybackStarted comes for each URI, PlaybackContinuing between two URIs, PlaybackFinished at the end. Pause, resume, rewind or skip it under /playbacks/{playbackId}.',
  params: { channelId, ...playParams, playbackId: query.string({ description: 'Id for the playback; generated when not given.' }) },
  responseClass: 'Playback', response: Playback.schema, success: 201, errors: [...guarded, { code: 409, reason: 'The channel is not in an application, or a playback with that id exists already.' }],
});
export const playWithId = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/play/{playbackId}', nickname: 'playWithId', since: ['12.2.0'],
  summary: 'Queues media for the channel under the playback id given in the path.',
  notes: 'Playbacks on one channel run one after another, and the first to start ends any music on hold or silence. PlaybackStarted comes for each URI, PlaybackContinuing between two URIs, PlaybackFinished at the end. Pause, resume, rewind or skip it under /playbacks/{playbackId}.',
  params: { channelId, playbackId: path.string({ description: 'Id for the playback.' }), ...playParams },
  responseClass: 'Playback', response: Playback.schema, success: 201, errors: [...guarded, { code: 409, reason: 'The channel is not in an application, or a playback with that id exists already.' }],
});

export const record = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/record', nickname: 'record',
  summary: 'Records the audio that reaches the channel from its far end into a file.',
  notes: 'What is played to the channel is not captured; record the bridge to get the mix. A ringing inbound channel is answered first. RecordingStarted marks the start; once finished, the file is listed under /recordings/stored.',
  params: {
    channelId,
    name: query.string({ description: 'Name to store the recording under (may contain /).', required: true, missingMessage: 'Recording name is required' }),
    format: query.string({ description: 'Audio format of the file, one the formats fixture declares (e.g. wav, ulaw).', required: true }),
    maxDurationSeconds: query.int({ description: 'Ends the recording after this many seconds; 0 means no limit.', default: 0, min: 0, invalidMessage: 'max_duration_seconds cannot be negative' }),
    maxSilenceSeconds: query.int({ description: 'Ends the recording after this many seconds of silence; 0 means no limit.', default: 0, min: 0, invalidMessage: 'max_silence_seconds cannot be negative' }),
    ifExists: query.string({ description: 'What to do when a stored recording has that name: fail (409), overwrite it, or append to it.', default: 'fail', values: ['fail', 'overwrite', 'append'] as const, handlerValidates: true }),
    beep: query.boolean({ description: 'Play a beep to the channel before capture starts.', default: false }),
    terminateOn: query.string({ description: 'Far-end DTMF that ends the recording: any digit, * or #; none to ignore DTMF.', default: 'none', values: ['none', 'any', '*', '#'] as const, handlerValidates: true }),
  },
  responseClass: 'LiveRecording', response: LiveRecording.schema, success: 201,
  errors: [
    { code: 400, reason: 'A missing or bad name, no format, a bad ifExists or terminateOn, or a negative duration.' }, e404,
    { code: 409, reason: 'The channel is not in an application or is in a bridge; the name belongs to a recording in progress, or to a stored one with ifExists=fail; RECORDINGS_MAX_BYTES leaves no room for another recording.' },
    { code: 422, reason: 'The formats fixture does not declare that format.' },
  ],
});

export const getChannelVar = defineOperation({
  resource: 'channels', method: 'GET', path: '/channels/{channelId}/variable', nickname: 'getChannelVar',
  summary: 'Reads a variable of the channel, or evaluates a dialplan function such as CALLERID(num) on it.',
  params: { channelId, variable: query.string({ description: 'Variable name, or a function call (a name ending in a closing parenthesis).', required: true, missingMessage: 'Variable name is required' }) },
  responseClass: 'Variable', response: Variable.schema, success: 200,
  errors: [{ code: 400, reason: 'No variable name given.' }, { code: 404, reason: 'No such channel, no such variable on it, or a function that cannot be read.' }, e409],
});

export const setChannelVar = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/variable', nickname: 'setChannelVar',
  summary: 'Sets a variable of the channel, or writes a dialplan function such as CALLERID(name) or HOLD_INTERCEPT(set); ChannelVarset (or the event the function implies) follows.',
  params: {
    channelId,
    variable: query.string({ description: 'Variable name, or a function call to write.', required: true, missingMessage: 'Variable name is required' }),
    value: query.string({ description: 'New value; without it the variable is removed.' }),
    report_events: query.boolean({ description: 'Include the variable in the channelvars of every later event about this channel.', default: false }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'No variable name given, the channel already holds as many variables as allowed, or the function cannot be written.' }, e404, e409],
});

const snoopParams = {
  spy: query.string({ description: 'Audio of the target the snoop channel receives: in (what the target receives from its far end), out (what it sends), both, or none.', default: 'none', values: ['none', 'both', 'out', 'in'] as const, invalidMessage: 'Invalid direction specified for spy' }),
  whisper: query.string({ description: 'Where audio played to the snoop channel is mixed into the target: in (with what it receives), out (toward its far end), both, or none.', default: 'none', values: ['none', 'both', 'out', 'in'] as const, invalidMessage: 'Invalid direction specified for whisper' }),
  app: query.string({ description: 'Application the snoop channel enters once created.', required: true, handlerValidates: true }),
  appArgs: query.string({ description: 'Comma-separated arguments for StasisStart.' }),
};
const snoopErrors = [
  { code: 400, reason: 'Spy and whisper both none, a bad direction, or no app.' }, { code: 404, reason: 'Provided channel was not found' },
  { code: 409, reason: 'Channel with given unique ID already exists' },
];
export const snoopChannel = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/snoop', nickname: 'snoopChannel',
  summary: 'Creates a snoop channel that listens to the target, speaks into it, or both.', notes: 'The snoop channel (Snoop/…) starts Up and enters app, whether or not the target is in an application; it ends when the target does.',
  params: { channelId, ...snoopParams, snoopId: query.string({ description: 'Id for the snoop channel; generated when not given.' }) },
  responseClass: 'Channel', response: Channel.schema, success: 200, errors: snoopErrors,
});
export const snoopChannelWithId = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/snoop/{snoopId}', nickname: 'snoopChannelWithId', since: ['12.2.0'],
  summary: 'Creates a snoop channel that listens to the target, speaks into it, or both.', notes: 'The snoop channel (Snoop/…) starts Up and enters app, whether or not the target is in an application; it ends when the target does.',
  params: { channelId, snoopId: path.string({ description: 'Id for the snoop channel.' }), ...snoopParams },
  responseClass: 'Channel', response: Channel.schema, success: 200, errors: snoopErrors,
});

export const dial = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/{channelId}/dial', nickname: 'dial', since: ['14.0.0'],
  summary: 'Dials a channel made by /channels/create; Dial events report the progress, and the channel stays in its application.',
  params: {
    channelId,
    caller: query.string({ description: 'Id of the calling channel: its inheritable (_) variables and language carry over, its caller ID becomes the connected line, and its applications also get the Dial events.' }),
    timeout: query.int({ description: 'Seconds to ring before giving up; 0 means no limit.', default: 0, min: 0 }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 404, reason: 'Channel not found' }, { code: 409, reason: 'The channel is not in an application, not Down, or was not made by /channels/create.' }],
});

export const rtpstatistics = defineOperation({
  resource: 'channels', method: 'GET', path: '/channels/{channelId}/rtp_statistics', nickname: 'rtpstatistics', since: ['18.8.0'],
  summary: 'RTP counters of the channel: simulated from the endpoint network profile for PJSIP, measured for external media over RTP.', params: { channelId },
  responseClass: 'RTPstat', response: RTPstat.schema, success: 200, errors: [{ code: 404, reason: 'No such channel, or it has no RTP stream (Local, Snoop, AudioSocket).' }],
});

export const externalMedia = defineOperation({
  resource: 'channels', method: 'POST', path: '/channels/externalMedia', nickname: 'externalMedia', since: ['16.6.0', '17.1.0'],
  summary: 'Creates a channel whose audio is exchanged with an outside host over RTP, AudioSocket or a media WebSocket.',
  notes: 'rtp and audiosocket: the channel starts Up and enters app; we connect to external_host, send the channel outbound audio every 20 ms and take what comes back as its inbound audio. RTP payload types: ulaw 0, alaw 8, slin 117, slin16 118. websocket (encapsulation none): the channel starts Down; with connection_type server the application opens ws://<our host>/media/<MEDIA_WEBSOCKET_CONNECTION_ID> (subprotocol media), with client we connect to the websocket_client connection named by external_host (MEDIA_WEBSOCKET_CLIENTS); once the socket is open it gets MEDIA_START, the channel is answered and enters app. Binary frames carry audio in format both ways, text frames carry commands and events (see the README). Not answered within 30 s: the channel ends (cause 19).',
  params: {
    channelId: query.string({ description: 'Id for the new channel; generated when not given.' }),
    app: query.string({ description: 'Application the channel enters (at once for rtp and audiosocket, once its media socket is open for websocket).', required: true, handlerValidates: true }),
    variables,
    external_host: query.string({ description: 'rtp and audiosocket: where to connect, as ip:port (or localhost:port), which the address policy for external media must allow. websocket client: the name of a configured websocket_client connection. Not needed for websocket server.', handlerValidates: true }),
    encapsulation: query.string({ description: 'How audio is framed: rtp (over udp), audiosocket (over tcp) or none (over websocket).', default: 'rtp', values: ['rtp', 'audiosocket', 'none'] as const, handlerValidates: true }),
    transport: query.string({ description: 'udp for rtp, tcp for audiosocket, websocket for none.', default: 'udp', values: ['udp', 'tcp', 'websocket'] as const, handlerValidates: true }),
    connection_type: query.string({ description: 'client: we open the connection to external_host. server (websocket only): the application connects to us.', default: 'client', values: ['client', 'server'] as const, handlerValidates: true }),
    format: query.string({ description: 'Audio format on the stream: ulaw, alaw, slin or slin16 with rtp and websocket; slin with audiosocket.', required: true, handlerValidates: true }),
    direction: query.string({ description: 'Only both: audio flows each way.', default: 'both', values: ['both'] as const, handlerValidates: true }),
    data: query.string({ description: 'For audiosocket, the UUID sent in its first frame (required there); with rtp and websocket, the arguments StasisStart carries.' }),
    transport_data: query.string({ description: 'websocket only: WebSocket dial options added to the channel, f(json) or f(plain-text) for the control message format, n to leave answering to the application (ANSWER or /answer), p for passthrough, d(in|out|both) for the direction media starts with, v(name=value,...) for query parameters added to a client connection URI.' }),
  },
  responseClass: 'Channel', response: Channel.schema, success: 200,
  errors: [{ code: 400, reason: 'A missing app or format; a missing external_host (all but websocket server), a host that is not ip:port or is refused, or an unknown websocket_client connection; an unknown format or one the encapsulation cannot carry; an encapsulation and transport that do not go together; server without websocket; audiosocket data that is not a UUID; transport_data that is not WebSocket dial options.' }, { code: 409, reason: 'Channel with given unique ID already exists' }],
});

/** Every channels operation, in the order the docs list them. */
export const channelOperations = [
  list, originate, create, get, originateWithId, hangup, continueInDialplan, move, redirect, answer, ring, ringStop,
  progress, sendDTMF, mute, unmute, hold, unhold, startMoh, stopMoh, startSilence, stopSilence, play, playWithId, record,
  getChannelVar, setChannelVar, getChannelVars, setChannelVars, snoopChannel, snoopChannelWithId, dial, rtpstatistics, externalMedia,
  transferProgress,
] as const;
