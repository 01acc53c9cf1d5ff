import { defineGiteaOperation, gp, reply, repoParams } from '../operation.js';
import { Commit, Compare } from '../models/git-data.js';
import { CombinedStatus, CommitStatus, CreateStatusOption } from '../models/commit-status.js';

const scopes = ['repository'] as const;
const scope403 = { code: 403, reason: 'token scope, or no read access' } as const;
const page = gp.int('Which page, from 1.');
const limit = gp.int('Entries per page: 30 when unset or 0 or less, at most 50.');
const statusFilters = {
  sort: gp.query('oldest, recentupdate, leastupdate, leastindex or highestindex; newest first otherwise.'),
  state: gp.query('Only statuses in this state.'),
  page,
  limit,
};

export const repoGetAllCommits = defineGiteaOperation({
  operationId: 'repoGetAllCommits',
  method: 'GET',
  path: '/repos/{owner}/{repo}/commits',
  tags: ['repository'],
  summary: 'The history from a branch or commit, newest first, a page at a time',
  params: {
    ...repoParams,
    sha: gp.query('Branch, tag or commit to start from; the default branch when left out.'),
    path: gp.query('Only commits that touched this file or directory (pages are then 50 commits whatever limit says).'),
    stat: gp.bool('Count added and removed lines (default true).'),
    verification: gp.bool('Report signature checks (default true).'),
    files: gp.bool('List the files each commit touched (default true).'),
    page,
    limit,
    not: gp.query('Leave out commits reachable from this revision.'),
  },
  body: null,
  success: 200,
  response: reply.list(Commit),
  scopes,
  guards: ['repo', 'reader'],
  errors: [scope403, { code: 404, reason: 'no such start, no commit touches the path, or no such repository' }, { code: 409, reason: 'Git Repository is empty.' }],
});

export const repoCompareDiff = defineGiteaOperation({
  operationId: 'repoCompareDiff',
  method: 'GET',
  path: '/repos/{owner}/{repo}/compare/{basehead}',
  tags: ['repository'],
  summary: 'The commits head has that base lacks; `basehead` is `base...head` (or `base..head`, or only head against the default branch)',
  params: {
    ...repoParams,
    basehead: gp.path('`base...head`, each a branch, tag or commit id.', { wildcard: true }),
    verification: gp.bool('Report signature checks (default true).'),
    files: gp.bool('List the files each commit touched (default true).'),
  },
  body: null,
  success: 200,
  response: reply.one(Compare),
  scopes,
  guards: ['repo', 'reader'],
  errors: [scope403, { code: 404, reason: 'base or head does not exist, or no such repository' }],
});

export const repoCreateStatus = defineGiteaOperation({
  operationId: 'repoCreateStatus',
  method: 'POST',
  path: '/repos/{owner}/{repo}/statuses/{sha}',
  tags: ['repository'],
  summary: 'Record a status for a commit under a context name',
  params: { ...repoParams, sha: gp.path('Commit id (abbreviated too) or ref name; the status is stored for the commit it names.') },
  body: CreateStatusOption,
  success: 201,
  response: reply.one(CommitStatus),
  scopes,
  guards: ['repo', 'reader', 'signedIn', 'writer'],
  errors: [
    { code: 400, reason: 'sha not given' },
    { code: 401, reason: 'token is required' },
    { code: 403, reason: 'token scope, or no write access to the code' },
    { code: 404, reason: 'no such commit or repository' },
    { code: 422, reason: 'state missing or not one of the known states' },
  ],
});

export const repoListStatuses = defineGiteaOperation({
  operationId: 'repoListStatuses',
  method: 'GET',
  path: '/repos/{owner}/{repo}/statuses/{sha}',
  tags: ['repository'],
  summary: 'Every status recorded for a commit, a page at a time',
  params: { ...repoParams, sha: gp.path('Commit id (abbreviated too) or ref name.'), ...statusFilters },
  body: null,
  success: 200,
  response: reply.list(CommitStatus),
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 400, reason: 'ref/sha not given' }, scope403, { code: 404, reason: 'no such commit or repository' }],
});

export const repoListStatusesByRef = defineGiteaOperation({
  operationId: 'repoListStatusesByRef',
  method: 'GET',
  path: '/repos/{owner}/{repo}/commits/{ref}/statuses',
  tags: ['repository'],
  summary: 'Every status recorded for the commit a branch, tag or id names, a page at a time',
  params: { ...repoParams, ref: gp.path('Branch, tag or commit id (slashes allowed).', { wildcard: true }), ...statusFilters },
  body: null,
  success: 200,
  response: reply.list(CommitStatus),
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 400, reason: 'ref/sha not given' }, scope403, { code: 404, reason: 'no such ref or repository' }],
});

export const repoGetCombinedStatusByRef = defineGiteaOperation({
  operationId: 'repoGetCombinedStatusByRef',
  method: 'GET',
  path: '/repos/{owner}/{repo}/commits/{ref}/status',
  tags: ['repository'],
  summary: 'The newest status of each context for the commit a branch, tag or id names, and their combined state',
  params: { ...repoParams, ref: gp.path('Branch, tag or commit id (slashes allowed).', { wildcard: true }), page, limit },
  body: null,
  success: 200,
  response: reply.one(CombinedStatus),
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 400, reason: 'ref/sha not given' }, scope403, { code: 404, reason: 'no such ref or repository' }],
});
