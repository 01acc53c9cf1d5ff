import { defineGiteaOperation, reply } from '../operation.js';
import { ServerVersion } from '../models/user.js';

export const getVersion = defineGiteaOperation({
  operationId: 'getVersion',
  method: 'GET',
  path: '/version',
  tags: ['miscellaneous'],
  summary: 'The Gitea API version whose wire format this server follows, with a +trunkline suffix',
  params: {},
  body: null,
  success: 200,
  response: reply.one(ServerVersion),
  scopes: [],
  guards: [],
  errors: [],
});
