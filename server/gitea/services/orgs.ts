import type { OrgPatch, OrgRepo, TeamAccess, TeamRow } from '../../db/repos/org-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { forbidden, notFound, unprocessable } from '../../errors.js';
import type { Authenticated } from './accounts.js';
import { accountVisibleTo } from './visibility.js';

/** A new organisation's fields, as CreateOrgOption carries them. */
export interface NewOrgInput {
  username: string;
  full_name?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: string;
  repo_admin_change_team_access?: boolean;
}

/** What the organisation service needs. */
export interface OrgServiceDeps {
  rows: OrgRepo;
  /** Every account by name (users and organisations share names) and by id. */
  accounts: { byName(name: string): UserRow | undefined; byId(id: number): UserRow | undefined };
  /** Gitea's IsUsableUsername (422 for an invalid or reserved name). */
  checkName(name: string): void;
  now?: () => number;
}

const NOT_FOUND = 'not found';

/**
 * Organisations: creation with an Owners team, who may see one, who belongs
 * to it, and what its teams give their members. The repository permission
 * model asks `access` (a member of a team reaches every repository of the
 * organisation at the team's level).
 */
export function createOrgService(deps: OrgServiceDeps) {
  const { rows } = deps;
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));

  const access = (org: UserRow, user: UserRow | null): TeamAccess | null => (user ? rows.access(org.id, user.id).access : null);
  const isMember = (org: UserRow, user: UserRow | null): boolean => access(org, user) !== null;
  const isOwner = (org: UserRow, user: UserRow | null): boolean => !!user && (!!user.is_admin || access(org, user) === 'owner');
  /** Gitea's HasOrgOrUserVisible: by visibility, and members always see their organisation. */
  const visibleTo = (org: UserRow, viewer: UserRow | null): boolean => accountVisibleTo(org, viewer) || isMember(org, viewer);

  return {
    access,
    isMember,
    isOwner,
    visibleTo,

    /** Creates an organisation owned by `creator` (Gitea's checks in its order: the name's rules, then whether it is taken). */
    create(creator: UserRow, input: NewOrgInput): UserRow {
      deps.checkName(input.username);
      if (deps.accounts.byName(input.username)) throw unprocessable(`user already exists [name: ${input.username}]`);
      const id = rows.create(
        {
          name: input.username,
          full_name: input.full_name ?? '',
          email: input.email ?? '',
          description: input.description ?? '',
          website: input.website ?? '',
          location: input.location ?? '',
          visibility: input.visibility || 'public',
          repo_admin_change_team_access: input.repo_admin_change_team_access ? 1 : 0,
          created_at: now(),
        },
        creator.id,
      );
      return deps.accounts.byId(id)!;
    },

    /**
     * The `org` guard: an organisation the caller may see. One it may not see answers as one that
     * does not exist; a public-only token reaches public organisations only (Gitea's checkTokenPublicOnly).
     */
    lookup(name: string, auth: Authenticated | null): UserRow {
      const org = rows.byName(name);
      if (!org || !visibleTo(org, auth?.user ?? null)) throw notFound(NOT_FOUND);
      if (auth?.scopes?.publicOnly && org.visibility !== 'public') throw forbidden('token scope is limited to public orgs');
      return org;
    },

    edit(org: UserRow, patch: { full_name?: string; email?: string; description?: string; website?: string; location?: string; visibility?: string; repo_admin_change_team_access?: boolean }): UserRow {
      const p: OrgPatch = {};
      for (const k of ['full_name', 'email', 'description', 'website', 'location'] as const) if (patch[k] !== undefined) p[k] = patch[k];
      if (patch.visibility) p.visibility = patch.visibility;
      if (patch.repo_admin_change_team_access !== undefined) p.repo_admin_change_team_access = patch.repo_admin_change_team_access ? 1 : 0;
      rows.update(org.id, p, now());
      // The body was read since the guard found the organisation: it may have been deleted meanwhile.
      const row = deps.accounts.byId(org.id);
      if (!row) throw notFound(NOT_FOUND);
      return row;
    },

    /** Gitea refuses to delete an organisation that still owns repositories (its error text; a 422 here, where Gitea answers 500). */
    remove(org: UserRow): void {
      if (rows.repoCount(org.id) > 0) throw unprocessable(`user still has ownership of repositories [uid: ${org.id}]`);
      rows.remove(org.id);
    },

    /** GET /orgs: public ones; limited ones too for a signed-in caller; private ones for a site admin only. */
    listVisible(auth: Authenticated | null): UserRow[] {
      const viewer = auth?.user ?? null;
      const levels = new Set(['public', ...(viewer ? ['limited'] : []), ...(viewer?.is_admin ? ['private'] : [])]);
      if (auth?.scopes?.publicOnly) levels.clear(), levels.add('public');
      return rows.all().filter((o) => levels.has(o.visibility));
    },

    /**
     * The organisations `user` belongs to, as `auth` may list them (Gitea's DoerViewOtherVisibility):
     * all of them for the user and site admins, public and limited ones for other signed-in callers.
     */
    orgsOf(user: UserRow, auth: Authenticated | null): UserRow[] {
      const viewer = auth?.user ?? null;
      const all = rows.orgsOf(user.id);
      const publicOnly = !!auth?.scopes?.publicOnly;
      if (!publicOnly && viewer && (viewer.is_admin || viewer.id === user.id)) return all;
      return all.filter((o) => o.visibility === 'public' || (!publicOnly && !!viewer && o.visibility === 'limited'));
    },

    /** Members, to members and site admins; others see the public members, and memberships are never public here. */
    members: (org: UserRow, viewer: UserRow | null): UserRow[] => (viewer && (viewer.is_admin || isMember(org, viewer)) ? rows.members(org.id) : []),

    /**
     * GET /orgs/{org}/members/{username}: a member or site admin learns the answer (true/false);
     * someone asking about themselves learns false; anyone else is sent to the public check ('public').
     */
    membership(org: UserRow, viewer: UserRow, user: UserRow): boolean | 'public' {
      if (viewer.is_admin || isMember(org, viewer)) return isMember(org, user);
      return viewer.id === user.id ? false : 'public';
    },

    teams: (org: UserRow): TeamRow[] => rows.teams(org.id),

    /** The `team` guard: the team and its organisation (404 for an unknown id). */
    team(id: string): { team: TeamRow; org: UserRow } {
      const team = /^\d{1,15}$/.test(id) ? rows.team(Number(id)) : undefined;
      const org = team ? deps.accounts.byId(team.org_id) : undefined;
      if (!team || !org) throw notFound(NOT_FOUND);
      return { team, org };
    },

    /** The `teamMember` guard: the team's members, the organisation's owners and site admins pass; other members 403, outsiders 404. */
    checkTeamMember(team: TeamRow, org: UserRow, viewer: UserRow): void {
      if (isOwner(org, viewer) || rows.inTeam(team.id, viewer.id)) return;
      if (isMember(org, viewer)) throw forbidden('Must be a team member');
      throw notFound(NOT_FOUND);
    },

    teamMembers: (team: TeamRow): UserRow[] => rows.teamMembers(team.id),

    addTeamMember(team: TeamRow, user: UserRow): void {
      if (user.type !== 0) throw unprocessable(`${user.name} is an organization and cannot be a team member`);
      rows.addMember(team, user.id, now());
    },

    /** Removing someone who is not in the team changes nothing; the Owners team keeps its last member (Gitea's ErrLastOrgOwner). */
    removeTeamMember(team: TeamRow, user: UserRow): void {
      if (!rows.inTeam(team.id, user.id)) return;
      if (team.authorize === 'owner' && rows.ownerCount(team.id) <= 1) throw unprocessable(`user is the last member of owner team [uid: ${user.id}]`);
      rows.removeMember(team, user.id);
    },

    /** Gitea's CanCreateOrgRepo: owners and members of a team allowed to create (site admins always). */
    checkCanCreateRepo(org: UserRow, doer: UserRow): void {
      // The body was read since the guard found the organisation: it may have been deleted meanwhile.
      if (!deps.accounts.byId(org.id)) throw notFound(NOT_FOUND);
      if (doer.is_admin || rows.access(org.id, doer.id).canCreateRepo) return;
      throw forbidden('Given user is not allowed to create repository in organization.');
    },
  };
}

/** The organisation service's interface. */
export type OrgService = ReturnType<typeof createOrgService>;
