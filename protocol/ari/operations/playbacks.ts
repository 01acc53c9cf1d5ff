import { defineOperation, path, query } from '../../operation.js';
import { Playback } from '../models/media.js';

const playbackId = path.string({ description: 'Id of the playback.' });
const e404 = { code: 404, reason: 'Playback not found' };

export const getPlayback = defineOperation({
  resource: 'playbacks', method: 'GET', path: '/playbacks/{playbackId}', nickname: 'get',
  summary: 'Snapshot of a playback that is queued or under way.', params: { playbackId },
  responseClass: 'Playback', response: Playback.schema, success: 200, errors: [e404],
});

export const stopPlayback = defineOperation({
  resource: 'playbacks', method: 'DELETE', path: '/playbacks/{playbackId}', nickname: 'stop',
  summary: 'Stops a playback: a running one ends at once (PlaybackFinished, done); a queued one is marked done and never sounds.', params: { playbackId },
  responseClass: 'void', response: null, success: 204, errors: [e404],
});

export const controlPlayback = defineOperation({
  resource: 'playbacks', method: 'POST', path: '/playbacks/{playbackId}/control', nickname: 'control',
  summary: 'Pauses, resumes, restarts, rewinds or skips ahead in a playback; only unpause raises an event (PlaybackStarted).',
  params: {
    playbackId,
    operation: query.string({ description: 'restart, pause, unpause, reverse (back by skipms) or forward (ahead by skipms).', required: true, values: ['restart', 'pause', 'unpause', 'reverse', 'forward'] as const, handlerValidates: true }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'No operation, or one not in the list.' }, e404, { code: 409, reason: 'The playback state does not allow that operation (a queued or finished playback, for instance).' }],
});

export const playbackOperations = [getPlayback, stopPlayback, controlPlayback] as const;
