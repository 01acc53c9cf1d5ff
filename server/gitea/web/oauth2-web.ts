import type { Context, Hono } from 'hono';
import { DomainError } from '../../errors.js';
import { readBody } from '../../http/body.js';
import { readCredentials } from '../http/auth.js';
import type { Accounts } from '../services/accounts.js';
import type { AuthorizeRequest, OAuth2Authorize } from '../services/oauth2-authorize.js';
import { apiScopesOf, TokenError, type OAuth2Tokens, type TokenForm } from '../services/oauth2-tokens.js';
import type { WebSessions } from '../services/web-sessions.js';
import type { Site } from '../site.js';
import { authorizeErrorPage, consentPage } from './pages/sign-in-views.js';
import { readForm, seeOther, webVisit, withCookies } from './web-session.js';

/** What the OAuth2 endpoints use. */
export interface OAuth2WebDeps {
  site: Site;
  accounts: Pick<Accounts, 'checkToken' | 'byId'>;
  sessions: WebSessions;
  authorize: OAuth2Authorize;
  tokens: OAuth2Tokens;
}

/** The largest token request taken (a real one is well under 1 KiB). */
const MAX_TOKEN_BODY = 64 * 1024;

const FIELDS: [keyof AuthorizeRequest, string][] = [
  ['clientId', 'client_id'], ['redirectUri', 'redirect_uri'], ['responseType', 'response_type'], ['state', 'state'],
  ['scope', 'scope'], ['nonce', 'nonce'], ['codeChallenge', 'code_challenge'], ['codeChallengeMethod', 'code_challenge_method'],
];
const requestOf = (get: (name: string) => string | null | undefined) =>
  Object.fromEntries(FIELDS.map(([key, name]) => [key, get(name) ?? ''])) as unknown as AuthorizeRequest;

/** The CSP source a redirect URI's answer goes to: its origin (a scheme alone for any other kind of URI). */
function sourceOf(uri: string): string {
  const u = new URL(uri);
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : u.protocol;
}

/** A JSON answer of the token endpoint, never stored by a cache (RFC 6749 5.1). */
const tokenJson = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json;charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache' } });

/** The token endpoint's form, from a urlencoded or JSON body (Gitea binds either), with client credentials from Basic when the body lacks them. */
async function tokenForm(c: Context): Promise<TokenForm | TokenError> {
  let text: string;
  try {
    text = await readBody(c.req.raw, MAX_TOKEN_BODY);
  } catch (err) {
    if (err instanceof DomainError) return new TokenError('invalid_request', 'request body too large');
    throw err;
  }
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  let get: (name: string) => string;
  if (type.includes('json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return new TokenError('invalid_request', 'cannot parse request body');
    }
    const obj = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    get = (name) => (typeof obj[name] === 'string' ? (obj[name] as string) : '');
  } else {
    const form = new URLSearchParams(text);
    get = (name) => form.get(name) ?? '';
  }
  const f: TokenForm = {
    grant_type: get('grant_type'), client_id: get('client_id'), client_secret: get('client_secret'), redirect_uri: get('redirect_uri'),
    code: get('code'), code_verifier: get('code_verifier'), refresh_token: get('refresh_token'),
  };
  // Gitea: credentials in the body win; missing ones come from Basic, which must agree with any the body has.
  const header = c.req.header('authorization');
  if ((f.client_id === '' || f.client_secret === '') && header) {
    const creds = readCredentials(header, c.req.url, false);
    if (creds.kind !== 'basic') return new TokenError('invalid_request', 'cannot parse basic auth header');
    if (f.client_id !== '' && f.client_id !== creds.name) return new TokenError('invalid_request', 'client_id in request body inconsistent with Authorization header');
    if (f.client_secret !== '' && f.client_secret !== creds.password) return new TokenError('invalid_request', 'client_secret in request body inconsistent with Authorization header');
    f.client_id = creds.name;
    f.client_secret = creds.password;
  }
  return f;
}

