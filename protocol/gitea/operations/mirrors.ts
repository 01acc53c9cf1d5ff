import { CreatePushMirrorOption, MigrateRepoOptions, PushMirror } from '../models/mirror.js';
import { Repository } from '../models/repository.js';
import { defineGiteaOperation, gp, reply, repoParams } from '../operation.js';

const disabled = { code: 400, reason: 'Mirror feature is disabled' } as const;
const notFound = { code: 404, reason: 'the repository does not exist or the caller cannot see it' } as const;
const notAdmin = { code: 403, reason: 'not a repository admin, or token scope' } as const;
const name = gp.path('The push mirror\'s remote name (`remote_mirror_…`).');

export const repoMirrorSync = defineGiteaOperation({
  operationId: 'repoMirrorSync',
  method: 'POST',
  path: '/repos/{owner}/{repo}/mirror-sync',
  tags: ['repository'],
  summary: 'Queue a fetch for a pull mirror; the answer does not wait for it',
  params: repoParams,
  body: null,
  success: 200,
  response: null,
  scopes: ['repository'],
  guards: ['repo', 'signedIn', 'writer', 'mirrorsEnabled', 'pullMirror'],
  errors: [disabled, { code: 400, reason: 'Repository is not a mirror' }, { code: 403, reason: 'no write access to the code' }, notFound],
});

export const repoPushMirrorSync = defineGiteaOperation({
  operationId: 'repoPushMirrorSync',
  method: 'POST',
  path: '/repos/{owner}/{repo}/push_mirrors-sync',
  tags: ['repository'],
  summary: 'Push to every push mirror now, one after another; the answer comes when all are done or one fails',
  params: repoParams,
  body: null,
  success: 200,
  response: null,
  scopes: ['repository'],
  // Gitea's reqAdmin runs before reqToken: an anonymous caller gets 403.
  guards: ['repo', 'repoAdmin', 'signedIn', 'mirrorsEnabled'],
  errors: [disabled, notAdmin, notFound, { code: 500, reason: 'a push mirror failed to sync (named in the message); the rest were not tried' }],
});

export const repoListPushMirrors = defineGiteaOperation({
  operationId: 'repoListPushMirrors',
  method: 'GET',
  path: '/repos/{owner}/{repo}/push_mirrors',
  tags: ['repository'],
  summary: 'The repository\'s push mirrors, a page at a time',
  params: { ...repoParams, page: gp.int('Which page to answer, counting from 1 (0 or less: the first).'), limit: gp.int('Entries per page: 30 when unset or 0 or less, at most 50.') },
  body: null,
  success: 200,
  response: reply.list(PushMirror),
  scopes: ['repository'],
  // Gitea's reqAdmin runs before reqToken: an anonymous caller gets 403.
  guards: ['repo', 'repoAdmin', 'signedIn', 'mirrorsEnabled'],
  errors: [disabled, notAdmin, notFound],
});

export const repoGetPushMirrorByRemoteName = defineGiteaOperation({
  operationId: 'repoGetPushMirrorByRemoteName',
  method: 'GET',
  path: '/repos/{owner}/{repo}/push_mirrors/{name}',
  tags: ['repository'],
  summary: 'One push mirror, by remote name',
  params: { ...repoParams, name },
  body: null,
  success: 200,
  response: reply.one(PushMirror),
  scopes: ['repository'],
  // Gitea's reqAdmin runs before reqToken: an anonymous caller gets 403.
  guards: ['repo', 'repoAdmin', 'signedIn', 'mirrorsEnabled'],
  errors: [disabled, notAdmin, { code: 404, reason: 'no push mirror of that name, or no such repository' }],
});

export const repoAddPushMirror = defineGiteaOperation({
  operationId: 'repoAddPushMirror',
  method: 'POST',
  path: '/repos/{owner}/{repo}/push_mirrors',
  tags: ['repository'],
  summary: 'Register a remote that the repository is pushed to on a schedule, after each commit, or both',
  params: repoParams,
  body: CreatePushMirrorOption,
  success: 200,
  response: reply.one(PushMirror),
  scopes: ['repository'],
  // Gitea's reqAdmin runs before reqToken: an anonymous caller gets 403.
  guards: ['repo', 'repoAdmin', 'signedIn', 'mirrorsEnabled'],
  errors: [
    disabled,
    { code: 400, reason: 'invalid interval, shorter than the minimum, SSH unavailable, use_ssh with credentials, invalid protocol or URL' },
    { code: 401, reason: 'Permission denied: the address is not allowed (local network, blocked host, file path)' },
    notAdmin,
    notFound,
    { code: 422, reason: 'the body does not bind (malformed JSON, a field of the wrong type)' },
    { code: 500, reason: 'the remote could not be registered (nothing is kept)' },
  ],
});

export const repoDeletePushMirror = defineGiteaOperation({
  operationId: 'repoDeletePushMirror',
  method: 'DELETE',
  path: '/repos/{owner}/{repo}/push_mirrors/{name}',
  tags: ['repository'],
  summary: 'Stop pushing to a remote and forget it',
  params: { ...repoParams, name },
  body: null,
  success: 204,
  response: null,
  scopes: ['repository'],
  // Gitea's reqAdmin runs before reqToken: an anonymous caller gets 403.
  guards: ['repo', 'repoAdmin', 'signedIn', 'mirrorsEnabled'],
  errors: [disabled, notAdmin, { code: 404, reason: 'no push mirror of that name (decisions.md), or no such repository' }],
});

export const repoMigrate = defineGiteaOperation({
  operationId: 'repoMigrate',
  method: 'POST',
  path: '/repos/migrate',
  tags: ['repository'],
  summary: 'Copy a remote git repository into a new one here: once, or with mirror as a pull mirror fetched again on a schedule; with lfs its LFS objects come along',
  params: {},
  body: MigrateRepoOptions,
  success: 201,
  response: reply.one(Repository),
  scopes: ['repository'],
  guards: ['signedIn'],
  errors: [
    { code: 400, reason: 'invalid protocol, URL (clone_addr, or lfs_endpoint with lfs) or mirror interval' },
    { code: 401, reason: 'Permission denied: the address (clone_addr, or lfs_endpoint with lfs) is not allowed' },
    { code: 403, reason: 'another owner without being an admin, or pull mirrors disabled' },
    { code: 409, reason: 'The repository with the same name already exists.' },
    { code: 422, reason: 'bad options, or the remote (with lfs: its LFS objects) could not be copied; masked, nothing is kept' },
  ],
});
