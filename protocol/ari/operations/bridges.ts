import * as v from 'valibot';
import { defineOperation, path, query } from '../../operation.js';
import { Bridge } from '../models/bridge.js';
import { LiveRecording, Playback } from '../models/media.js';

const bridgeId = path.string({ description: 'Bridge\'s id' });
const e404 = { code: 404, reason: 'Bridge not found' };
const e409 = { code: 409, reason: 'Bridge not in a Stasis application' };
const createParams = {
  type: query.string({ description: 'Comma separated list of bridge type attributes (mixing, holding, dtmf_events, proxy_media, video_sfu, video_single, sdp_label).' }),
  name: query.string({ description: 'Name to give to the bridge being created.' }),
};

export const listBridges = defineOperation({
  resource: 'bridges', method: 'GET', path: '/bridges', nickname: 'list',
  summary: 'List all active bridges in Asterisk.', params: {},
  responseClass: 'List[Bridge]', response: v.array(Bridge.schema), success: 200, errors: [],
});

export const createBridge = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges', nickname: 'create',
  summary: 'Create a new bridge.',
  notes: 'This bridge persists until it has been shut down, or Asterisk has been shut down.',
  params: { ...createParams, bridgeId: query.string({ description: 'Unique ID to give to the bridge being created.' }) },
  responseClass: 'Bridge', response: Bridge.schema, success: 200,
  errors: [{ code: 409, reason: 'Bridge with the same bridgeId already exists' }],
});

export const createBridgeWithId = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}', nickname: 'createWithId', since: ['12.2.0'],
  summary: 'Create a new bridge with a given id.',
  notes: 'This bridge persists until it has been shut down, or Asterisk has been shut down.',
  params: { bridgeId: path.string({ description: 'Unique ID to give to the bridge being created.' }), ...createParams },
  responseClass: 'Bridge', response: Bridge.schema, success: 200,
  errors: [{ code: 409, reason: 'Bridge with the same bridgeId already exists' }],
});

export const getBridge = defineOperation({
  resource: 'bridges', method: 'GET', path: '/bridges/{bridgeId}', nickname: 'get',
  summary: 'Get bridge details.', params: { bridgeId },
  responseClass: 'Bridge', response: Bridge.schema, success: 200, errors: [e404],
});

export const destroyBridge = defineOperation({
  resource: 'bridges', method: 'DELETE', path: '/bridges/{bridgeId}', nickname: 'destroy',
  summary: 'Shut down a bridge.', notes: 'If any channels are in this bridge, they will be removed and resume whatever they were doing beforehand.',
  params: { bridgeId },
  responseClass: 'void', response: null, success: 204, errors: [e404, e409],
});

const channelList = query.string({ description: 'Ids of channels to add to bridge', required: true, allowMultiple: true, handlerValidates: true });

export const addChannel = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/addChannel', nickname: 'addChannel',
  summary: 'Add a channel to a bridge.',
  params: {
    bridgeId,
    channel: channelList,
    role: query.string({ description: 'Channel\'s role in the bridge' }),
    absorbDTMF: query.boolean({ description: 'Absorb DTMF coming from this channel, preventing it to pass through to the bridge', default: false }),
    mute: query.boolean({ description: 'Mute audio from this channel, preventing it to pass through to the bridge', default: false }),
    inhibitConnectedLineUpdates: query.boolean({ description: 'Do not present the identity of the newly connected channel to other bridge members', default: false }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [
    { code: 400, reason: 'Channel not found' }, e404,
    { code: 409, reason: 'Bridge not in Stasis application; Channel currently recording' },
    { code: 422, reason: 'Channel not in Stasis application' },
  ],
});

export const removeChannel = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/removeChannel', nickname: 'removeChannel',
  summary: 'Remove a channel from a bridge.',
  params: { bridgeId, channel: query.string({ description: 'Ids of channels to remove from bridge', required: true, allowMultiple: true, handlerValidates: true }) },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'Channel not found' }, e404, e409, { code: 422, reason: 'Channel not in this bridge' }],
});

