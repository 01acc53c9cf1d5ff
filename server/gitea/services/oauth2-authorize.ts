import type { OAuth2AppRow } from '../../db/repos/oauth2-app-repo.js';
import type { OAuth2GrantRepo } from '../../db/repos/oauth2-grant-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { goQueryEscape } from '../../util/go-format.js';
import { redirectAllowed, type OAuth2Apps } from './oauth2-apps.js';
import { newOAuth2Secret, secretHash } from './oauth2-secrets.js';

/** An authorization request's parameters (Gitea's AuthorizationForm), as sent. */
export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  responseType: string;
  state: string;
  scope: string;
  nonce: string;
  codeChallenge: string;
  codeChallengeMethod: string;
}

/** What an authorization request comes to: an error shown on a page (the redirect URI is not trusted), a redirect to the client, or a request to consent to. */
export type AuthorizeCheck =
  | { kind: 'page'; error: string; description: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'ok'; app: OAuth2AppRow; req: AuthorizeRequest };

/** How long a code may wait for its exchange (RFC 6749 advises at most ten minutes). */
export const CODE_LIFETIME_S = 600;

/** Bounds on what a client may send (each well above what real clients use). */
const MAX_LEN: Record<keyof AuthorizeRequest, number> = {
  clientId: 255, redirectUri: 2048, responseType: 64, state: 1024, scope: 1024, nonce: 1024, codeChallenge: 128, codeChallengeMethod: 16,
};

/**
 * `uri` with `params` set in its query, every key sorted and escaped as Go's
 * url.Values.Encode writes them (Gitea builds its redirects that way).
 */
export function withQuery(uri: string, params: Record<string, string>): string {
  const hash = uri.indexOf('#');
  const base = hash < 0 ? uri : uri.slice(0, hash);
  const q = base.indexOf('?');
  const path = q < 0 ? base : base.slice(0, q);
  const values = new URLSearchParams(q < 0 ? '' : base.slice(q + 1));
  for (const [k, val] of Object.entries(params)) values.set(k, val);
  const keys = [...new Set(values.keys())].sort();
  const query = keys.flatMap((k) => values.getAll(k).map((val) => `${goQueryEscape(k)}=${goQueryEscape(val)}`)).join('&');
  return `${path}?${query}`;
}

/** Where an error goes once the redirect URI is trusted: back to the client, with `error`, `error_description` and `state`. */
export const errorRedirect = (redirectUri: string, error: string, description: string, state: string) =>
  withQuery(redirectUri, { error, error_description: description, state });

/**
 * The authorization endpoint's rules (Gitea's AuthorizeOAuth): the client and
 * its redirect URI are checked first and their errors shown on a page; once
 * the redirect URI is trusted, errors go back to the client. PKCE (S256 or
 * plain) is required of public clients.
 */
export function createOAuth2Authorize(deps: { apps: OAuth2Apps; grants: OAuth2GrantRepo; now?: () => number }) {
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));

  function issueCode(user: UserRow, app: OAuth2AppRow, req: AuthorizeRequest): string {
    const at = now();
    deps.grants.sweep(at);
    const grant = deps.grants.upsertGrant(user.id, app.id, req.scope, at);
    const code = newOAuth2Secret('gta_');
    deps.grants.insertCode({
      grant_id: grant.id,
      code_hash: secretHash(code),
      redirect_uri: req.redirectUri,
      code_challenge: req.codeChallenge,
      code_challenge_method: req.codeChallengeMethod,
      valid_until: at + CODE_LIFETIME_S,
    });
    // Gitea leaves `state` out when the client sent none.
    return withQuery(req.redirectUri, { code, ...(req.state ? { state: req.state } : {}) });
  }

  return {
    /** Checks a request (from the authorize URL, or again from the consent form) in Gitea's order. */
    check(req: AuthorizeRequest): AuthorizeCheck {
      for (const [k, max] of Object.entries(MAX_LEN) as [keyof AuthorizeRequest, number][]) {
        if (req[k].length > max) return { kind: 'page', error: 'invalid_request', description: `${k} is too long` };
      }
      if (!req.clientId || !req.redirectUri || !req.responseType) return { kind: 'page', error: 'invalid_request', description: 'client_id, redirect_uri and response_type are required' };
      const app = deps.apps.byClientId(req.clientId);
      if (!app) return { kind: 'page', error: 'unauthorized_client', description: 'Client ID not registered' };
      if (!redirectAllowed(app, req.redirectUri)) return { kind: 'page', error: 'invalid_request', description: 'Unregistered Redirect URI' };
      const back = (error: string, description: string): AuthorizeCheck => ({ kind: 'redirect', location: errorRedirect(req.redirectUri, error, description, req.state) });
      if (req.responseType !== 'code') return back('unsupported_response_type', 'Only code response type is supported.');
      switch (req.codeChallengeMethod) {
        case 'S256':
        case 'plain':
          // RFC 7636 4.2: 43 to 128 unreserved characters (Gitea does not check; a bad one could never be verified).
          if (!/^[A-Za-z0-9._~-]{43,128}$/.test(req.codeChallenge)) return back('invalid_request', 'invalid code challenge');
          break;
        case '':
          if (!app.confidential_client) return back('invalid_request', 'PKCE is required for public clients');
          break;
        default:
          return back('invalid_request', 'unsupported code challenge method');
      }
      return { kind: 'ok', app, req };
    },

    /**
     * Gitea skips the consent page when the user already granted the
     * application and it is confidential or marked to skip it; then this
     * answers the redirect with a new code (the grant takes the scope asked for).
     */
    consentNotNeeded(user: UserRow, app: OAuth2AppRow, req: AuthorizeRequest): string | null {
      if (!app.confidential_client && !app.skip_secondary_authorization) return null;
      if (!deps.grants.grantOf(user.id, app.id)) return null;
      return issueCode(user, app, req);
    },

    /** The user granted access: the grant is made or brought up to date, and the client gets a code. */
    approve: (user: UserRow, app: OAuth2AppRow, req: AuthorizeRequest) => issueCode(user, app, req),

    /** The user declined: the client is told `access_denied`. */
    deny: (req: AuthorizeRequest) => errorRedirect(req.redirectUri, 'access_denied', 'the request is denied', req.state),
  };
}

/** The authorization endpoint's service. */
export type OAuth2Authorize = ReturnType<typeof createOAuth2Authorize>;
