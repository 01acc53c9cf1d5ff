import * as v from 'valibot';
import { defineGiteaOperation, gp, repoParams } from '../operation.js';
import { AddCollaboratorOption, CreateRepoOption, EditRepoOption, RepoCollaboratorPermission, Repository } from '../models/repository.js';
import { User } from '../models/user.js';

const page = { page: gp.int('page number of results to return (1-based)'), limit: gp.int('page size of results') };
const notFound = { code: 404, reason: 'the repository does not exist or the caller cannot see it' } as const;

export const createCurrentUserRepo = defineGiteaOperation({
  operationId: 'createCurrentUserRepo',
  method: 'POST',
  path: '/user/repos',
  tags: ['repository', 'user'],
  summary: 'Create a repository',
  params: {},
  body: CreateRepoOption.schema,
  bodyModel: CreateRepoOption,
  success: 201,
  response: Repository.schema,
  responseSchema: Repository.ref,
  scopes: ['user', 'repository'],
  guards: ['signedIn'],
  errors: [
    { code: 400, reason: 'bad options' },
    { code: 403, reason: 'token lacks write:user or write:repository' },
    { code: 409, reason: 'The repository with the same name already exists.' },
    { code: 422, reason: 'invalid or reserved name' },
  ],
});

export const repoGet = defineGiteaOperation({
  operationId: 'repoGet',
  method: 'GET',
  path: '/repos/{owner}/{repo}',
  tags: ['repository'],
  summary: 'Get a repository',
  params: repoParams,
  body: null,
  success: 200,
  response: Repository.schema,
  responseSchema: Repository.ref,
  scopes: ['repository'],
  guards: ['repo'],
  errors: [{ code: 403, reason: 'token scope' }, notFound],
});

export const repoEdit = defineGiteaOperation({
  operationId: 'repoEdit',
  method: 'PATCH',
  path: '/repos/{owner}/{repo}',
  tags: ['repository'],
  summary: 'Edit a repository\'s properties. Only fields that are set will be changed.',
  params: repoParams,
  body: EditRepoOption.schema,
  bodyModel: EditRepoOption,
  success: 200,
  response: Repository.schema,
  responseSchema: Repository.ref,
  scopes: ['repository'],
  guards: ['repo', 'signedIn', 'repoAdmin'],
  errors: [
    { code: 403, reason: 'not an owner or admin collaborator' },
    notFound,
    { code: 422, reason: 'invalid options, name taken or reserved, or the default branch does not exist' },
  ],
});

export const repoDelete = defineGiteaOperation({
  operationId: 'repoDelete',
  method: 'DELETE',
  path: '/repos/{owner}/{repo}',
  tags: ['repository'],
  summary: 'Delete a repository',
  params: repoParams,
  body: null,
  success: 204,
  response: null,
  scopes: ['repository'],
  guards: ['repo', 'signedIn'],
  errors: [{ code: 403, reason: 'user should be the owner of the repo' }, notFound],
});

export const repoListCollaborators = defineGiteaOperation({
  operationId: 'repoListCollaborators',
  method: 'GET',
  path: '/repos/{owner}/{repo}/collaborators',
  tags: ['repository'],
  summary: 'List a repository\'s collaborators',
  params: { ...repoParams, ...page },
  body: null,
  success: 200,
  response: v.array(User.schema),
  responseSchema: { type: 'array', items: User.ref },
  scopes: ['repository'],
  guards: ['repo', 'signedIn'],
  errors: [{ code: 403, reason: 'token scope' }, notFound],
});

const collaborator = { ...repoParams, collaborator: gp.path('username of the user') };

export const repoCheckCollaborator = defineGiteaOperation({
  operationId: 'repoCheckCollaborator',
  method: 'GET',
  path: '/repos/{owner}/{repo}/collaborators/{collaborator}',
  tags: ['repository'],
  summary: 'Check if a user is a collaborator of a repository (204 yes, 404 no)',
  params: collaborator,
  body: null,
  success: 204,
  response: null,
  scopes: ['repository'],
  guards: ['repo', 'signedIn'],
  errors: [{ code: 403, reason: 'token scope' }, { code: 404, reason: 'not a collaborator' }, { code: 422, reason: 'user does not exist' }],
});

export const repoAddCollaborator = defineGiteaOperation({
  operationId: 'repoAddCollaborator',
  method: 'PUT',
  path: '/repos/{owner}/{repo}/collaborators/{collaborator}',
  tags: ['repository'],
  summary: 'Add or update a collaborator of a repository',
  params: collaborator,
  body: AddCollaboratorOption.schema,
  bodyModel: AddCollaboratorOption,
  success: 204,
  response: null,
  scopes: ['repository'],
  guards: ['repo', 'signedIn', 'repoAdmin'],
  errors: [{ code: 403, reason: 'not an owner or admin collaborator' }, notFound, { code: 422, reason: 'user does not exist, or bad permission' }],
});

export const repoDeleteCollaborator = defineGiteaOperation({
  operationId: 'repoDeleteCollaborator',
  method: 'DELETE',
  path: '/repos/{owner}/{repo}/collaborators/{collaborator}',
  tags: ['repository'],
  summary: 'Delete a collaborator from a repository',
  params: collaborator,
  body: null,
  success: 204,
  response: null,
  scopes: ['repository'],
  guards: ['repo', 'signedIn', 'repoAdmin'],
  errors: [{ code: 403, reason: 'not an owner or admin collaborator' }, notFound, { code: 422, reason: 'user does not exist' }],
});

export const repoGetRepoPermissions = defineGiteaOperation({
  operationId: 'repoGetRepoPermissions',
  method: 'GET',
  path: '/repos/{owner}/{repo}/collaborators/{collaborator}/permission',
  tags: ['repository'],
  summary: 'Get repository permissions for a user',
  params: collaborator,
  body: null,
  success: 200,
  response: RepoCollaboratorPermission.schema,
  responseSchema: RepoCollaboratorPermission.ref,
  scopes: ['repository'],
  guards: ['repo', 'signedIn'],
  errors: [{ code: 403, reason: 'only admins, repo admins and the user may ask' }, { code: 404, reason: 'no such user or repository' }],
});
