import type { Db } from '../open.js';
import { ReadCache } from '../read-cache.js';

export interface TokenRow {
  id: number;
  user_id: number;
  name: string;
  token_hash: string;
  last_eight: string;
  /** Comma-separated, normalised scope list. */
  scopes: string;
  created_at: number;
  last_used_at: number;
}

/** SQL for access tokens (stored hashed). */
export function createTokenRepo(db: Db) {
  const insert = db.prepare(
    'INSERT INTO access_tokens (user_id, name, token_hash, last_eight, scopes, created_at) VALUES (@user_id, @name, @token_hash, @last_eight, @scopes, @created_at)',
  );
  const byHash = db.prepare('SELECT * FROM access_tokens WHERE token_hash = ?');
  // Gitea lists tokens newest first.
  const byUser = db.prepare('SELECT * FROM access_tokens WHERE user_id = ? ORDER BY created_at DESC, id DESC');
  const byName = db.prepare('SELECT * FROM access_tokens WHERE user_id = ? AND name = ?');
  const byId = db.prepare('SELECT * FROM access_tokens WHERE user_id = ? AND id = ?');
  const remove = db.prepare('DELETE FROM access_tokens WHERE id = ?');
  const touch = db.prepare('UPDATE access_tokens SET last_used_at = ? WHERE id = ?');
  const cache = ReadCache.of(db);
  return {
    insert: (t: Omit<TokenRow, 'id' | 'last_used_at'>): number => cache.write(() => Number(insert.run(t).lastInsertRowid)),
    byHash: (hash: string) => cache.get('tokens.hash', hash, () => byHash.get(hash) as TokenRow | undefined),
    list: (userId: number) => byUser.all(userId) as TokenRow[],
    byName: (userId: number, name: string) => byName.get(userId, name) as TokenRow | undefined,
    byId: (userId: number, id: number) => byId.get(userId, id) as TokenRow | undefined,
    remove: (id: number) => cache.write(() => void remove.run(id)),
    touch: (id: number, at: number) => cache.write(() => void touch.run(at, id)),
  };
}

export type TokenRepo = ReturnType<typeof createTokenRepo>;
