import { defineGiteaOperation, gp, reply } from '../operation.js';
import { Repository, SearchResults } from '../models/repository.js';

const page = { page: gp.int('Which page to answer, counting from 1 (0 or less: the first).'), limit: gp.int('Entries per page: 30 when unset or 0 or less, at most 50.') };

export const repoSearch = defineGiteaOperation({
  operationId: 'repoSearch',
  method: 'GET',
  path: '/repos/search',
  tags: ['repository'],
  summary: 'Find repositories the caller may see, by name (and description), owner, kind and state, a page at a time',
  params: {
    q: gp.query('Comma-separated terms; a repository matches when its name contains one (case ignored), or `owner/name` when the query has one slash.'),
    topic: gp.bool('Match the terms against topics only (repositories here have none, so nothing matches).'),
    includeDesc: gp.bool('Also match the terms against descriptions.'),
    uid: gp.int('Only repositories this user owns or collaborates on.'),
    priority_owner_id: gp.int('List this owner\'s repositories first.'),
    team_id: gp.int('Only repositories of this team (there are no teams here: nothing matches).'),
    starredBy: gp.int('Only repositories this user starred (there are no stars here: nothing matches).'),
    private: gp.bool('Include private repositories the caller may read (default true for signed-in callers).'),
    is_private: gp.bool('Only private (true) or only public (false) repositories.'),
    template: gp.bool('Only template (true) or only non-template (false) repositories.'),
    archived: gp.bool('Only archived (true) or only active (false) repositories.'),
    mode: gp.query('fork, source, mirror or collaborative (with uid: shared with that user, not owned).'),
    exclusive: gp.bool('With uid: only the repositories that user owns.'),
    sort: gp.query('alpha (owner, then name; the default), created, updated, size, git_size, lfs_size, id, stars or forks.'),
    order: gp.query('asc (the default) or desc; ignored without sort.'),
    ...page,
  },
  body: null,
  success: 200,
  response: reply.one(SearchResults),
  scopes: ['repository'],
  guards: [],
  errors: [
    { code: 403, reason: 'token scope' },
    { code: 422, reason: 'Invalid search mode, sort mode or sort order; or too many comma-separated terms' },
  ],
});

export const userCurrentListRepos = defineGiteaOperation({
  operationId: 'userCurrentListRepos',
  method: 'GET',
  path: '/user/repos',
  tags: ['user'],
  summary: 'The repositories the signed-in user owns or collaborates on, by owner and name, a page at a time',
  params: page,
  body: null,
  success: 200,
  response: reply.list(Repository),
  scopes: ['user', 'repository'],
  guards: ['signedIn'],
  errors: [{ code: 403, reason: 'token lacks read:user or read:repository' }],
});

export const userListRepos = defineGiteaOperation({
  operationId: 'userListRepos',
  method: 'GET',
  path: '/users/{username}/repos',
  tags: ['user'],
  summary: 'The repositories a user owns that the caller may see, oldest first, a page at a time',
  params: { username: gp.path('Name of the owner.'), ...page },
  body: null,
  success: 200,
  response: reply.list(Repository),
  scopes: ['user', 'repository'],
  guards: ['contextUser'],
  errors: [
    { code: 403, reason: 'token lacks read:user or read:repository, or a public-only token asks for a user who is not public' },
    { code: 404, reason: 'no such user, or one the caller may not see' },
  ],
});
