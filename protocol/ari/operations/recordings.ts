import * as v from 'valibot';
import { defineOperation, path, query } from '../../operation.js';
import { LiveRecording, StoredRecording } from '../models/media.js';

const recordingName = path.string({ description: 'Name of the recording (may contain /).' });
const e404 = { code: 404, reason: 'Recording not found' };
const e409 = { code: 409, reason: 'Recording not in session' };

export const listStored = defineOperation({
  resource: 'recordings', method: 'GET', path: '/recordings/stored', nickname: 'listStored',
  summary: 'Every finished recording kept on disk, with its format.', params: {},
  responseClass: 'List[StoredRecording]', response: v.array(StoredRecording.schema), success: 200, errors: [],
});

export const getStored = defineOperation({
  resource: 'recordings', method: 'GET', path: '/recordings/stored/{recordingName}', nickname: 'getStored',
  summary: 'Name and format of one finished recording.', params: { recordingName },
  responseClass: 'StoredRecording', response: StoredRecording.schema, success: 200, errors: [e404],
});

export const deleteStored = defineOperation({
  resource: 'recordings', method: 'DELETE', path: '/recordings/stored/{recordingName}', nickname: 'deleteStored',
  summary: 'Deletes a finished recording and its file.', params: { recordingName },
  responseClass: 'void', response: null, success: 204, errors: [e404],
});

export const getStoredFile = defineOperation({
  resource: 'recordings', method: 'GET', path: '/recordings/stored/{recordingName}/file', nickname: 'getStoredFile', since: ['14.0.0'],
  summary: 'The recording file itself, with the Content-Type of its format (audio/wav, …).', params: { recordingName },
  responseClass: 'binary', response: null, success: 200,
  errors: [{ code: 403, reason: 'Recording could not be opened' }, e404],
});

export const copyStored = defineOperation({
  resource: 'recordings', method: 'POST', path: '/recordings/stored/{recordingName}/copy', nickname: 'copyStored', since: ['12.5.0'],
  summary: 'Copies a finished recording under another name.',
  params: {
    recordingName: path.string({ description: 'Name of the recording to copy.' }),
    destinationRecordingName: query.string({ description: 'Name for the copy (may contain /).', required: true }),
  },
  responseClass: 'StoredRecording', response: StoredRecording.schema, success: 200,
  errors: [
    { code: 400, reason: 'Invalid destination recording name' },
    { code: 403, reason: 'The copy would land outside the recordings directory.' },
    e404,
    { code: 409, reason: 'The name is taken by a stored or live recording, or RECORDINGS_MAX_BYTES leaves no room for the copy.' },
  ],
});

export const getLive = defineOperation({
  resource: 'recordings', method: 'GET', path: '/recordings/live/{recordingName}', nickname: 'getLive',
  summary: 'State of one recording in progress.', params: { recordingName },
  responseClass: 'LiveRecording', response: LiveRecording.schema, success: 200, errors: [e404],
});

function liveOp(method: 'POST' | 'DELETE', suffix: string, nickname: string, summary: string) {
  return defineOperation({
    resource: 'recordings', method, path: `/recordings/live/{recordingName}${suffix}`, nickname, summary,
    params: { recordingName }, responseClass: 'void', response: null, success: 204, errors: [e404, e409],
  });
}

export const cancelLive = liveOp('DELETE', '', 'cancel', 'Abandons a recording in progress: what it wrote is deleted, and RecordingFinished reports it canceled.');
export const stopLive = liveOp('POST', '/stop', 'stop', 'Ends a recording in progress and keeps the file under /recordings/stored (RecordingFinished, done).');
export const pauseLive = liveOp('POST', '/pause', 'pause', 'Suspends capture until unpause; the paused time is left out of the file.');
export const unpauseLive = liveOp('DELETE', '/pause', 'unpause', 'Resumes capture after a pause.');
export const muteLive = liveOp('POST', '/mute', 'mute', 'Writes silence in place of the captured audio until unmute.');
export const unmuteLive = liveOp('DELETE', '/mute', 'unmute', 'Goes back to writing the captured audio.');

export const recordingOperations = [
  listStored, getStored, deleteStored, getStoredFile, copyStored, getLive, cancelLive, stopLive, pauseLive, unpauseLive, muteLive, unmuteLive,
] as const;
