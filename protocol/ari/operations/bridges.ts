import * as v from 'valibot';
import { defineOperation, path, query } from '../../operation.js';
import { Bridge } from '../models/bridge.js';
import { LiveRecording, Playback } from '../models/media.js';

const bridgeId = path.string({ description: 'Id of the bridge.' });
const e404 = { code: 404, reason: 'Bridge not found' };
const e409 = { code: 409, reason: 'Never answered here: every bridge belongs to the applications (Asterisk uses 409 for bridges outside them).' };
// Asterisk answers 500 for a type list it cannot build a bridge from; bad input is a 400 here.
const typeError = { code: 400, reason: 'The type list names neither mixing nor holding, or both; or a mistyped parameter.' };
const createParams = {
  type: query.string({ description: 'Comma-separated attributes: mixing (the default; members hear each other) or holding (members hear only what the bridge plays, and announcers are heard by everyone), plus any of dtmf_events and proxy_media (accepted: media never bypasses us, so DTMF always reaches the applications), video_sfu (video_mode sfu, always softmix), video_single (video_mode single) and sdp_label (accepted, no effect). Other words are ignored; a list with neither mixing nor holding, or with both, is refused.' }),
  name: query.string({ description: 'Free-form name, shown in the name field.' }),
};

export const listBridges = defineOperation({
  resource: 'bridges', method: 'GET', path: '/bridges', nickname: 'list',
  summary: 'Snapshots of every bridge.', params: {},
  responseClass: 'List[Bridge]', response: v.array(Bridge.schema), success: 200, errors: [],
});

export const createBridge = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges', nickname: 'create',
  summary: 'Creates a bridge; BridgeCreated follows.',
  notes: 'A bridge lasts until it is destroyed, across server restarts as well.',
  params: { ...createParams, bridgeId: query.string({ description: 'Id for the new bridge; generated when not given.' }) },
  responseClass: 'Bridge', response: Bridge.schema, success: 200,
  errors: [typeError, { code: 409, reason: 'A bridge with that id exists already.' }],
});

export const createBridgeWithId = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}', nickname: 'createWithId', since: ['12.2.0'],
  summary: 'Creates a bridge under the id given in the path; BridgeCreated follows.',
  notes: 'A bridge lasts until it is destroyed, across server restarts as well.',
  params: { bridgeId: path.string({ description: 'Id for the new bridge.' }), ...createParams },
  responseClass: 'Bridge', response: Bridge.schema, success: 200,
  errors: [typeError, { code: 409, reason: 'A bridge with that id exists already.' }],
});

export const getBridge = defineOperation({
  resource: 'bridges', method: 'GET', path: '/bridges/{bridgeId}', nickname: 'get',
  summary: 'Snapshot of one bridge.', params: { bridgeId },
  responseClass: 'Bridge', response: Bridge.schema, success: 200, errors: [e404],
});

export const destroyBridge = defineOperation({
  resource: 'bridges', method: 'DELETE', path: '/bridges/{bridgeId}', nickname: 'destroy',
  summary: 'Destroys a bridge: its members leave it (ChannelLeftBridge), its playbacks and recordings end, then BridgeDestroyed.', notes: 'The former members stay in their applications.',
  params: { bridgeId },
  responseClass: 'void', response: null, success: 204, errors: [e404, e409],
});

const channelList = query.string({ description: 'Channels to add, by id or name (comma-separated or repeated).', required: true, allowMultiple: true, handlerValidates: true });

export const addChannel = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/addChannel', nickname: 'addChannel',
  summary: 'Adds channels to the bridge, ChannelEnteredBridge for each; a channel in another bridge leaves that one first.',
  params: {
    bridgeId,
    channel: channelList,
    role: query.string({ description: 'Free-form role kept for the member (holding_participant by default in a holding bridge).' }),
    absorbDTMF: query.boolean({ description: 'Kept with the member; DTMF does not travel through bridges here, so it changes nothing.', default: false }),
    mute: query.boolean({ description: 'The other members (and bridge recordings) do not hear this channel.', default: false }),
    inhibitConnectedLineUpdates: query.boolean({ description: 'Accepted and ignored: joining a bridge sends no connected line updates here.', default: false }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [
    { code: 400, reason: 'No channel given, or one of them does not exist.' }, e404,
    { code: 409, reason: 'A channel is recording (the channels listed before it are added).' },
    { code: 422, reason: 'Channel not in Stasis application' },
  ],
});

export const removeChannel = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/removeChannel', nickname: 'removeChannel',
  summary: 'Takes channels out of the bridge, ChannelLeftBridge for each; they stay in their applications.',
  params: { bridgeId, channel: query.string({ description: 'Channels to take out, by id or name (comma-separated or repeated).', required: true, allowMultiple: true, handlerValidates: true }) },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'No channel given, or one of them does not exist.' }, e404, e409, { code: 422, reason: 'A channel is not in this bridge, or not in an application.' }],
});

export const startBridgeMoh = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/moh', nickname: 'startMoh',
  summary: 'Plays a music on hold class to every member of the bridge, or switches to another class.',
  params: { bridgeId, mohClass: query.string({ description: 'Class from the music on hold fixtures; a missing or unknown one plays default.' }) },
  responseClass: 'void', response: null, success: 204, errors: [e404, e409],
});

export const stopBridgeMoh = defineOperation({
  resource: 'bridges', method: 'DELETE', path: '/bridges/{bridgeId}/moh', nickname: 'stopMoh',
  summary: 'Stops the music on hold of the bridge.', params: { bridgeId },
  responseClass: 'void', response: null, success: 204,
  errors: [e404, { code: 409, reason: 'The bridge is not playing music on hold.' }],
});

