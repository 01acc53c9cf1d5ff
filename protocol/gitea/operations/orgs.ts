import { defineGiteaOperation, gp, reply } from '../operation.js';
import { CreateOrgOption, EditOrgOption, Organization, Team } from '../models/org.js';
import { CreateRepoOption, Repository } from '../models/repository.js';
import { User } from '../models/user.js';

const page = { page: gp.int('Which page to answer, counting from 1 (0 or less: the first).'), limit: gp.int('Entries per page: 30 when unset or 0 or less, at most 50.') };
const orgParam = { org: gp.path('Name of the organisation.') };
const teamParam = { id: gp.path('Numeric id of the team.') };
const orgNotFound = { code: 404, reason: 'no such organisation, or one the caller may not see' } as const;
const teamNotFound = { code: 404, reason: 'no such team, or the caller is not a member of its organisation' } as const;
const scope = { code: 403, reason: 'the token lacks the organization scope' } as const;

export const orgCreate = defineGiteaOperation({
  operationId: 'orgCreate',
  method: 'POST',
  path: '/orgs',
  tags: ['organization'],
  summary: 'Make a new organisation; the caller becomes the only member of its Owners team',
  params: {},
  body: CreateOrgOption,
  bodyRequired: true,
  success: 201,
  response: reply.one(Organization),
  scopes: ['organization'],
  guards: ['signedIn'],
  errors: [scope, { code: 422, reason: 'invalid options, a reserved or invalid name, or a name taken by a user or an organisation' }],
});

export const orgGetAll = defineGiteaOperation({
  operationId: 'orgGetAll',
  method: 'GET',
  path: '/orgs',
  tags: ['organization'],
  summary: 'The organisations the caller may see, by name (public ones; limited ones too when signed in; all for a site admin)',
  params: page,
  body: null,
  success: 200,
  response: reply.list(Organization),
  scopes: ['organization'],
  guards: [],
  errors: [scope],
});

export const orgGet = defineGiteaOperation({
  operationId: 'orgGet',
  method: 'GET',
  path: '/orgs/{org}',
  tags: ['organization'],
  summary: 'One organisation, if the caller may see it',
  params: orgParam,
  body: null,
  success: 200,
  response: reply.one(Organization),
  scopes: ['organization'],
  guards: ['org'],
  errors: [{ code: 403, reason: 'token scope, or a public-only token and an organisation that is not public' }, orgNotFound],
});

export const orgEdit = defineGiteaOperation({
  operationId: 'orgEdit',
  method: 'PATCH',
  path: '/orgs/{org}',
  tags: ['organization'],
  summary: 'Change an organisation\'s details or visibility (owners and site admins)',
  params: orgParam,
  body: EditOrgOption,
  bodyRequired: true,
  success: 200,
  response: reply.one(Organization),
  scopes: ['organization'],
  guards: ['org', 'signedIn', 'orgOwner'],
  errors: [{ code: 403, reason: 'not an owner of the organisation, or token scope' }, orgNotFound, { code: 422, reason: 'invalid options' }],
});

export const orgDelete = defineGiteaOperation({
  operationId: 'orgDelete',
  method: 'DELETE',
  path: '/orgs/{org}',
  tags: ['organization'],
  summary: 'Delete an organisation that owns no repository any more (owners and site admins)',
  params: orgParam,
  body: null,
  success: 204,
  response: null,
  scopes: ['organization'],
  guards: ['org', 'signedIn', 'orgOwner'],
  errors: [{ code: 403, reason: 'not an owner of the organisation, or token scope' }, orgNotFound, { code: 422, reason: 'the organisation still owns repositories' }],
});

export const orgListCurrentUserOrgs = defineGiteaOperation({
  operationId: 'orgListCurrentUserOrgs',
  method: 'GET',
  path: '/user/orgs',
  tags: ['organization'],
  summary: 'The organisations the signed-in user belongs to, by name',
  params: page,
  body: null,
  success: 200,
  response: reply.list(Organization),
  scopes: ['user', 'organization'],
  guards: ['signedIn'],
  errors: [{ code: 403, reason: 'the token lacks the user or organization scope' }],
});

export const orgListUserOrgs = defineGiteaOperation({
  operationId: 'orgListUserOrgs',
  method: 'GET',
  path: '/users/{username}/orgs',
  tags: ['organization'],
  summary: 'The organisations a user belongs to that the caller may see, by name',
  params: { username: gp.path('Name of the user.'), ...page },
  body: null,
  success: 200,
  response: reply.list(Organization),
  scopes: ['user', 'organization'],
  guards: ['contextUser', 'signedIn'],
  errors: [{ code: 403, reason: 'the token lacks the user or organization scope' }, { code: 404, reason: 'no such user, or one the caller may not see' }],
});

export const orgListMembers = defineGiteaOperation({
  operationId: 'orgListMembers',
  method: 'GET',
  path: '/orgs/{org}/members',
  tags: ['organization'],
  summary: 'An organisation\'s members (to its members and site admins; others see its public members, and memberships here are never public)',
  params: { ...orgParam, ...page },
  body: null,
  success: 200,
  response: reply.list(User),
  scopes: ['organization'],
  guards: ['org', 'signedIn'],
  errors: [scope, orgNotFound],
});