/**
 * Gitea's OAuth2 provider endpoints under `/login/oauth`: `authorize` (sign
 * in, consent, code), `grant` (the consent form's answer), `access_token`
 * (codes and refresh tokens for tokens; called from other origins, with
 * CORS as the API has it) and `userinfo`.
 */
export function mountOAuth2Web(app: Hono<any>, g: OAuth2WebDeps): void {
  const base = () => g.site.basePath;

  app.get('/login/oauth/authorize', (c) => {
    const visit = webVisit(c, g.sessions, g.site);
    if (!visit.user) {
      // Gitea's reqSignIn: sign in first, then come back to this very request.
      const url = new URL(c.req.url);
      return seeOther(`${base()}/user/login?redirect_to=${encodeURIComponent(base() + url.pathname + url.search)}`, visit.setCookies);
    }
    const checked = g.authorize.check(requestOf((n) => c.req.query(n)));
    if (checked.kind === 'page') return withCookies(authorizeErrorPage(base(), checked.error, checked.description), visit.setCookies);
    if (checked.kind === 'redirect') return seeOther(checked.location, visit.setCookies);
    const skip = g.authorize.consentNotNeeded(visit.user, checked.app, checked.req);
    if (skip) return seeOther(skip, visit.setCookies);
    const fields = Object.fromEntries(FIELDS.map(([key, name]) => [name, checked.req[key]]));
    const owner = g.accounts.byId(checked.app.user_id);
    return withCookies(
      consentPage(base(), {
        csrf: visit.csrf,
        appName: checked.app.name,
        ownerName: owner?.name ?? '',
        userName: visit.user.name,
        redirectUri: checked.req.redirectUri,
        access: apiScopesOf(checked.req.scope),
        fields,
        redirectSource: sourceOf(checked.req.redirectUri),
      }),
      visit.setCookies,
    );
  });

  app.post('/login/oauth/grant', async (c) => {
    const visit = webVisit(c, g.sessions, g.site);
    if (!visit.user) return seeOther(`${base()}/user/login`, visit.setCookies);
    const form = await readForm(c);
    if (!form || !visit.csrfOk(form.get('_csrf') ?? undefined)) {
      return withCookies(authorizeErrorPage(base(), 'invalid_request', 'The form has expired or did not come from this site.'), visit.setCookies);
    }
    // The request rides through the form: it is checked again, as if it had just arrived.
    const checked = g.authorize.check(requestOf((n) => form.get(n)));
    if (checked.kind === 'page') return withCookies(authorizeErrorPage(base(), checked.error, checked.description), visit.setCookies);
    if (checked.kind === 'redirect') return seeOther(checked.location, visit.setCookies);
    if (form.get('granted') !== 'true') return seeOther(g.authorize.deny(checked.req), visit.setCookies);
    return seeOther(g.authorize.approve(visit.user, checked.app, checked.req), visit.setCookies);
  });

  app.post('/login/oauth/access_token', async (c) => {
    const form = await tokenForm(c);
    const answer = form instanceof TokenError ? form : g.tokens.exchange(form);
    return answer instanceof TokenError ? tokenJson(400, answer.body) : tokenJson(200, answer);
  });

  const userinfo = (c: Context) => {
    const creds = readCredentials(c.req.header('authorization'), c.req.url, false);
    const who = creds.kind === 'token' ? g.accounts.checkToken(creds.token) : null;
    // Only an OAuth2 access token (Gitea: the OAuth2 auth method) reads it.
    if (!who?.oauth) {
      return new Response('no valid authorization\n', { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="Gitea OAuth2"' } });
    }
    const u = who.user;
    return tokenJson(200, { sub: String(u.id), name: u.full_name || u.name, preferred_username: u.name, email: u.email, picture: '', groups: null });
  };
  app.get('/login/oauth/userinfo', userinfo);
  app.post('/login/oauth/userinfo', userinfo);

  // An OPTIONS the CORS middleware did not answer (CORS off, or not a preflight): Gitea refuses it.
  for (const p of ['/login/oauth/access_token', '/login/oauth/userinfo']) app.options(p, () => new Response(null, { status: 405 }));
}
