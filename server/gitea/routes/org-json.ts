import type { ModelOf } from '../../../protocol/model.js';
import type { Organization, Team } from '../../../protocol/gitea/index.js';
import type { TeamRow } from '../../db/repos/org-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';

/** An organisation as the API shows it (Gitea's ToOrganization); anonymous callers do not see its address. */
export function toOrganization(org: UserRow, viewer: UserRow | null): ModelOf<typeof Organization> {
  return {
    id: org.id,
    name: org.name,
    full_name: org.full_name,
    email: viewer ? org.email : '',
    avatar_url: '',
    description: org.description,
    website: org.website,
    location: org.location,
    visibility: org.visibility as 'public',
    repo_admin_change_team_access: !!org.repo_admin_change_team_access,
    username: org.name,
  };
}

/** Gitea's repository units, in its order; the external tracker and wiki are never more than readable. */
const UNITS = ['repo.code', 'repo.issues', 'repo.pulls', 'repo.releases', 'repo.wiki', 'repo.ext_wiki', 'repo.ext_issues', 'repo.projects', 'repo.packages', 'repo.actions'];
const READ_ONLY_UNITS = new Set(['repo.ext_wiki', 'repo.ext_issues']);

/** A team as the API shows it (Gitea's ToTeam, with its organisation); units_map keys sorted as Go writes a map. */
export function toTeam(team: TeamRow, org: UserRow, viewer: UserRow | null): ModelOf<typeof Team> {
  const unitsMap = Object.fromEntries(
    [...UNITS].sort().map((u) => [u, team.authorize === 'owner' && READ_ONLY_UNITS.has(u) ? 'read' : team.authorize]),
  );
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    organization: toOrganization(org, viewer),
    includes_all_repositories: !!team.includes_all_repositories,
    permission: team.authorize,
    units: UNITS,
    units_map: unitsMap,
    can_create_org_repo: !!team.can_create_org_repo,
  };
}
