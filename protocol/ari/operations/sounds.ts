import * as v from 'valibot';
import { defineOperation, path, query } from '../../operation.js';
import { Sound } from '../models/media.js';

export const listSounds = defineOperation({
  resource: 'sounds', method: 'GET', path: '/sounds', nickname: 'list',
  summary: 'Sounds of the catalogue (fixtures), filtered by language and format.',
  params: {
    lang: query.string({ description: 'Keep only sounds available in this language (e.g. en, fr).' }),
    format: query.string({ description: 'Keep only sounds available in this format; every sound here is wav.' }),
  },
  responseClass: 'List[Sound]', response: v.array(Sound.schema), success: 200,
  errors: [{ code: 404, reason: 'No sounds found that matched the query' }],
});

export const getSound = defineOperation({
  resource: 'sounds', method: 'GET', path: '/sounds/{soundId}', nickname: 'get',
  summary: 'One sound of the catalogue, with its text and the languages it exists in.',
  params: { soundId: path.string({ description: 'Id of the sound, as in sound:<id> (e.g. hello-world).' }) },
  responseClass: 'Sound', response: Sound.schema, success: 200,
  errors: [{ code: 404, reason: 'Sound not found' }],
});

export const soundOperations = [listSounds, getSound] as const;
