import * as v from 'valibot';
import { defineOperation, path, query } from '../../operation.js';
import { LiveRecording, StoredRecording } from '../models/media.js';

const recordingName = path.string({ description: 'The name of the recording' });
const e404 = { code: 404, reason: 'Recording not found' };
const e409 = { code: 409, reason: 'Recording not in session' };

export const listStored = defineOperation({
  resource: 'recordings', method: 'GET', path: '/recordings/stored', nickname: 'listStored',
  summary: 'List recordings that are complete.', params: {},
  responseClass: 'List[StoredRecording]', response: v.array(StoredRecording.schema), success: 200, errors: [],
});

export const getStored = defineOperation({
  resource: 'recordings', method: 'GET', path: '/recordings/stored/{recordingName}', nickname: 'getStored',
  summary: 'Get a stored recording\'s details.', params: { recordingName },
  responseClass: 'StoredRecording', response: StoredRecording.schema, success: 200, errors: [e404],
});

export const deleteStored = defineOperation({
  resource: 'recordings', method: 'DELETE', path: '/recordings/stored/{recordingName}', nickname: 'deleteStored',
  summary: 'Delete a stored recording.', params: { recordingName },
  responseClass: 'void', response: null, success: 204, errors: [e404],
});

export const getStoredFile = defineOperation({
  resource: 'recordings', method: 'GET', path: '/recordings/stored/{recordingName}/file', nickname: 'getStoredFile', since: ['14.0.0'],
  summary: 'Get the file associated with the stored recording.', params: { recordingName },
  responseClass: 'binary', response: null, success: 200,
  errors: [{ code: 403, reason: 'The recording file could not be opened' }, e404],
});

export const copyStored = defineOperation({
  resource: 'recordings', method: 'POST', path: '/recordings/stored/{recordingName}/copy', nickname: 'copyStored', since: ['12.5.0'],
  summary: 'Copy a stored recording.',
  params: {
    recordingName: path.string({ description: 'The name of the recording to copy' }),
    destinationRecordingName: query.string({ description: 'The destination name of the recording', required: true }),
  },
  responseClass: 'StoredRecording', response: StoredRecording.schema, success: 200,
  errors: [
    { code: 400, reason: 'Invalid destination recording name' },
    { code: 403, reason: 'Destination file path is forbidden' },
    e404,
    { code: 409, reason: 'A recording with the same name already exists on the system; the recordings quota (RECORDINGS_MAX_BYTES) has no room for the copy' },
  ],
});

export const getLive = defineOperation({
  resource: 'recordings', method: 'GET', path: '/recordings/live/{recordingName}', nickname: 'getLive',
  summary: 'List live recordings.', params: { recordingName },
  responseClass: 'LiveRecording', response: LiveRecording.schema, success: 200, errors: [e404],
});

function liveOp(method: 'POST' | 'DELETE', suffix: string, nickname: string, summary: string) {
  return defineOperation({
    resource: 'recordings', method, path: `/recordings/live/{recordingName}${suffix}`, nickname, summary,
    params: { recordingName }, responseClass: 'void', response: null, success: 204, errors: [e404, e409],
  });
}

export const cancelLive = liveOp('DELETE', '', 'cancel', 'Stop a live recording and discard it.');
export const stopLive = liveOp('POST', '/stop', 'stop', 'Stop a live recording and store it.');
export const pauseLive = liveOp('POST', '/pause', 'pause', 'Pause a live recording.');
export const unpauseLive = liveOp('DELETE', '/pause', 'unpause', 'Unpause a live recording.');
export const muteLive = liveOp('POST', '/mute', 'mute', 'Mute a live recording.');
export const unmuteLive = liveOp('DELETE', '/mute', 'unmute', 'Unmute a live recording.');

export const recordingOperations = [
  listStored, getStored, deleteStored, getStoredFile, copyStored, getLive, cancelLive, stopLive, pauseLive, unpauseLive, muteLive, unmuteLive,
] as const;
