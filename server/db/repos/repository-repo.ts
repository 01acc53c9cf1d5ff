import type { Db } from '../open.js';
import { ReadCache } from '../read-cache.js';

export interface RepositoryRow {
  id: number;
  owner_id: number;
  name: string;
  lower_name: string;
  description: string;
  website: string;
  default_branch: string;
  is_private: number;
  is_archived: number;
  archived_at: number;
  is_mirror: number;
  is_template: number;
  original_url: string;
  created_at: number;
  updated_at: number;
}

export type RepositoryPatch = Partial<Pick<RepositoryRow, 'name' | 'description' | 'website' | 'default_branch' | 'is_private' | 'is_archived' | 'archived_at' | 'is_template' | 'is_mirror' | 'original_url'>>;

export interface CollaboratorRow {
  repo_id: number;
  user_id: number;
  mode: 'read' | 'write' | 'admin';
  created_at: number;
}

/** SQL for repositories and their collaborators. */
export function createRepositoryRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO repositories (owner_id, name, lower_name, description, website, default_branch, is_private, is_mirror, is_template, original_url, created_at, updated_at)
     VALUES (@owner_id, @name, lower(@name), @description, @website, @default_branch, @is_private, @is_mirror, @is_template, @original_url, @created_at, @created_at)`,
  );
  const byId = db.prepare('SELECT * FROM repositories WHERE id = ?');
  const byOwnerName = db.prepare('SELECT * FROM repositories WHERE owner_id = ? AND lower_name = lower(?)');
  const remove = db.prepare('DELETE FROM repositories WHERE id = ?');
  const all = db.prepare('SELECT * FROM repositories ORDER BY id');
  const touch = db.prepare('UPDATE repositories SET updated_at = ? WHERE id = ?');
  const collab = db.prepare('SELECT * FROM collaborators WHERE repo_id = ? AND user_id = ?');
  // Gitea lists collaborations in the order they were made (rowid survives a permission change).
  const collabs = db.prepare('SELECT * FROM collaborators WHERE repo_id = ? ORDER BY rowid');
  const setCollab = db.prepare(
    'INSERT INTO collaborators (repo_id, user_id, mode, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (repo_id, user_id) DO UPDATE SET mode = excluded.mode',
  );
  const removeCollab = db.prepare('DELETE FROM collaborators WHERE repo_id = ? AND user_id = ?');
  const cache = ReadCache.of(db);
  return {
    insert: (r: Pick<RepositoryRow, 'owner_id' | 'name' | 'description' | 'website' | 'default_branch' | 'is_private' | 'is_mirror' | 'is_template' | 'original_url' | 'created_at'>): number =>
      cache.write(() => Number(insert.run(r).lastInsertRowid)),
    byId: (id: number) => cache.get('repositories.id', id, () => byId.get(id) as RepositoryRow | undefined),
    byOwnerName: (ownerId: number, name: string) => cache.get('repositories.name', `${ownerId}/${name}`, () => byOwnerName.get(ownerId, name) as RepositoryRow | undefined),
    update(id: number, patch: RepositoryPatch, at: number): void {
      const keys = Object.keys(patch) as (keyof RepositoryPatch)[];
      const sets = keys.map((k) => `${k} = @${k}`);
      if ('name' in patch) sets.push('lower_name = lower(@name)');
      cache.write(() => db.prepare(`UPDATE repositories SET ${[...sets, 'updated_at = @at'].join(', ')} WHERE id = @id`).run({ ...patch, at, id }));
    },
    all: () => all.all() as RepositoryRow[],
    touch: (id: number, at: number) => cache.write(() => void touch.run(at, id)),
    remove: (id: number) => cache.write(() => void remove.run(id)),
    collaborator: (repoId: number, userId: number) => cache.get('collaborators', `${repoId}/${userId}`, () => collab.get(repoId, userId) as CollaboratorRow | undefined),
    collaborators: (repoId: number) => collabs.all(repoId) as CollaboratorRow[],
    setCollaborator: (repoId: number, userId: number, mode: CollaboratorRow['mode'], at: number) => cache.write(() => void setCollab.run(repoId, userId, mode, at)),
    removeCollaborator: (repoId: number, userId: number) => cache.write(() => removeCollab.run(repoId, userId).changes > 0),
  };
}

export type RepositoryRepo = ReturnType<typeof createRepositoryRepo>;
