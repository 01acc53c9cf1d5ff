import type { Db } from '../open.js';

/** A registered OAuth2 client. */
export interface OAuth2AppRow {
  id: number;
  user_id: number;
  name: string;
  client_id: string;
  secret_hash: string;
  /** JSON array of strings. */
  redirect_uris: string;
  confidential_client: number;
  skip_secondary_authorization: number;
  created_at: number;
  updated_at: number;
}

/** What a new application row holds. */
export type NewOAuth2App = Omit<OAuth2AppRow, 'id' | 'updated_at'>;
/** What an edit may change. */
export type OAuth2AppEdit = Pick<OAuth2AppRow, 'name' | 'redirect_uris' | 'confidential_client' | 'skip_secondary_authorization' | 'secret_hash' | 'updated_at'>;

/** SQL for OAuth2 applications (secrets stored hashed). */
export function createOAuth2AppRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO oauth2_applications (user_id, name, client_id, secret_hash, redirect_uris, confidential_client, skip_secondary_authorization, created_at, updated_at)
     VALUES (@user_id, @name, @client_id, @secret_hash, @redirect_uris, @confidential_client, @skip_secondary_authorization, @created_at, @created_at)`,
  );
  const byId = db.prepare('SELECT * FROM oauth2_applications WHERE id = ?');
  const byClientId = db.prepare('SELECT * FROM oauth2_applications WHERE client_id = ?');
  // Gitea lists a user's applications newest first.
  const page = db.prepare('SELECT * FROM oauth2_applications WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?');
  const count = db.prepare('SELECT count(*) AS n FROM oauth2_applications WHERE user_id = ?');
  const update = db.prepare(
    `UPDATE oauth2_applications SET name = @name, redirect_uris = @redirect_uris, confidential_client = @confidential_client,
       skip_secondary_authorization = @skip_secondary_authorization, secret_hash = @secret_hash, updated_at = @updated_at WHERE id = @id`,
  );
  const remove = db.prepare('DELETE FROM oauth2_applications WHERE id = ? AND user_id = ?');
  return {
    insert: (a: NewOAuth2App): number => Number(insert.run(a).lastInsertRowid),
    byId: (id: number) => byId.get(id) as OAuth2AppRow | undefined,
    byClientId: (clientId: string) => byClientId.get(clientId) as OAuth2AppRow | undefined,
    /** One page of a user's applications, newest first, and how many there are in all. */
    page: (userId: number, limit: number, offset: number) => ({ rows: page.all(userId, limit, offset) as OAuth2AppRow[], total: (count.get(userId) as { n: number }).n }),
    update: (id: number, e: OAuth2AppEdit) => void update.run({ ...e, id }),
    /** Deletes the application and (by cascade) its grants, codes and tokens; false when the user has no such application. */
    remove: (id: number, userId: number): boolean => remove.run(id, userId).changes > 0,
  };
}

/** The OAuth2 application repository's interface. */
export type OAuth2AppRepo = ReturnType<typeof createOAuth2AppRepo>;
