import { defineGiteaOperation, gp, reply, repoParams } from '../operation.js';
import { AddCollaboratorOption, CreateRepoOption, EditRepoOption, RepoCollaboratorPermission, Repository } from '../models/repository.js';
import { User } from '../models/user.js';

const page = { page: gp.int('Which page to answer, counting from 1 (0 or less: the first).'), limit: gp.int('Entries per page: 30 when unset or 0 or less, at most 50.') };
const notFound = { code: 404, reason: 'the repository does not exist or the caller cannot see it' } as const;

export const createCurrentUserRepo = defineGiteaOperation({
  operationId: 'createCurrentUserRepo',
  method: 'POST',
  path: '/user/repos',
  tags: ['repository', 'user'],
  summary: 'Make a new repository owned by the signed-in user; with auto_init it starts with one commit holding a README',
  params: {},
  body: CreateRepoOption,
  success: 201,
  response: reply.one(Repository),
  scopes: ['user', 'repository'],
  guards: ['signedIn'],
  errors: [
    { code: 400, reason: 'with auto_init, a readme, gitignore or license template we do not have; or object_format_name sha256' },
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
  summary: 'One repository, if the caller may see it',
  params: repoParams,
  body: null,
  success: 200,
  response: reply.one(Repository),
  scopes: ['repository'],
  guards: ['repo'],
  errors: [{ code: 403, reason: 'token scope' }, notFound],
});

export const repoGetLanguages = defineGiteaOperation({
  operationId: 'repoGetLanguages',
  method: 'GET',
  path: '/repos/{owner}/{repo}/languages',
  tags: ['repository'],
  summary: 'Bytes of code per language on the default branch, largest first (an empty object for an empty repository)',
  params: repoParams,
  body: null,
  success: 200,
  response: reply.counts,
  scopes: ['repository'],
  guards: ['repo', 'reader'],
  errors: [{ code: 403, reason: 'token scope' }, notFound],
});

export const repoEdit = defineGiteaOperation({
  operationId: 'repoEdit',
  method: 'PATCH',
  path: '/repos/{owner}/{repo}',
  tags: ['repository'],
  summary: 'Change a repository\'s settings; a field left out of the body keeps its value',
  params: repoParams,
  body: EditRepoOption,
  success: 200,
  response: reply.one(Repository),
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
  summary: 'Remove a repository and its git data (its owner or a site admin only)',
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
  summary: 'The users given access to a repository, a page at a time',
  params: { ...repoParams, ...page },
  body: null,
  success: 200,
  response: reply.list(User),
  scopes: ['repository'],
  guards: ['repo', 'signedIn'],
  errors: [{ code: 403, reason: 'token scope' }, notFound],
});

const collaborator = { ...repoParams, collaborator: gp.path('Name of the user in question.') };

export const repoCheckCollaborator = defineGiteaOperation({
  operationId: 'repoCheckCollaborator',
  method: 'GET',
  path: '/repos/{owner}/{repo}/collaborators/{collaborator}',
  tags: ['repository'],
  summary: 'Whether a user has been given access to a repository: 204 if so, 404 if not',
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
  summary: 'Give a user access to a repository, or change the access already given',
  params: collaborator,
  body: AddCollaboratorOption,
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
  summary: 'Take away the access a user was given to a repository',
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
  summary: 'The access level a user has on a repository, with the user',
  params: collaborator,
  body: null,
  success: 200,
  response: reply.one(RepoCollaboratorPermission),
  scopes: ['repository'],
  guards: ['repo', 'signedIn'],
  errors: [{ code: 403, reason: 'only admins, repo admins and the user may ask' }, { code: 404, reason: 'no such user or repository' }],
});
