import * as v from 'valibot';
import { defineOperation, path } from '../../operation.js';
import { Endpoint } from '../models/endpoint.js';

export const listEndpoints = defineOperation({
  resource: 'endpoints', method: 'GET', path: '/endpoints', nickname: 'list',
  summary: 'Every endpoint of the fixtures, with its state and live channels.', params: {},
  responseClass: 'List[Endpoint]', response: v.array(Endpoint.schema), success: 200, errors: [],
});

export const listByTech = defineOperation({
  resource: 'endpoints', method: 'GET', path: '/endpoints/{tech}', nickname: 'listByTech',
  summary: 'The endpoints of one technology.',
  params: { tech: path.string({ description: 'Channel technology, matched without regard to case (e.g. PJSIP).' }) },
  responseClass: 'List[Endpoint]', response: v.array(Endpoint.schema), success: 200,
  errors: [{ code: 404, reason: 'No endpoint has that technology.' }],
});

export const getEndpoint = defineOperation({
  resource: 'endpoints', method: 'GET', path: '/endpoints/{tech}/{resource}', nickname: 'get',
  summary: 'One endpoint, with its state and live channels.',
  params: {
    tech: path.string({ description: 'Channel technology (e.g. PJSIP).' }),
    resource: path.string({ description: 'Endpoint name within that technology (e.g. alice).' }),
  },
  responseClass: 'Endpoint', response: Endpoint.schema, success: 200,
  errors: [{ code: 400, reason: 'Declared as Asterisk does; a lookup here answers 200 or 404.' }, { code: 404, reason: 'Endpoint not found' }],
});

export const endpointOperations = [listEndpoints, listByTech, getEndpoint] as const;
