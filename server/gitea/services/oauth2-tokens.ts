import { createHash, timingSafeEqual } from 'node:crypto';
import type { OAuth2AppRow } from '../../db/repos/oauth2-app-repo.js';
import type { OAuth2CodeRow, OAuth2GrantRepo } from '../../db/repos/oauth2-grant-repo.js';
import { redirectAllowed, type OAuth2Apps } from './oauth2-apps.js';
import { newOAuth2Secret, secretHash } from './oauth2-secrets.js';
import { normaliseScopes } from './scopes.js';

/** Gitea's ACCESS_TOKEN_EXPIRATION_TIME default: an access token lives an hour. */
export const ACCESS_TOKEN_LIFETIME_S = 3600;
/** Gitea's REFRESH_TOKEN_EXPIRATION_TIME default: 730 hours. */
export const REFRESH_TOKEN_LIFETIME_S = 730 * 3600;

/** The token endpoint's form (Gitea's AccessTokenForm), as sent. */
export interface TokenForm {
  grant_type: string;
  client_id: string;
  client_secret: string;
  redirect_uri: string;
  code: string;
  code_verifier: string;
  refresh_token: string;
}

/** A successful answer (RFC 6749 5.1, Gitea's AccessTokenResponse without an id_token: no OpenID Connect here). */
export interface TokenAnswer {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
}

/** A refused request: Gitea answers every one 400 with `{error, error_description}`. */
export class TokenError {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {}
  /** The JSON body, in Gitea's field order. */
  get body() {
    return { error: this.error, error_description: this.description };
  }
}

/** What an OAuth2 access token authenticates: its user, and the API scopes of its grant. */
export interface OAuth2Caller {
  userId: number;
  grantId: number;
  applicationId: number;
  /** Normalised comma list, as access tokens store theirs. */
  scopes: string;
}

/** OpenID Connect's own scopes: they name claims, not API access, and are left out of a token's API scopes. */
const OIDC_SCOPES = new Set(['openid', 'profile', 'email', 'groups']);

/**
 * Gitea's GrantAdditionalScopes: a grant's space-separated scope minus
 * OpenID's; what remains are API scopes. None (Decap asks for none), or any
 * that is not valid, and the token may do everything its user may (`all`).
 */
export function apiScopesOf(grantScope: string): string {
  const asked = grantScope.split(' ').filter((s) => s && !OIDC_SCOPES.has(s));
  if (!asked.length) return 'all';
  const norm = normaliseScopes(asked);
  return 'invalid' in norm ? 'all' : norm.scopes.join(',');
}