export const orgIsMember = defineGiteaOperation({
  operationId: 'orgIsMember',
  method: 'GET',
  path: '/orgs/{org}/members/{username}',
  tags: ['organization'],
  summary: 'Whether a user is a member: 204 or 404 to members and site admins; others are sent to the public membership check (303)',
  params: { ...orgParam, username: gp.path('Name of the user.') },
  body: null,
  success: 204,
  alsoSuccess: [303],
  response: null,
  scopes: ['organization'],
  guards: ['org', 'signedIn', 'contextUser'],
  errors: [scope, { code: 404, reason: 'no such organisation or user, or the user is not a member' }],
});

export const orgIsPublicMember = defineGiteaOperation({
  operationId: 'orgIsPublicMember',
  method: 'GET',
  path: '/orgs/{org}/public_members/{username}',
  tags: ['organization'],
  summary: 'Whether a user\'s membership is public: memberships here are never made public, so 404 whenever the organisation and the user exist',
  params: { ...orgParam, username: gp.path('Name of the user.') },
  body: null,
  success: 204,
  response: null,
  scopes: ['organization'],
  guards: ['org', 'contextUser'],
  errors: [scope, { code: 404, reason: 'no such organisation or user, or the membership is not public' }],
});

export const orgListTeams = defineGiteaOperation({
  operationId: 'orgListTeams',
  method: 'GET',
  path: '/orgs/{org}/teams',
  tags: ['organization'],
  summary: 'An organisation\'s teams, by name (members and site admins)',
  params: { ...orgParam, ...page },
  body: null,
  success: 200,
  response: reply.list(Team),
  scopes: ['organization'],
  guards: ['org', 'signedIn', 'orgMember'],
  errors: [{ code: 403, reason: 'not a member of the organisation, or token scope' }, orgNotFound],
});

export const orgGetTeam = defineGiteaOperation({
  operationId: 'orgGetTeam',
  method: 'GET',
  path: '/teams/{id}',
  tags: ['organization'],
  summary: 'One team (its members, the organisation\'s owners and site admins)',
  params: teamParam,
  body: null,
  success: 200,
  response: reply.one(Team),
  scopes: ['organization'],
  guards: ['team', 'signedIn', 'teamMember'],
  errors: [{ code: 403, reason: 'a member of the organisation but not of the team, or token scope' }, teamNotFound],
});

export const orgListTeamMembers = defineGiteaOperation({
  operationId: 'orgListTeamMembers',
  method: 'GET',
  path: '/teams/{id}/members',
  tags: ['organization'],
  summary: 'A team\'s members, by name',
  params: { ...teamParam, ...page },
  body: null,
  success: 200,
  response: reply.list(User),
  scopes: ['organization'],
  guards: ['team', 'signedIn', 'teamMember'],
  errors: [{ code: 403, reason: 'a member of the organisation but not of the team, or token scope' }, teamNotFound],
});

/** What adding and removing a team member share: the path, who may (owners of the organisation), no body. */
const teamMemberWrite = {
  path: '/teams/{id}/members/{username}',
  tags: ['organization'],
  params: { ...teamParam, username: gp.path('Name of the user.') },
  body: null,
  success: 204,
  response: null,
  scopes: ['organization'],
  guards: ['team', 'signedIn', 'teamMember', 'orgOwner', 'contextUser'],
} as const;
const teamMemberWriteErrors = [
  { code: 403, reason: 'a member of the organisation but not of the team, or token scope' },
  { code: 404, reason: 'no such team or user, or the caller is not an owner of the organisation' },
] as const;

export const orgAddTeamMember = defineGiteaOperation({
  ...teamMemberWrite,
  operationId: 'orgAddTeamMember',
  method: 'PUT',
  summary: 'Add a user to a team (and so to the organisation); owners of the organisation and site admins',
  errors: [...teamMemberWriteErrors, { code: 422, reason: 'the user is an organisation' }],
});

export const orgRemoveTeamMember = defineGiteaOperation({
  ...teamMemberWrite,
  operationId: 'orgRemoveTeamMember',
  method: 'DELETE',
  summary: 'Remove a user from a team; the last member of the Owners team stays',
  errors: [...teamMemberWriteErrors, { code: 422, reason: 'the user is the last member of the Owners team' }],
});

export const createOrgRepo = defineGiteaOperation({
  operationId: 'createOrgRepo',
  method: 'POST',
  path: '/orgs/{org}/repos',
  tags: ['organization'],
  summary: 'Make a new repository owned by an organisation (members of a team that may create repositories, owners, site admins); auto_init as for /user/repos',
  params: orgParam,
  body: CreateRepoOption,
  success: 201,
  response: reply.one(Repository),
  scopes: ['organization'],
  guards: ['org', 'signedIn'],
  errors: [
    { code: 400, reason: 'with auto_init, a readme, gitignore or license template we do not have; or object_format_name sha256' },
    { code: 403, reason: 'the caller may not create repositories in the organisation, or token scope' },
    orgNotFound,
    { code: 409, reason: 'The repository with the same name already exists.' },
    { code: 422, reason: 'invalid or reserved name' },
  ],
});

export const orgListRepos = defineGiteaOperation({
  operationId: 'orgListRepos',
  method: 'GET',
  path: '/orgs/{org}/repos',
  tags: ['organization'],
  summary: 'An organisation\'s repositories that the caller may read, oldest first',
  params: { ...orgParam, ...page },
  body: null,
  success: 200,
  response: reply.list(Repository),
  scopes: ['organization'],
  guards: ['org'],
  errors: [scope, orgNotFound],
});
