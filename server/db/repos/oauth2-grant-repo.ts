import type { Db } from '../open.js';

/** A user's consent to an application. */
export interface OAuth2GrantRow {
  id: number;
  application_id: number;
  user_id: number;
  scope: string;
  created_at: number;
  updated_at: number;
}

/** An authorization code, as stored. */
export interface OAuth2CodeRow {
  id: number;
  grant_id: number;
  code_hash: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: string;
  valid_until: number;
  used_at: number;
}

/** An access or refresh token, as stored. */
export interface OAuth2TokenRow {
  id: number;
  grant_id: number;
  code_id: number;
  kind: 'access' | 'refresh';
  token_hash: string;
  expires_at: number;
  used_at: number;
}

/** A token found with its grant (for API authentication). */
export type OAuth2TokenWithGrant = OAuth2TokenRow & { user_id: number; application_id: number; scope: string };

/** SQL for grants, authorization codes and tokens. Multi-step changes run in one transaction each. */
export function createOAuth2GrantRepo(db: Db) {
  const grantOf = db.prepare('SELECT * FROM oauth2_grants WHERE user_id = ? AND application_id = ?');
  const grantById = db.prepare('SELECT * FROM oauth2_grants WHERE id = ?');
  const insertGrant = db.prepare('INSERT INTO oauth2_grants (application_id, user_id, scope, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
  const setScope = db.prepare('UPDATE oauth2_grants SET scope = ?, updated_at = ? WHERE id = ?');
  const insertCode = db.prepare(
    `INSERT INTO oauth2_codes (grant_id, code_hash, redirect_uri, code_challenge, code_challenge_method, valid_until)
     VALUES (@grant_id, @code_hash, @redirect_uri, @code_challenge, @code_challenge_method, @valid_until)`,
  );
  const codeByHash = db.prepare('SELECT * FROM oauth2_codes WHERE code_hash = ?');
  // Only an unused code is marked: the one request that changes the row wins a race.
  const useCode = db.prepare('UPDATE oauth2_codes SET used_at = ? WHERE id = ? AND used_at = 0');
  const insertToken = db.prepare('INSERT INTO oauth2_tokens (grant_id, code_id, kind, token_hash, expires_at) VALUES (@grant_id, @code_id, @kind, @token_hash, @expires_at)');
  const tokenByHash = db.prepare(
    `SELECT t.*, g.user_id, g.application_id, g.scope FROM oauth2_tokens t JOIN oauth2_grants g ON g.id = t.grant_id WHERE t.token_hash = ? AND t.kind = ?`,
  );
  const useToken = db.prepare('UPDATE oauth2_tokens SET used_at = ? WHERE id = ? AND used_at = 0');
  const revokeChain = db.prepare('DELETE FROM oauth2_tokens WHERE code_id = ?');
  const sweepCodes = db.prepare('DELETE FROM oauth2_codes WHERE valid_until < ?');
  const sweepTokens = db.prepare('DELETE FROM oauth2_tokens WHERE expires_at < ?');

  type NewToken = Omit<OAuth2TokenRow, 'id' | 'used_at'>;
  return {
    grantOf: (userId: number, appId: number) => grantOf.get(userId, appId) as OAuth2GrantRow | undefined,
    grantById: (id: number) => grantById.get(id) as OAuth2GrantRow | undefined,
    /** The user's grant to the application with `scope`, created or brought up to date. */
    upsertGrant: db.transaction((userId: number, appId: number, scope: string, at: number): OAuth2GrantRow => {
      const found = grantOf.get(userId, appId) as OAuth2GrantRow | undefined;
      if (!found) insertGrant.run(appId, userId, scope, at, at);
      else if (found.scope !== scope) setScope.run(scope, at, found.id);
      return grantOf.get(userId, appId) as OAuth2GrantRow;
    }),
    insertCode: (c: Omit<OAuth2CodeRow, 'id' | 'used_at'>) => void insertCode.run(c),
    codeByHash: (hash: string) => codeByHash.get(hash) as OAuth2CodeRow | undefined,
    /** Marks a code used and stores the tokens it buys, at once; false when another request used it first. */
    redeemCode: db.transaction((codeId: number, at: number, tokens: NewToken[]): boolean => {
      if (useCode.run(at, codeId).changes === 0) return false;
      for (const t of tokens) insertToken.run(t);
      return true;
    }),
    /** Marks a refresh token used and stores its successors, at once; false when it was used already. */
    redeemRefresh: db.transaction((tokenId: number, at: number, tokens: NewToken[]): boolean => {
      if (useToken.run(at, tokenId).changes === 0) return false;
      for (const t of tokens) insertToken.run(t);
      return true;
    }),
    tokenByHash: (hash: string, kind: 'access' | 'refresh') => tokenByHash.get(hash, kind) as OAuth2TokenWithGrant | undefined,
    /** Revokes every token a code's exchange started (its refreshes included). */
    revokeChain: (codeId: number) => void revokeChain.run(codeId),
    /** Forgets codes and tokens that expired before `at`. */
    sweep: db.transaction((at: number) => {
      sweepCodes.run(at);
      sweepTokens.run(at);
    }),
  };
}

/** The grant, code and token repository's interface. */
export type OAuth2GrantRepo = ReturnType<typeof createOAuth2GrantRepo>;
