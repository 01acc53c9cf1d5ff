import * as v from 'valibot';
import { defineGiteaOperation, gp } from '../operation.js';
import { AccessToken, CreateAccessTokenOption, CreateUserOption, User } from '../models/user.js';

const page = { page: gp.int('page number of results to return (1-based)'), limit: gp.int('page size of results') };

export const userGetCurrent = defineGiteaOperation({
  operationId: 'userGetCurrent',
  method: 'GET',
  path: '/user',
  tags: ['user'],
  summary: 'Get the authenticated user',
  params: {},
  body: null,
  success: 200,
  response: User.schema,
  responseSchema: User.ref,
  scopes: ['user'],
  guards: ['signedIn'],
  errors: [{ code: 403, reason: 'token lacks the read:user scope' }],
});

export const userGet = defineGiteaOperation({
  operationId: 'userGet',
  method: 'GET',
  path: '/users/{username}',
  tags: ['user'],
  summary: 'Get a user',
  params: { username: gp.path('username of the user to get') },
  body: null,
  success: 200,
  response: User.schema,
  responseSchema: User.ref,
  scopes: ['user'],
  guards: ['contextUser'],
  errors: [
    { code: 403, reason: 'token lacks the read:user scope, or a public-only token asks for a user who is not public' },
    { code: 404, reason: 'no such user, or one the caller may not see (limited: anonymous callers; private: everyone but the user and site admins)' },
  ],
});

export const adminCreateUser = defineGiteaOperation({
  operationId: 'adminCreateUser',
  method: 'POST',
  path: '/admin/users',
  tags: ['admin'],
  summary: 'Create a user',
  params: {},
  body: CreateUserOption.schema,
  bodyModel: CreateUserOption,
  bodyRequired: true,
  success: 201,
  response: User.schema,
  responseSchema: User.ref,
  scopes: ['admin'],
  guards: ['signedIn', 'siteAdmin'],
  errors: [
    { code: 400, reason: 'password too short' },
    { code: 403, reason: 'the caller is not a site admin, or the token lacks write:admin' },
    { code: 422, reason: 'invalid options, or the user or email exists' },
  ],
});

const tokenErrors = [
  { code: 403, reason: 'the caller is neither that user nor a site admin, or the token lacks the user scope' },
  { code: 404, reason: 'no such user or token' },
] as const;

export const userGetTokens = defineGiteaOperation({
  operationId: 'userGetTokens',
  method: 'GET',
  path: '/users/{username}/tokens',
  tags: ['user'],
  summary: 'List the authenticated user\'s access tokens (Basic authentication with the account password only)',
  params: { username: gp.path('username of to user whose access tokens are to be listed'), ...page },
  body: null,
  success: 200,
  response: v.array(AccessToken.schema),
  responseSchema: { type: 'array', items: AccessToken.ref },
  scopes: ['user'],
  guards: ['contextUser', 'selfOrAdmin', 'basicAuth'],
  errors: [...tokenErrors],
});

export const userCreateToken = defineGiteaOperation({
  operationId: 'userCreateToken',
  method: 'POST',
  path: '/users/{username}/tokens',
  tags: ['user'],
  summary: 'Create an access token (Basic authentication with the account password only); the token is shown once, in `sha1`',
  params: { username: gp.path('username of the user whose token is to be created') },
  body: CreateAccessTokenOption.schema,
  bodyModel: CreateAccessTokenOption,
  success: 201,
  response: AccessToken.schema,
  responseSchema: AccessToken.ref,
  scopes: ['user'],
  guards: ['contextUser', 'selfOrAdmin', 'basicAuth'],
  errors: [{ code: 400, reason: 'duplicate name, no scope or an unknown scope' }, ...tokenErrors, { code: 422, reason: 'invalid options' }],
});

export const userDeleteAccessToken = defineGiteaOperation({
  operationId: 'userDeleteAccessToken',
  method: 'DELETE',
  path: '/users/{username}/tokens/{token}',
  tags: ['user'],
  summary: 'Delete an access token (Basic authentication with the account password only)',
  params: { username: gp.path('username of the user whose token is to be deleted'), token: gp.path('token to be deleted, identified by ID and if not available by name') },
  body: null,
  success: 204,
  response: null,
  scopes: ['user'],
  guards: ['contextUser', 'selfOrAdmin', 'basicAuth'],
  errors: [...tokenErrors, { code: 422, reason: 'several tokens have that name' }],
});
