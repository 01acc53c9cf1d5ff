import { defineGiteaOperation, gp, reply, repoParams } from '../operation.js';
import { Branch, CreateBranchRepoOption } from '../models/branch.js';

/** Gitea's route guards for branch writes: readers see the repository, then a signed-in writer of a repository that is not archived. */
const guards = ['repo', 'reader', 'signedIn', 'writer', 'notArchived'] as const;

export const repoCreateBranch = defineGiteaOperation({
  operationId: 'repoCreateBranch',
  method: 'POST',
  path: '/repos/{owner}/{repo}/branches',
  tags: ['repository'],
  summary: 'Start a branch at another branch, a tag or a commit (the default branch when none is named); protection rules apply as to a push',
  params: repoParams,
  body: CreateBranchRepoOption,
  success: 201,
  response: reply.one(Branch),
  scopes: ['repository'],
  guards,
  errors: [
    { code: 403, reason: 'not a writer, a pull mirror (Git Repository is a mirror.), or a protection rule refuses the push' },
    { code: 404, reason: 'the repository is empty or unknown, or the starting branch, tag or commit does not exist' },
    { code: 409, reason: 'a branch of that name exists, or one whose name is a path prefix of it (or the other way round), or a tag of that name' },
    { code: 422, reason: 'invalid options' },
    { code: 423, reason: 'repo is archived' },
  ],
});

export const repoDeleteBranch = defineGiteaOperation({
  operationId: 'repoDeleteBranch',
  method: 'DELETE',
  path: '/repos/{owner}/{repo}/branches/{branch}',
  tags: ['repository'],
  summary: 'Remove a branch; the default branch and branches under a protection rule cannot be removed',
  params: { ...repoParams, branch: gp.path('Branch name (slashes allowed).', { wildcard: true }) },
  body: null,
  success: 204,
  response: null,
  scopes: ['repository'],
  guards,
  errors: [
    { code: 403, reason: 'not a writer, a pull mirror, the default branch (can not delete default branch) or a protected one (branch protected)' },
    { code: 404, reason: 'the repository is empty or unknown, or there is no such branch' },
    { code: 423, reason: 'repo is archived' },
  ],
});
