import { defineGiteaOperation, gp, reply } from '../operation.js';
import { AccessToken, CreateAccessTokenOption, CreateUserOption, User } from '../models/user.js';

const page = { page: gp.int('Which page to answer, counting from 1 (0 or less: the first).'), limit: gp.int('Entries per page: 30 when unset or 0 or less, at most 50.') };

export const userGetCurrent = defineGiteaOperation({
  operationId: 'userGetCurrent',
  method: 'GET',
  path: '/user',
  tags: ['user'],
  summary: 'The account the request is signed in as',
  params: {},
  body: null,
  success: 200,
  response: reply.one(User),
  scopes: ['user'],
  guards: ['signedIn'],
  errors: [{ code: 403, reason: 'token lacks the read:user scope' }],
});

export const userGet = defineGiteaOperation({
  operationId: 'userGet',
  method: 'GET',
  path: '/users/{username}',
  tags: ['user'],
  summary: 'One user account, by name',
  params: { username: gp.path('Name of the account.') },
  body: null,
  success: 200,
  response: reply.one(User),
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
  summary: 'Add a user account (site administrators only)',
  params: {},
  body: CreateUserOption,
  bodyRequired: true,
  success: 201,
  response: reply.one(User),
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
  summary: 'A user\'s access tokens, without their secrets; only Basic authentication with the account password is accepted',
  params: { username: gp.path('Account whose tokens are listed.'), ...page },
  body: null,
  success: 200,
  response: reply.list(AccessToken),
  scopes: ['user'],
  guards: ['contextUser', 'selfOrAdmin', 'basicAuth'],
  errors: [...tokenErrors],
});

export const userCreateToken = defineGiteaOperation({
  operationId: 'userCreateToken',
  method: 'POST',
  path: '/users/{username}/tokens',
  tags: ['user'],
  summary: 'Issue a new access token for a user; its secret is in `sha1` of this answer and never shown again. Only Basic authentication with the account password is accepted',
  params: { username: gp.path('Account the new token belongs to.') },
  body: CreateAccessTokenOption,
  success: 201,
  response: reply.one(AccessToken),
  scopes: ['user'],
  guards: ['contextUser', 'selfOrAdmin', 'basicAuth'],
  errors: [{ code: 400, reason: 'duplicate name, no scope or an unknown scope' }, ...tokenErrors, { code: 422, reason: 'invalid options' }],
});

export const userDeleteAccessToken = defineGiteaOperation({
  operationId: 'userDeleteAccessToken',
  method: 'DELETE',
  path: '/users/{username}/tokens/{token}',
  tags: ['user'],
  summary: 'Revoke one of a user\'s access tokens; only Basic authentication with the account password is accepted',
  params: { username: gp.path('Account that owns the token.'), token: gp.path('The token: its numeric id, or else its name.') },
  body: null,
  success: 204,
  response: null,
  scopes: ['user'],
  guards: ['contextUser', 'selfOrAdmin', 'basicAuth'],
  errors: [...tokenErrors, { code: 422, reason: 'several tokens have that name' }],
});
