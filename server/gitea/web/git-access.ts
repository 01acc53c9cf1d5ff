import type { Context } from 'hono';
import type { UserRow } from '../../db/repos/user-repo.js';
import { authenticate, clientAddress, readCredentials, TOO_MANY_FAILURES, type CallerDeps } from '../http/auth.js';
import { Throttled } from '../services/login-throttle.js';
import type { Authenticated } from '../services/accounts.js';
import type { RepoContext, RepoService } from '../services/repos.js';

/** `ctx.PlainText`: Gitea's plain answers on the git routes (no trailing newline). */
export const plainText = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { 'content-type': 'text/plain;charset=utf-8', 'x-content-type-options': 'nosniff', ...headers } });

const STATUS_TEXT: Record<number, string> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error' };

/** Go's `http.Error` (Gitea's `ctx.HTTPError`): the text, a newline, and its own content type. */
export const httpError = (status: number, text = STATUS_TEXT[status] ?? '', headers: Record<string, string> = {}) =>
  new Response(`${text}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...headers } });

/** A bare status, as Go's `WriteHeader` alone sends it. */
export const bareStatus = (status: number) => new Response(null, { status });

/** Gitea's web auth middleware: credentials that are sent but wrong end the request here. */
export const failedAuth = () => httpError(401, 'Failed to authenticate user');

/** Too many failed passwords from this client (or for this account): Go's http.Error style, with when to retry. */
export const tooMany = (t: Throttled) => httpError(429, TOO_MANY_FAILURES, { 'retry-after': String(t.retryAfter) });

/** The caller: null when anonymous; when the credentials are wrong (401) or the password was not checked (429), the answer to give. */
export async function webCaller(c: Context, g: CallerDeps): Promise<Authenticated | null | Response> {
  const creds = readCredentials(c.req.header('authorization'), c.req.url, !g.config.disableQueryAuthToken);
  const auth = await authenticate(g.accounts, creds, clientAddress(c.env));
  if (auth === false) return failedAuth();
  if (auth instanceof Throttled) return tooMany(auth);
  // Who the request ran as, for the request log (as the API's credential middleware records it).
  c.set('giteaAuth', auth);
  return auth;
}

/** The repository name in a git URL: `name` or `name.git` (repository names never end in `.git`). */
export const repoNameOf = (param: string) => (param.endsWith('.git') ? param.slice(0, -4) : param);

// Only used to find a repository's row; permissions are always computed for the real caller.
const SEES_ALL: Authenticated = { user: { id: 0, is_admin: 1 } as UserRow, token: null, scopes: null };

/**
 * The repository `owner/name` with the caller's permission on it, whether
 * or not the caller may see it (the git routes answer differently for a
 * missing repository and for one the caller cannot read); null when it does
 * not exist.
 */
export function locateRepo(g: { repos: RepoService }, owner: string, name: string, doer: UserRow | null): RepoContext | null {
  let found: RepoContext;
  try {
    found = g.repos.lookup(owner, name, SEES_ALL);
  } catch {
    return null;
  }
  return g.repos.byId(found.row.id, doer) ?? null;
}

