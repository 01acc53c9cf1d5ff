import type { Db } from '../open.js';

/** A signed-in browser session. */
export interface WebSessionRow {
  id_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

/** SQL for web sign-in sessions (the id is stored hashed). */
export function createWebSessionRepo(db: Db) {
  const insert = db.prepare('INSERT INTO web_sessions (id_hash, user_id, created_at, expires_at) VALUES (@id_hash, @user_id, @created_at, @expires_at)');
  const byHash = db.prepare('SELECT * FROM web_sessions WHERE id_hash = ?');
  const remove = db.prepare('DELETE FROM web_sessions WHERE id_hash = ?');
  const sweep = db.prepare('DELETE FROM web_sessions WHERE expires_at < ?');
  return {
    insert: (s: WebSessionRow) => void insert.run(s),
    byHash: (hash: string) => byHash.get(hash) as WebSessionRow | undefined,
    remove: (hash: string) => void remove.run(hash),
    /** Forgets sessions that expired before `at`. */
    sweep: (at: number) => void sweep.run(at),
  };
}

/** The web session repository's interface. */
export type WebSessionRepo = ReturnType<typeof createWebSessionRepo>;
