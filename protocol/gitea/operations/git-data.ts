import { defineGiteaOperation, gp, reply, repoParams } from '../operation.js';
import { AnnotatedTag, Commit, GitTreeResponse, Note, Reference } from '../models/git-data.js';

const scopes = ['repository'] as const;
const guards = ['repo', 'reader'] as const;
const scope403 = { code: 403, reason: 'token scope, or no read access' } as const;
const commitFlags = {
  stat: gp.bool('Count added and removed lines (default true).'),
  verification: gp.bool('Report the signature check (default true).'),
  files: gp.bool('List the files the commit touched (default true).'),
};

export const getTree = defineGiteaOperation({
  operationId: 'GetTree',
  method: 'GET',
  path: '/repos/{owner}/{repo}/git/trees/{sha}',
  tags: ['repository'],
  summary: 'A tree\'s entries, a page at a time; `sha` is a tree, commit or annotated tag id (abbreviated too), a branch or tag name, or `<rev>:<path>`',
  params: {
    ...repoParams,
    sha: gp.path('What to list: an object id, a branch or tag name, or `<rev>:<path>` (`main:docs`, `main:` for the root).', { wildcard: true }),
    recursive: gp.bool('List every entry below the tree, directories before their contents.'),
    page: gp.int('Which page, from 1.'),
    per_page: gp.int('Entries per page: 1000 when unset, 0 or less, or above 1000.'),
  },
  body: null,
  success: 200,
  response: reply.one(GitTreeResponse),
  scopes,
  guards,
  errors: [
    { code: 400, reason: 'sha not found: nothing of that name, or it is a blob' },
    scope403,
    { code: 404, reason: 'no such repository, or a `<rev>:<path>` whose revision exists and whose path does not (a folder not made yet)' },
  ],
});

export const repoDownloadCommitDiffOrPatch = defineGiteaOperation({
  operationId: 'repoDownloadCommitDiffOrPatch',
  method: 'GET',
  path: '/repos/{owner}/{repo}/git/commits/{sha}.{diffType}',
  tags: ['repository'],
  summary: 'A commit\'s changes against its first parent as text: a diff, or an email-style patch',
  params: { ...repoParams, sha: gp.path('Commit id or ref name.'), diffType: gp.path('`diff` or `patch`.') },
  body: null,
  success: 200,
  response: reply.file,
  produces: ['text/plain'],
  scopes,
  guards,
  errors: [scope403, { code: 404, reason: 'no such commit or repository' }],
});

export const repoGetSingleCommit = defineGiteaOperation({
  operationId: 'repoGetSingleCommit',
  method: 'GET',
  path: '/repos/{owner}/{repo}/git/commits/{sha}',
  tags: ['repository'],
  summary: 'One commit, by id or ref name',
  params: { ...repoParams, sha: gp.path('Commit id (abbreviated too) or a branch or tag name.'), ...commitFlags },
  body: null,
  success: 200,
  response: reply.one(Commit),
  scopes,
  guards,
  errors: [scope403, { code: 404, reason: 'no such commit or repository' }, { code: 422, reason: 'not a valid ref name or id' }],
});

/** Current Gitea also answers a single commit and its diff under /commits (GitHub's paths); a combined status's commit_url points there. */
export const repoDownloadCommitDiffOrPatchByPath = defineGiteaOperation({
  ...repoDownloadCommitDiffOrPatch,
  operationId: 'repoDownloadCommitDiffOrPatchByPath',
  path: '/repos/{owner}/{repo}/commits/{sha}.{diffType}',
  summary: 'The same as /git/commits/{sha}.{diffType}, at GitHub\'s path',
});

export const repoGetSingleCommitByPath = defineGiteaOperation({
  ...repoGetSingleCommit,
  operationId: 'repoGetSingleCommitByPath',
  path: '/repos/{owner}/{repo}/commits/{sha}',
  summary: 'The same as /git/commits/{sha}, at GitHub\'s path',
});

export const repoListAllGitRefs = defineGiteaOperation({
  operationId: 'repoListAllGitRefs',
  method: 'GET',
  path: '/repos/{owner}/{repo}/git/refs',
  tags: ['repository'],
  summary: 'Every reference of the repository, in name order',
  params: repoParams,
  body: null,
  success: 200,
  response: reply.list(Reference),
  scopes,
  guards,
  errors: [scope403, { code: 404, reason: 'no reference, or no such repository' }],
});

export const repoListGitRefs = defineGiteaOperation({
  operationId: 'repoListGitRefs',
  method: 'GET',
  path: '/repos/{owner}/{repo}/git/refs/{ref}',
  tags: ['repository'],
  summary: 'The references whose name starts with `refs/` plus the given text; one reference named exactly is answered as an object, not a list',
  params: { ...repoParams, ref: gp.path('Start of the names after `refs/` (`heads`, `tags/v1`, `heads/main`).', { wildcard: true }) },
  body: null,
  success: 200,
  response: reply.oneOrList(Reference),
  scopes,
  guards,
  errors: [scope403, { code: 404, reason: 'no reference matches, or no such repository' }],
});

export const getAnnotatedTag = defineGiteaOperation({
  operationId: 'GetAnnotatedTag',
  method: 'GET',
  path: '/repos/{owner}/{repo}/git/tags/{sha}',
  tags: ['repository'],
  summary: 'An annotated tag object by its full id',
  params: { ...repoParams, sha: gp.path('Full id of the tag object (not of the commit it tags).') },
  body: null,
  success: 200,
  response: reply.one(AnnotatedTag),
  scopes,
  guards,
  errors: [{ code: 400, reason: 'not the id of an annotated tag object' }, scope403, { code: 404, reason: 'no such repository' }],
});

export const repoGetNote = defineGiteaOperation({
  operationId: 'repoGetNote',
  method: 'GET',
  path: '/repos/{owner}/{repo}/git/notes/{sha}',
  tags: ['repository'],
  summary: 'The note (refs/notes/commits) attached to a commit',
  params: { ...repoParams, sha: gp.path('Commit id or ref name.'), verification: commitFlags.verification, files: commitFlags.files },
  body: null,
  success: 200,
  response: reply.one(Note),
  scopes,
  guards,
  errors: [scope403, { code: 404, reason: 'no such commit, no note on it, or no such repository' }, { code: 422, reason: 'not a valid ref name or id' }],
});
