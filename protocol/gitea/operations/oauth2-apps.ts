import { defineGiteaOperation, gp, reply } from '../operation.js';
import { CreateOAuth2ApplicationOptions, OAuth2Application } from '../models/oauth2.js';

const id = { id: gp.path('Numeric id of the application.') };
const denied = { code: 403, reason: 'token lacks the user scope (read for reads, write for changes)' } as const;
const missing = { code: 404, reason: 'no such application among the caller\'s own' } as const;
const badBody = { code: 422, reason: 'invalid options (a name and at least one redirect URI are required)' } as const;
const badUri = { code: 400, reason: 'a redirect URI that is not an absolute http(s) URL without a fragment' } as const;

/** Gitea's own operation id for the list (its spelling, singular, kept for clients generated from its document). */
export const userGetOauth2Application = defineGiteaOperation({
  operationId: 'userGetOauth2Application',
  method: 'GET',
  path: '/user/applications/oauth2',
  tags: ['user'],
  summary: 'The signed-in user\'s OAuth2 applications, newest first, without their secrets',
  params: { page: gp.int('Which page to answer, counting from 1 (0 or less: the first).'), limit: gp.int('Entries per page: 30 when unset or 0 or less, at most 50.') },
  body: null,
  success: 200,
  response: reply.list(OAuth2Application),
  scopes: ['user'],
  guards: ['signedIn'],
  errors: [denied],
});

export const userCreateOAuth2Application = defineGiteaOperation({
  operationId: 'userCreateOAuth2Application',
  method: 'POST',
  path: '/user/applications/oauth2',
  tags: ['user'],
  summary: 'Register an OAuth2 application; its secret is in `client_secret` of this answer and never shown again',
  params: {},
  body: CreateOAuth2ApplicationOptions,
  bodyRequired: true,
  success: 201,
  response: reply.one(OAuth2Application),
  scopes: ['user'],
  guards: ['signedIn'],
  errors: [badUri, denied, badBody],
});

export const userGetOAuth2Application = defineGiteaOperation({
  operationId: 'userGetOAuth2Application',
  method: 'GET',
  path: '/user/applications/oauth2/{id}',
  tags: ['user'],
  summary: 'One of the signed-in user\'s OAuth2 applications, without its secret',
  params: id,
  body: null,
  success: 200,
  response: reply.one(OAuth2Application),
  scopes: ['user'],
  guards: ['signedIn'],
  errors: [denied, missing],
});

export const userUpdateOAuth2Application = defineGiteaOperation({
  operationId: 'userUpdateOAuth2Application',
  method: 'PATCH',
  path: '/user/applications/oauth2/{id}',
  tags: ['user'],
  summary: 'Replace an OAuth2 application\'s settings; as in Gitea, this also issues a new client secret (in this answer only), and the old one stops working',
  params: id,
  body: CreateOAuth2ApplicationOptions,
  bodyRequired: true,
  success: 200,
  response: reply.one(OAuth2Application),
  scopes: ['user'],
  guards: ['signedIn'],
  errors: [badUri, denied, missing, badBody],
});

export const userDeleteOAuth2Application = defineGiteaOperation({
  operationId: 'userDeleteOAuth2Application',
  method: 'DELETE',
  path: '/user/applications/oauth2/{id}',
  tags: ['user'],
  summary: 'Delete an OAuth2 application, with every grant, code and token issued to it',
  params: id,
  body: null,
  success: 204,
  response: null,
  scopes: ['user'],
  guards: ['signedIn'],
  errors: [denied, missing],
});