export const startBridgeMoh = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/moh', nickname: 'startMoh',
  summary: 'Play music on hold to a bridge or change the MOH class that is playing.',
  params: { bridgeId, mohClass: query.string({ description: 'Channel\'s id' }) },
  responseClass: 'void', response: null, success: 204, errors: [e404, e409],
});

export const stopBridgeMoh = defineOperation({
  resource: 'bridges', method: 'DELETE', path: '/bridges/{bridgeId}/moh', nickname: 'stopMoh',
  summary: 'Stop playing music on hold to a bridge.', params: { bridgeId },
  responseClass: 'void', response: null, success: 204,
  errors: [e404, { code: 409, reason: 'Bridge isn\'t playing music on hold; Bridge not in Stasis application' }],
});

const playParams = {
  media: query.string({ description: 'Media URIs to play.', required: true, allowMultiple: true }),
  lang: query.string({ description: 'For sounds, selects language for sound.' }),
  offsetms: query.int({ description: 'Number of milliseconds to skip before playing. Only applies to the first URI if multiple media URIs are specified.', default: 0, min: 0, invalidMessage: 'offsetms cannot be negative' }),
  skipms: query.int({ description: 'Number of milliseconds to skip for forward/reverse operations.', default: 3000, min: 0, invalidMessage: 'skipms cannot be negative' }),
};

export const playOnBridge = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/play', nickname: 'play',
  summary: 'Start playback of media on a bridge.',
  notes: 'The media URI may be any of a number of URI\'s. Currently sound:, recording:, number:, digits:, characters:, and tone: URI\'s are supported. This operation creates a playback resource that can be used to control the playback of media (pause, rewind, fast forward, etc.)',
  params: { bridgeId, ...playParams, playbackId: query.string({ description: 'Playback Id.' }) },
  responseClass: 'Playback', response: Playback.schema, success: 201, errors: [e404, e409],
});

export const playOnBridgeWithId = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/play/{playbackId}', nickname: 'playWithId', since: ['12.3.0'],
  summary: 'Start playback of media on a bridge.',
  params: { bridgeId, playbackId: path.string({ description: 'Playback ID.' }), ...playParams },
  responseClass: 'Playback', response: Playback.schema, success: 201, errors: [e404, e409],
});

export const recordBridge = defineOperation({
  resource: 'bridges', method: 'POST', path: '/bridges/{bridgeId}/record', nickname: 'record',
  summary: 'Start a recording.', notes: 'This records the mixed audio from all channels participating in this bridge.',
  params: {
    bridgeId,
    name: query.string({ description: 'Recording\'s filename', required: true }),
    format: query.string({ description: 'Format to encode audio in', required: true }),
    maxDurationSeconds: query.int({ description: 'Maximum duration of the recording, in seconds. 0 for no limit.', default: 0, min: 0, invalidMessage: 'max_duration_seconds cannot be negative' }),
    maxSilenceSeconds: query.int({ description: 'Maximum duration of silence, in seconds. 0 for no limit.', default: 0, min: 0, invalidMessage: 'max_silence_seconds cannot be negative' }),
    ifExists: query.string({ description: 'Action to take if a recording with the same name already exists.', default: 'fail', values: ['fail', 'overwrite', 'append'] as const, handlerValidates: true }),
    beep: query.boolean({ description: 'Play beep when recording begins', default: false }),
    terminateOn: query.string({ description: 'DTMF input to terminate recording.', default: 'none', values: ['none', 'any', '*', '#'] as const, handlerValidates: true }),
  },
  responseClass: 'LiveRecording', response: LiveRecording.schema, success: 201,
  errors: [
    { code: 400, reason: 'Invalid parameters' }, e404,
    { code: 409, reason: 'Bridge is not in a Stasis application; A recording with the same name already exists on the system and can not be overwritten because it is in progress or ifExists=fail; the recordings quota (RECORDINGS_MAX_BYTES) has no room for another recording' },
    { code: 422, reason: 'The format specified is unknown on this system' },
  ],
});

export const bridgeOperations = [
  listBridges, createBridge, createBridgeWithId, getBridge, destroyBridge, addChannel, removeChannel,
  startBridgeMoh, stopBridgeMoh, playOnBridge, playOnBridgeWithId, recordBridge,
] as const;