const playParams = {
  media: query.string({ description: 'What to play, one URI or several in turn: sound:, recording:, number:, digits:, characters: or tone:.', required: true, allowMultiple: true }),
  lang: query.string({ description: 'Language for sound: URIs (default: en).' }),
  offsetms: query.int({ description: 'Milliseconds to skip at the start of the first URI.', default: 0, min: 0, invalidMessage: 'offsetms cannot be negative' }),
  skipms: query.int({ description: 'How far forward and reverse jump, in milliseconds (0 means the default).', default: 3000, min: 0, invalidMessage: 'skipms cannot be negative' }),
  announcer_format: query.string({ description: 'Audio format of the channel that plays into the bridge (a format the formats fixture declares, e.g. slin16); by default the one of the members with the highest sample rate.' }),
};
const playErrors = [
  e404,
  { code: 409, reason: 'A playback with that id exists already.' },
  { code: 422, reason: 'The formats fixture does not declare announcer_format.' },
];

export const playOnBridge = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/play', nickname: 'play',
  summary: 'Queues media for every member of the bridge and answers with the playback, state queued.',
  notes: 'Playbacks on one bridge run one after another, over its music on hold, which resumes afterwards. PlaybackStarted comes for each URI, PlaybackContinuing between two URIs, PlaybackFinished at the end. Pause, resume, rewind or skip it under /playbacks/{playbackId}.',
  params: { bridgeId, ...playParams, playbackId: query.string({ description: 'Id for the playback; generated when not given.' }) },
  responseClass: 'Playback', response: Playback.schema, success: 201, errors: playErrors,
});

export const playOnBridgeWithId = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/play/{playbackId}', nickname: 'playWithId', since: ['12.3.0'],
  summary: 'Queues media for the bridge under the playback id given in the path.',
  params: { bridgeId, playbackId: path.string({ description: 'Id for the playback.' }), ...playParams },
  responseClass: 'Playback', response: Playback.schema, success: 201, errors: playErrors,
});

export const recordBridge = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/record', nickname: 'record',
  summary: 'Records the bridge mix into a file: every unmuted member plus what the bridge plays.', notes: 'RecordingStarted marks the start; once finished, the file is listed under /recordings/stored. Destroying the bridge ends the recording.',
  params: {
    bridgeId,
    name: query.string({ description: 'Name to store the recording under (may contain /).', required: true }),
    format: query.string({ description: 'Audio format of the file, one the formats fixture declares (e.g. wav, ulaw).', required: true }),
    maxDurationSeconds: query.int({ description: 'Ends the recording after this many seconds; 0 means no limit.', default: 0, min: 0, invalidMessage: 'max_duration_seconds cannot be negative' }),
    maxSilenceSeconds: query.int({ description: 'Ends the recording after this many seconds of silence; 0 means no limit.', default: 0, min: 0, invalidMessage: 'max_silence_seconds cannot be negative' }),
    ifExists: query.string({ description: 'What to do when a stored recording has that name: fail (409), overwrite it, or append to it.', default: 'fail', values: ['fail', 'overwrite', 'append'] as const, handlerValidates: true }),
    beep: query.boolean({ description: 'Play a beep into the bridge before capture starts: every member hears it; the recording does not hold it.', default: false }),
    terminateOn: query.string({ description: 'Checked like a channel recording, but DTMF never ends a bridge recording.', default: 'none', values: ['none', 'any', '*', '#'] as const, handlerValidates: true }),
    recorder_format: query.string({ description: 'Audio format of the channel that captures the bridge mix (a format the formats fixture declares); by default the file\'s format.' }),
  },
  responseClass: 'LiveRecording', response: LiveRecording.schema, success: 201,
  errors: [
    { code: 400, reason: 'A missing or bad name, no format, a bad ifExists or terminateOn, or a negative duration.' }, e404,
    { code: 409, reason: 'The name belongs to a recording in progress, or to a stored one with ifExists=fail; RECORDINGS_MAX_BYTES leaves no room for another recording.' },
    { code: 422, reason: 'The formats fixture does not declare that format, or recorder_format.' },
  ],
});

const channelInBridge = path.string({ description: 'Id or name of the member to show.' });

export const setVideoSource = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/videoSource/{channelId}', nickname: 'setVideoSource', since: ['13.13.0', '14.2.0'],
  summary: 'Makes a member the video source of the bridge: video_mode becomes single and video_source_id names it; BridgeVideoSourceChanged follows when the source changed.',
  notes: 'No video flows here; the choice is kept and reported as Asterisk does, and is cleared when that member leaves.',
  params: { bridgeId, channelId: channelInBridge },
  responseClass: 'void', response: null, success: 204,
  errors: [
    { code: 400, reason: 'Channel not found' }, e404, e409,
    { code: 422, reason: 'The channel is not in an application, or not in this bridge.' },
  ],
});

export const clearVideoSource = defineOperation({
  resource: 'bridges', method: 'DELETE', path: '/bridges/{bridgeId}/videoSource', nickname: 'clearVideoSource', since: ['13.13.0', '14.2.0'],
  summary: 'Drops the chosen video source: video_mode goes back to talker; BridgeVideoSourceChanged follows when there was a source.',
  params: { bridgeId },
  responseClass: 'void', response: null, success: 204, errors: [e404, e409],
});

export const bridgeOperations = [
  listBridges, createBridge, createBridgeWithId, getBridge, destroyBridge, addChannel, removeChannel, setVideoSource, clearVideoSource,
  startBridgeMoh, stopBridgeMoh, playOnBridge, playOnBridgeWithId, recordBridge,
] as const;
