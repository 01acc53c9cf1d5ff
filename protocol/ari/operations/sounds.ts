import * as v from 'valibot';
import { defineOperation, path, query } from '../../operation.js';
import { Sound } from '../models/media.js';

export const listSounds = defineOperation({
  resource: 'sounds', method: 'GET', path: '/sounds', nickname: 'list',
  summary: 'List all sounds.',
  params: {
    lang: query.string({ description: 'Lookup sound for a specific language.' }),
    format: query.string({ description: 'Lookup sound in a specific format.' }),
  },
  responseClass: 'List[Sound]', response: v.array(Sound.schema), success: 200,
  errors: [{ code: 404, reason: 'No sounds found that matched the query' }],
});

export const getSound = defineOperation({
  resource: 'sounds', method: 'GET', path: '/sounds/{soundId}', nickname: 'get',
  summary: 'Get a sound\'s details.',
  params: { soundId: path.string({ description: 'Sound\'s id' }) },
  responseClass: 'Sound', response: Sound.schema, success: 200,
  errors: [{ code: 404, reason: 'Sound not found' }],
});

export const soundOperations = [listSounds, getSound] as const;
