import type { Db } from '../open.js';
import { ReadCache } from '../read-cache.js';

export interface UserRow {
  id: number;
  name: string;
  lower_name: string;
  full_name: string;
  email: string;
  password_hash: string;
  is_admin: number;
  is_active: number;
  prohibit_login: number;
  visibility: string;
  created_at: number;
  updated_at: number;
  last_login_at: number;
  /** 0: an individual account; 1: an organisation (Gitea's UserType), which never signs in. */
  type: number;
  description: string;
  website: string;
  location: string;
  repo_admin_change_team_access: number;
}

export type NewUser = Pick<UserRow, 'name' | 'full_name' | 'email' | 'password_hash' | 'is_admin' | 'visibility' | 'created_at'>;

/** SQL for users. */
export function createUserRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO users (name, lower_name, full_name, email, password_hash, is_admin, visibility, created_at, updated_at)
     VALUES (@name, lower(@name), @full_name, @email, @password_hash, @is_admin, @visibility, @created_at, @created_at)`,
  );
  const byId = db.prepare('SELECT * FROM users WHERE id = ?');
  const byName = db.prepare('SELECT * FROM users WHERE lower_name = lower(?)');
  // An address names a person: organisations' addresses (optional, not unique) are never matched.
  const byEmail = db.prepare('SELECT * FROM users WHERE lower(email) = lower(?) AND type = 0');
  const count = db.prepare('SELECT count(*) AS n FROM users');
  const touchLogin = db.prepare('UPDATE users SET last_login_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM users WHERE id = ?');
  // Individuals only, as Gitea's GetAllUsers (organisations are listed by the organisation repository).
  const all = db.prepare('SELECT * FROM users WHERE type = 0 ORDER BY id');
  const setPassword = db.prepare('UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?');
  const cache = ReadCache.of(db);
  return {
    insert: (u: NewUser): number => cache.write(() => Number(insert.run(u).lastInsertRowid)),
    byId: (id: number) => cache.get('users.id', id, () => byId.get(id) as UserRow | undefined),
    // Names are matched case-insensitively (ASCII, as SQLite's lower()).
    byName: (name: string) => cache.get('users.name', name, () => byName.get(name) as UserRow | undefined),
    // Cached like the other lookups: commit lists ask for every commit's author and committer.
    byEmail: (email: string) => cache.get('users.email', email.replace(/[A-Z]/g, (c) => c.toLowerCase()), () => byEmail.get(email) as UserRow | undefined),
    count: () => (count.get() as { n: number }).n,
    touchLogin: (id: number, at: number) => cache.write(() => void touchLogin.run(at, id)),
    remove: (id: number) => cache.write(() => void remove.run(id)),
    /** Every individual account, oldest first (the admin command line lists them). */
    all: () => all.all() as UserRow[],
    setPasswordHash: (id: number, hash: string, at: number) => cache.write(() => void setPassword.run(hash, at, id)),
    /** Changes whenever an account may have changed: answers that show accounts can be kept under it. */
    generation: () => cache.generation(),
  };
}

export type UserRepo = ReturnType<typeof createUserRepo>;