/** RFC 7636 4.6: the verifier checked against the challenge the code was issued for. */
function pkceMatches(code: OAuth2CodeRow, verifier: string): boolean {
  let expected: string;
  switch (code.code_challenge_method) {
    case '':
      return true;
    case 'S256':
      expected = createHash('sha256').update(verifier).digest('base64url');
      break;
    case 'plain':
      expected = verifier;
      break;
    default:
      return false;
  }
  const a = Buffer.from(expected);
  const b = Buffer.from(code.code_challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token endpoint (Gitea's AccessTokenOAuth) and the check of the access tokens it issues. */
export function createOAuth2Tokens(deps: { apps: OAuth2Apps; grants: OAuth2GrantRepo; now?: () => number }) {
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));

  function issue(grantId: number, codeId: number, at: number) {
    const access = newOAuth2Secret('gtat_');
    const refresh = newOAuth2Secret('gtrt_');
    const rows = [
      { grant_id: grantId, code_id: codeId, kind: 'access' as const, token_hash: secretHash(access), expires_at: at + ACCESS_TOKEN_LIFETIME_S },
      { grant_id: grantId, code_id: codeId, kind: 'refresh' as const, token_hash: secretHash(refresh), expires_at: at + REFRESH_TOKEN_LIFETIME_S },
    ];
    const answer: TokenAnswer = { access_token: access, token_type: 'bearer', expires_in: ACCESS_TOKEN_LIFETIME_S, refresh_token: refresh };
    return { rows, answer };
  }

  /** A confidential client must authenticate with its secret (public clients prove themselves with PKCE). */
  function clientRefused(app: OAuth2AppRow, secret: string, error: string): TokenError | null {
    if (!app.confidential_client || deps.apps.checkSecret(app, secret)) return null;
    return new TokenError(error, secret === '' ? 'invalid empty client secret' : 'invalid client secret');
  }

  function authorizationCode(f: TokenForm): TokenAnswer | TokenError {
    const app = deps.apps.byClientId(f.client_id);
    if (!app) return new TokenError('invalid_client', `cannot load client with client id: '${f.client_id}'`);
    const refused = clientRefused(app, f.client_secret, 'unauthorized_client');
    if (refused) return refused;
    if (f.redirect_uri !== '' && !redirectAllowed(app, f.redirect_uri)) return new TokenError('unauthorized_client', 'unexpected redirect URI');
    const code = f.code ? deps.grants.codeByHash(secretHash(f.code)) : undefined;
    const grant = code && deps.grants.grantById(code.grant_id);
    if (!code || !grant) return new TokenError('unauthorized_client', 'client is not authorized');
    const at = now();
    if (code.valid_until < at) return new TokenError('invalid_grant', 'authorization code expired');
    if (!pkceMatches(code, f.code_verifier)) return new TokenError('unauthorized_client', 'failed PKCE code challenge');
    if (code.redirect_uri !== '' && f.redirect_uri !== code.redirect_uri) return new TokenError('invalid_grant', 'redirect_uri differs from the original authorization request');
    if (grant.application_id !== app.id) return new TokenError('invalid_grant', 'invalid grant');
    const { rows, answer } = issue(grant.id, code.id, at);
    if (!deps.grants.redeemCode(code.id, at, rows)) {
      // RFC 6749 4.1.2: a code used twice may have been stolen; what its first use issued is revoked.
      deps.grants.revokeChain(code.id);
      return new TokenError('invalid_grant', 'authorization code already used');
    }
    return answer;
  }

  function refreshToken(f: TokenForm): TokenAnswer | TokenError {
    const app = deps.apps.byClientId(f.client_id);
    if (!app) return new TokenError('invalid_client', `cannot load client with client id: ${JSON.stringify(f.client_id)}`);
    const refused = clientRefused(app, f.client_secret, 'invalid_client');
    if (refused) return refused;
    const at = now();
    const token = f.refresh_token ? deps.grants.tokenByHash(secretHash(f.refresh_token), 'refresh') : undefined;
    if (!token || token.expires_at < at) return new TokenError('unauthorized_client', 'unable to parse refresh token');
    if (token.application_id !== app.id) return new TokenError('invalid_grant', 'refresh token belongs to a different client');
    const { rows, answer } = issue(token.grant_id, token.code_id, at);
    if (!deps.grants.redeemRefresh(token.id, at, rows)) {
      // A refresh token is used once (Gitea's INVALIDATE_REFRESH_TOKENS); a replay revokes the chain, as a replayed code does.
      deps.grants.revokeChain(token.code_id);
      return new TokenError('unauthorized_client', 'token was already used');
    }
    return answer;
  }

  return {
    /** Answers one token request: new tokens, or Gitea's refusal. */
    exchange(f: TokenForm): TokenAnswer | TokenError {
      switch (f.grant_type) {
        case 'authorization_code':
          return authorizationCode(f);
        case 'refresh_token':
          return refreshToken(f);
        default:
          return new TokenError('unsupported_grant_type', 'Only refresh_token or authorization_code grant type is supported');
      }
    },

    /** The caller an access token stands for, or null when it is unknown, expired or revoked. */
    check(token: string): OAuth2Caller | null {
      if (!token.startsWith('gtat_') || token.length > 64) return null;
      const row = deps.grants.tokenByHash(secretHash(token), 'access');
      if (!row || row.expires_at < now()) return null;
      return { userId: row.user_id, grantId: row.grant_id, applicationId: row.application_id, scopes: apiScopesOf(row.scope) };
    },
  };
}

/** The token endpoint's service. */
export type OAuth2Tokens = ReturnType<typeof createOAuth2Tokens>;
