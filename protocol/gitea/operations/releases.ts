import { defineGiteaOperation, gp, reply, repoParams } from '../operation.js';
import { CreateReleaseOption, EditReleaseOption, Release } from '../models/release.js';

const scopes = ['repository'] as const;
const scope403 = { code: 403, reason: 'token scope' } as const;
/** Gitea's guards for release writes: a signed-in writer (reqToken, reqRepoWriter). */
const writeGuards = ['repo', 'reader', 'signedIn', 'writer', 'notArchived'] as const;
const byId = { ...repoParams, id: gp.path('The release\'s id.') };
const byTag = { ...repoParams, tag: gp.path('The release\'s tag name (slashes allowed).', { wildcard: true }) };
const missing = { code: 404, reason: 'no such release (a draft is hidden from callers who may not write), or no such repository' } as const;

export const repoListReleases = defineGiteaOperation({
  operationId: 'repoListReleases',
  method: 'GET',
  path: '/repos/{owner}/{repo}/releases',
  tags: ['repository'],
  summary: 'A repository\'s releases, newest first, a page at a time; drafts only for writers',
  params: {
    ...repoParams,
    draft: gp.bool('Only drafts (true) or only published releases (false); callers who may not write never see drafts.'),
    'pre-release': gp.bool('Only pre-releases (true) or only full releases (false).'),
    page: gp.int('Which page, from 1.'),
    limit: gp.int('Entries per page: 30 when unset or 0 or less, at most 50.'),
  },
  body: null,
  success: 200,
  response: reply.list(Release),
  scopes,
  guards: ['repo', 'reader'],
  errors: [scope403, { code: 404, reason: 'no such repository' }],
});

export const repoCreateRelease = defineGiteaOperation({
  operationId: 'repoCreateRelease',
  method: 'POST',
  path: '/repos/{owner}/{repo}/releases',
  tags: ['repository'],
  summary: 'Publish a release for a tag: the tag is made from target_commitish when it does not exist, unless the release is a draft',
  params: repoParams,
  body: CreateReleaseOption,
  success: 201,
  response: reply.one(Release),
  scopes,
  guards: writeGuards,
  errors: [
    { code: 401, reason: 'token is required' },
    { code: 403, reason: 'token scope, not a writer, or a new tag in a pull mirror' },
    { code: 404, reason: 'target_commitish names nothing, or no such repository' },
    { code: 409, reason: 'the tag already has a release' },
    { code: 422, reason: 'tag_name missing or not a valid tag name, body too long, or the repository is empty' },
    { code: 423, reason: 'repo is archived' },
  ],
});

export const repoGetLatestRelease = defineGiteaOperation({
  operationId: 'repoGetLatestRelease',
  method: 'GET',
  path: '/repos/{owner}/{repo}/releases/latest',
  tags: ['repository'],
  summary: 'The newest release that is neither a draft nor a pre-release',
  params: repoParams,
  body: null,
  success: 200,
  response: reply.one(Release),
  scopes,
  guards: ['repo', 'reader'],
  errors: [scope403, { code: 404, reason: 'no such release, or no such repository' }],
});

export const repoGetReleaseByTag = defineGiteaOperation({
  operationId: 'repoGetReleaseByTag',
  method: 'GET',
  path: '/repos/{owner}/{repo}/releases/tags/{tag}',
  tags: ['repository'],
  summary: 'The release of a tag (the name matched whatever its case)',
  params: byTag,
  body: null,
  success: 200,
  response: reply.one(Release),
  scopes,
  guards: ['repo', 'reader'],
  errors: [scope403, missing],
});

export const repoDeleteReleaseByTag = defineGiteaOperation({
  operationId: 'repoDeleteReleaseByTag',
  method: 'DELETE',
  path: '/repos/{owner}/{repo}/releases/tags/{tag}',
  tags: ['repository'],
  summary: 'Remove the release of a tag; the tag stays',
  params: byTag,
  body: null,
  success: 204,
  response: null,
  scopes,
  guards: writeGuards,
  errors: [{ code: 401, reason: 'token is required' }, { code: 403, reason: 'token scope, or not a writer' }, missing, { code: 423, reason: 'repo is archived' }],
});

export const repoGetRelease = defineGiteaOperation({
  operationId: 'repoGetRelease',
  method: 'GET',
  path: '/repos/{owner}/{repo}/releases/{id}',
  tags: ['repository'],
  summary: 'One release, by id',
  params: byId,
  body: null,
  success: 200,
  response: reply.one(Release),
  scopes,
  guards: ['repo', 'reader'],
  errors: [scope403, missing],
});

export const repoEditRelease = defineGiteaOperation({
  operationId: 'repoEditRelease',
  method: 'PATCH',
  path: '/repos/{owner}/{repo}/releases/{id}',
  tags: ['repository'],
  summary: 'Change a release; publishing a draft makes its tag when the tag does not exist',
  params: byId,
  body: EditReleaseOption,
  success: 200,
  response: reply.one(Release),
  scopes,
  guards: writeGuards,
  errors: [
    { code: 401, reason: 'token is required' },
    { code: 403, reason: 'token scope, not a writer, or a new tag in a pull mirror' },
    { code: 404, reason: 'no such release, its target names nothing, or no such repository' },
    { code: 409, reason: 'the new tag name already has a release' },
    { code: 422, reason: 'not a valid tag name, or body too long' },
    { code: 423, reason: 'repo is archived' },
  ],
});

export const repoDeleteRelease = defineGiteaOperation({
  operationId: 'repoDeleteRelease',
  method: 'DELETE',
  path: '/repos/{owner}/{repo}/releases/{id}',
  tags: ['repository'],
  summary: 'Remove a release; its tag stays',
  params: byId,
  body: null,
  success: 204,
  response: null,
  scopes,
  guards: writeGuards,
  errors: [{ code: 401, reason: 'token is required' }, { code: 403, reason: 'token scope, or not a writer' }, missing, { code: 423, reason: 'repo is archived' }],
});
