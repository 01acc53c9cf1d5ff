import { rq, requestModel } from '../request.js';
import { nullable, responseModel, t } from '../schema.js';

const VISIBILITY = ['public', 'limited', 'private'] as const;

/** Gitea's Organization; `username` (a copy of `name`, kept for old clients) comes last. */
export const Organization = responseModel('Organization', 'An organisation: an owner of repositories whose members are organised in teams.', {
  id: t.int64('Numeric id (shared with user accounts: an organisation is an owner like a user).'),
  name: t.string('Organisation name (repeated in `username`).'),
  full_name: t.string('Display name.'),
  email: t.string('Contact address; empty for anonymous callers.'),
  avatar_url: t.string('Avatar image address; empty here.'),
  description: t.string(),
  website: t.string(),
  location: t.string(),
  visibility: t.enum(VISIBILITY, 'Who may see the organisation: everyone (public), signed-in users (limited), or its members and site admins (private).'),
  repo_admin_change_team_access: t.bool('Whether repository admins may change which teams reach a repository (stored, not enforced here).'),
  username: t.string('Same as name (deprecated).'),
});

/** Gitea's Team (without the fields newer releases added for security teams and team visibility). */
export const Team = responseModel('Team', 'A team of an organisation; every team here reaches all of the organisation\'s repositories.', {
  id: t.int64(),
  name: t.string(),
  description: t.string(),
  organization: nullable(t.ref(Organization, 'The organisation the team belongs to.')),
  includes_all_repositories: t.bool('Always true here.'),
  permission: t.enum(['none', 'read', 'write', 'admin', 'owner'] as const, 'Access the members get to the organisation\'s repositories.'),
  units: t.strings('Repository units the team reaches (deprecated in favour of units_map).'),
  units_map: t.object('Access per repository unit.'),
  can_create_org_repo: t.bool('Whether members may create repositories in the organisation.'),
});

export const CreateOrgOption = requestModel('CreateOrgOption', 'Body of a new organisation; the creator becomes the only member of its Owners team.', {
  username: rq.string('UserName', { required: true, username: true, maxSize: 40 }, 'Organisation name: the same rules as a user name, and not taken by a user or an organisation.'),
  full_name: rq.string('FullName', { maxSize: 100 }),
  email: rq.string('Email', { maxSize: 255 }),
  description: rq.string('Description', { maxSize: 255 }),
  website: rq.string('Website', { maxSize: 255 }),
  location: rq.string('Location', { maxSize: 50 }),
  visibility: rq.string('Visibility', { in: ['', ...VISIBILITY] }, '`public` when empty.'),
  repo_admin_change_team_access: rq.bool('RepoAdminChangeTeamAccess'),
});

export const EditOrgOption = requestModel('EditOrgOption', 'Changes to an organisation; a field left out keeps its value.', {
  full_name: rq.string('FullName', { maxSize: 100 }),
  email: rq.string('Email', { maxSize: 255 }),
  description: rq.string('Description', { maxSize: 255 }),
  website: rq.string('Website', { maxSize: 255 }),
  location: rq.string('Location', { maxSize: 50 }),
  visibility: rq.string('Visibility', { in: ['', ...VISIBILITY] }),
  repo_admin_change_team_access: rq.bool('RepoAdminChangeTeamAccess'),
});
