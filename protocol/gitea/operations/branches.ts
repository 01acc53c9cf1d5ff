import { defineGiteaOperation, gp, reply, repoParams } from '../operation.js';
import { Branch, BranchProtection, CreateBranchProtectionOption, EditBranchProtectionOption } from '../models/branch.js';

const notFound = { code: 404, reason: 'the repository does not exist or the caller cannot see it' } as const;

export const repoListBranches = defineGiteaOperation({
  operationId: 'repoListBranches',
  method: 'GET',
  path: '/repos/{owner}/{repo}/branches',
  tags: ['repository'],
  summary: 'A repository\'s branches with their head commits, a page at a time',
  params: { ...repoParams, page: gp.int('Which page to answer, counting from 1 (0 or less: the first).'), limit: gp.int('Entries per page: 30 when unset or 0 or less, at most 50.') },
  body: null,
  success: 200,
  response: reply.list(Branch),
  scopes: ['repository'],
  guards: ['repo', 'reader'],
  errors: [{ code: 403, reason: 'token scope' }, notFound],
});

export const repoGetBranch = defineGiteaOperation({
  operationId: 'repoGetBranch',
  method: 'GET',
  path: '/repos/{owner}/{repo}/branches/{branch}',
  tags: ['repository'],
  summary: 'One branch: its head commit and whether it is protected; repository admins also see which rule applies',
  params: { ...repoParams, branch: gp.path('Branch name (slashes allowed).', { wildcard: true }) },
  body: null,
  success: 200,
  response: reply.one(Branch),
  scopes: ['repository'],
  guards: ['repo', 'reader'],
  errors: [{ code: 403, reason: 'token scope' }, { code: 404, reason: 'no such branch or repository' }],
});

const protectionErrors = [
  { code: 403, reason: 'user should be an owner or a collaborator with admin write of a repository' },
  notFound,
] as const;

export const repoListBranchProtection = defineGiteaOperation({
  operationId: 'repoListBranchProtection',
  method: 'GET',
  path: '/repos/{owner}/{repo}/branch_protections',
  tags: ['repository'],
  summary: 'Every protection rule of a repository',
  params: repoParams,
  body: null,
  success: 200,
  response: reply.list(BranchProtection),
  scopes: ['repository'],
  guards: ['repo', 'signedIn', 'repoAdmin'],
  errors: [...protectionErrors],
});

export const repoCreateBranchProtection = defineGiteaOperation({
  operationId: 'repoCreateBranchProtection',
  method: 'POST',
  path: '/repos/{owner}/{repo}/branch_protections',
  tags: ['repository'],
  summary: 'Add a protection rule, named after a branch or a glob pattern that matches branches',
  params: repoParams,
  body: CreateBranchProtectionOption,
  success: 201,
  response: reply.one(BranchProtection),
  scopes: ['repository'],
  guards: ['repo', 'signedIn', 'repoAdmin', 'notArchived'],
  errors: [
    { code: 400, reason: 'both rule_name and branch_name are empty' },
    { code: 403, reason: 'not a repository admin, or the rule exists (Branch protection already exist)' },
    notFound,
    { code: 422, reason: 'an allow-listed user does not exist' },
    { code: 423, reason: 'repo is archived' },
  ],
});

const ruleParams = { ...repoParams, name: gp.path('Rule name: a branch name or a glob pattern (slashes allowed).', { wildcard: true }) };

export const repoGetBranchProtection = defineGiteaOperation({
  operationId: 'repoGetBranchProtection',
  method: 'GET',
  path: '/repos/{owner}/{repo}/branch_protections/{name}',
  tags: ['repository'],
  summary: 'One protection rule, by name',
  params: ruleParams,
  body: null,
  success: 200,
  response: reply.one(BranchProtection),
  scopes: ['repository'],
  guards: ['repo', 'signedIn', 'repoAdmin'],
  errors: [protectionErrors[0], { code: 404, reason: 'no such rule or repository' }],
});

export const repoEditBranchProtection = defineGiteaOperation({
  operationId: 'repoEditBranchProtection',
  method: 'PATCH',
  path: '/repos/{owner}/{repo}/branch_protections/{name}',
  tags: ['repository'],
  summary: 'Change a protection rule; a field left out of the body keeps its value',
  params: ruleParams,
  body: EditBranchProtectionOption,
  success: 200,
  response: reply.one(BranchProtection),
  scopes: ['repository'],
  guards: ['repo', 'signedIn', 'repoAdmin', 'notArchived'],
  errors: [
    protectionErrors[0],
    { code: 404, reason: 'no such rule or repository' },
    { code: 422, reason: 'an allow-listed user does not exist' },
    { code: 423, reason: 'repo is archived' },
  ],
});

export const repoDeleteBranchProtection = defineGiteaOperation({
  operationId: 'repoDeleteBranchProtection',
  method: 'DELETE',
  path: '/repos/{owner}/{repo}/branch_protections/{name}',
  tags: ['repository'],
  summary: 'Remove a protection rule',
  params: ruleParams,
  body: null,
  success: 204,
  response: null,
  scopes: ['repository'],
  guards: ['repo', 'signedIn', 'repoAdmin', 'notArchived'],
  errors: [protectionErrors[0], { code: 404, reason: 'no such rule or repository' }, { code: 423, reason: 'repo is archived' }],
});
