import { defineGiteaOperation } from '../operation.js';
import { ServerVersion } from '../models/user.js';

export const getVersion = defineGiteaOperation({
  operationId: 'getVersion',
  method: 'GET',
  path: '/version',
  tags: ['miscellaneous'],
  summary: 'Returns the version of the Gitea application',
  params: {},
  body: null,
  success: 200,
  response: ServerVersion.schema,
  responseSchema: ServerVersion.ref,
  scopes: [],
  guards: [],
  errors: [],
});
