import { defineOperation, path, query } from '../../operation.js';
import { Playback } from '../models/media.js';

const playbackId = path.string({ description: 'Playback\'s id' });
const e404 = { code: 404, reason: 'The playback cannot be found' };

export const getPlayback = defineOperation({
  resource: 'playbacks', method: 'GET', path: '/playbacks/{playbackId}', nickname: 'get',
  summary: 'Get a playback\'s details.', params: { playbackId },
  responseClass: 'Playback', response: Playback.schema, success: 200, errors: [e404],
});

export const stopPlayback = defineOperation({
  resource: 'playbacks', method: 'DELETE', path: '/playbacks/{playbackId}', nickname: 'stop',
  summary: 'Stop a playback.', params: { playbackId },
  responseClass: 'void', response: null, success: 204, errors: [e404],
});

export const controlPlayback = defineOperation({
  resource: 'playbacks', method: 'POST', path: '/playbacks/{playbackId}/control', nickname: 'control',
  summary: 'Control a playback.',
  params: {
    playbackId,
    operation: query.string({ description: 'Operation to perform on the playback.', required: true, values: ['restart', 'pause', 'unpause', 'reverse', 'forward'] as const, handlerValidates: true }),
  },
  responseClass: 'void', response: null, success: 204,
  errors: [{ code: 400, reason: 'The provided operation parameter was invalid' }, e404, { code: 409, reason: 'The operation cannot be performed in the playback\'s current state' }],
});

export const playbackOperations = [getPlayback, stopPlayback, controlPlayback] as const;
