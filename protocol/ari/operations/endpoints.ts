import * as v from 'valibot';
import { defineOperation, path } from '../../operation.js';
import { Endpoint } from '../models/endpoint.js';

export const listEndpoints = defineOperation({
  resource: 'endpoints', method: 'GET', path: '/endpoints', nickname: 'list',
  summary: 'List all endpoints.', params: {},
  responseClass: 'List[Endpoint]', response: v.array(Endpoint.schema), success: 200, errors: [],
});

export const listByTech = defineOperation({
  resource: 'endpoints', method: 'GET', path: '/endpoints/{tech}', nickname: 'listByTech',
  summary: 'List available endoints for a given endpoint technology.',
  params: { tech: path.string({ description: 'Technology of the endpoints (pjsip,iax2,...)' }) },
  responseClass: 'List[Endpoint]', response: v.array(Endpoint.schema), success: 200,
  errors: [{ code: 404, reason: 'Endpoints not found' }],
});

export const getEndpoint = defineOperation({
  resource: 'endpoints', method: 'GET', path: '/endpoints/{tech}/{resource}', nickname: 'get',
  summary: 'Details for an endpoint.',
  params: {
    tech: path.string({ description: 'Technology of the endpoint' }),
    resource: path.string({ description: 'ID of the endpoint' }),
  },
  responseClass: 'Endpoint', response: Endpoint.schema, success: 200,
  errors: [{ code: 400, reason: 'Invalid parameters for sending a message.' }, { code: 404, reason: 'Endpoints not found' }],
});

export const endpointOperations = [listEndpoints, listByTech, getEndpoint] as const;
