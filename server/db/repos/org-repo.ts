import type { Db } from '../open.js';
import { ReadCache } from '../read-cache.js';
import type { UserRow } from './user-repo.js';

/** Access a team gives its members to the organisation's repositories. */
export type TeamAccess = 'read' | 'write' | 'admin' | 'owner';

export interface TeamRow {
  id: number;
  org_id: number;
  name: string;
  lower_name: string;
  description: string;
  authorize: TeamAccess;
  includes_all_repositories: number;
  can_create_org_repo: number;
  created_at: number;
}

/** An organisation to insert (a `users` row of type 1). */
export interface NewOrg {
  name: string;
  full_name: string;
  email: string;
  description: string;
  website: string;
  location: string;
  visibility: string;
  repo_admin_change_team_access: number;
  created_at: number;
}

export type OrgPatch = Partial<Pick<UserRow, 'full_name' | 'email' | 'description' | 'website' | 'location' | 'visibility' | 'repo_admin_change_team_access'>>;

const RANK: Record<TeamAccess, number> = { read: 1, write: 2, admin: 3, owner: 4 };

/** SQL for organisations (rows of `users` with type 1), their teams and team members. */
export function createOrgRepo(db: Db) {
  const insertOrg = db.prepare(
    `INSERT INTO users (name, lower_name, full_name, email, password_hash, is_admin, visibility, created_at, updated_at, type, description, website, location, repo_admin_change_team_access)
     VALUES (@name, lower(@name), @full_name, @email, '', 0, @visibility, @created_at, @created_at, 1, @description, @website, @location, @repo_admin_change_team_access)`,
  );
  const insertTeam = db.prepare(
    `INSERT INTO teams (org_id, name, lower_name, description, authorize, includes_all_repositories, can_create_org_repo, created_at)
     VALUES (@org_id, @name, lower(@name), @description, @authorize, 1, @can_create_org_repo, @created_at)`,
  );
  const insertMember = db.prepare('INSERT OR IGNORE INTO team_users (team_id, org_id, user_id, created_at) VALUES (?, ?, ?, ?)');
  const deleteMember = db.prepare('DELETE FROM team_users WHERE team_id = ? AND user_id = ?');
  const orgByName = db.prepare('SELECT * FROM users WHERE lower_name = lower(?) AND type = 1');
  const allOrgs = db.prepare('SELECT * FROM users WHERE type = 1 ORDER BY lower_name');
  const orgsOf = db.prepare(
    'SELECT u.* FROM users u WHERE u.type = 1 AND EXISTS (SELECT 1 FROM team_users t WHERE t.org_id = u.id AND t.user_id = ?) ORDER BY u.lower_name',
  );
  const teamsOf = db.prepare('SELECT * FROM teams WHERE org_id = ? ORDER BY lower_name');
  const teamById = db.prepare('SELECT * FROM teams WHERE id = ?');
  const accessOf = db.prepare('SELECT t.authorize AS a, t.can_create_org_repo AS c FROM team_users m JOIN teams t ON t.id = m.team_id WHERE m.org_id = ? AND m.user_id = ?');
  const inTeam = db.prepare('SELECT 1 FROM team_users WHERE team_id = ? AND user_id = ?');
  const members = db.prepare('SELECT u.* FROM users u WHERE EXISTS (SELECT 1 FROM team_users t WHERE t.org_id = ? AND t.user_id = u.id) ORDER BY u.id');
  const teamMembers = db.prepare('SELECT u.* FROM users u JOIN team_users t ON t.user_id = u.id WHERE t.team_id = ? ORDER BY u.lower_name');
  const ownerCount = db.prepare("SELECT count(*) AS n FROM team_users m JOIN teams t ON t.id = m.team_id WHERE m.team_id = ? AND t.authorize = 'owner'");
  const repoCount = db.prepare('SELECT count(*) AS n FROM repositories WHERE owner_id = ?');
  const removeOrg = db.prepare('DELETE FROM users WHERE id = ? AND type = 1');
  const cache = ReadCache.of(db);

  return {
    /** Inserts the organisation, its "Owners" team and the creator as that team's member, in one transaction. */
    create: (org: NewOrg, creatorId: number): number =>
      cache.write(() =>
        db.transaction(() => {
          const id = Number(insertOrg.run(org).lastInsertRowid);
          const team = Number(
            insertTeam.run({ org_id: id, name: 'Owners', description: '', authorize: 'owner', can_create_org_repo: 1, created_at: org.created_at }).lastInsertRowid,
          );
          insertMember.run(team, id, creatorId, org.created_at);
          return id;
        })(),
      ),
    /** Changes the organisation's own fields (those given). */
    update: (id: number, patch: OrgPatch, at: number): void =>
      cache.write(() => {
        const keys = Object.keys(patch) as (keyof OrgPatch)[];
        if (!keys.length) return;
        // Column names come from OrgPatch's keys only, never from input.
        db.prepare(`UPDATE users SET ${keys.map((k) => `${k} = @${k}`).join(', ')}, updated_at = @at WHERE id = @id AND type = 1`).run({ ...patch, at, id });
      }),
    byName: (name: string) => cache.get('orgs.name', name, () => orgByName.get(name) as UserRow | undefined),
    /** Every organisation, by name. */
    all: () => allOrgs.all() as UserRow[],
    /** The organisations `userId` belongs to (through any team), by name. */
    orgsOf: (userId: number) => orgsOf.all(userId) as UserRow[],
    teams: (orgId: number) => teamsOf.all(orgId) as TeamRow[],
    team: (id: number) => cache.get('teams.id', id, () => teamById.get(id) as TeamRow | undefined),
    /**
     * What `userId` gets from its teams in `orgId`: the highest access of any of them (null: not a
     * member) and whether one of them may create repositories.
     */
    access: (orgId: number, userId: number) =>
      cache.get('orgs.access', `${orgId}:${userId}`, () => {
        let best: TeamAccess | null = null;
        let create = false;
        for (const r of accessOf.all(orgId, userId) as { a: TeamAccess; c: number }[]) {
          if (!best || RANK[r.a] > RANK[best]) best = r.a;
          create ||= !!r.c || r.a === 'owner';
        }
        return { access: best, canCreateRepo: create };
      }),
    inTeam: (teamId: number, userId: number) => !!inTeam.get(teamId, userId),
    /** Members of the organisation (of any team), oldest account first. */
    members: (orgId: number) => members.all(orgId) as UserRow[],
    teamMembers: (teamId: number) => teamMembers.all(teamId) as UserRow[],
    /** How many members an owners team has (0 for another team). */
    ownerCount: (teamId: number) => (ownerCount.get(teamId) as { n: number }).n,
    addMember: (team: TeamRow, userId: number, at: number) => cache.write(() => void insertMember.run(team.id, team.org_id, userId, at)),
    removeMember: (team: TeamRow, userId: number) => cache.write(() => void deleteMember.run(team.id, userId)),
    repoCount: (orgId: number) => (repoCount.get(orgId) as { n: number }).n,
    /** Deletes the organisation; its teams and memberships go with it (foreign keys). */
    remove: (id: number) => cache.write(() => void removeOrg.run(id)),
  };
}

export type OrgRepo = ReturnType<typeof createOrgRepo>;
