import type { Context, MiddlewareHandler } from 'hono';
import type { Accounts, Authenticated } from '../services/accounts.js';
import { Throttled } from '../services/login-throttle.js';

/** What reading a caller's credentials needs: the accounts, and whether `?token=` is allowed. */
export interface CallerDeps {
  accounts: Accounts;
  config: { disableQueryAuthToken: boolean };
}

/** The credentials a request presented, before they are checked. */
export type Credentials =
  | { kind: 'none' }
  | { kind: 'token'; token: string; from: 'header' | 'query' }
  | { kind: 'basic'; name: string; password: string };

/**
 * What the caller presented, in the order of Gitea's auth group: `?token=` /
 * `?access_token=` first (unless disabled), then `Authorization: token X`
 * (Gitea compares `token` case-sensitively) or `Bearer X` (any case), then
 * Basic. Any other header is no credential at all (the caller is anonymous).
 */
export function readCredentials(authorization: string | undefined, url: string, allowQuery: boolean): Credentials {
  // Most requests have no query string: no URL to parse for them.
  if (allowQuery && url.includes('?')) {
    const params = new URL(url).searchParams;
    const q = params.get('token') || params.get('access_token');
    if (q) return { kind: 'token', token: q, from: 'query' };
  }
  if (authorization) {
    const parts = authorization.trim().split(/\s+/);
    if (parts.length === 2 && (parts[0] === 'token' || parts[0]!.toLowerCase() === 'bearer')) return { kind: 'token', token: parts[1]!, from: 'header' };
    const space = authorization.indexOf(' ');
    if (space > 0 && authorization.slice(0, space).toLowerCase() === 'basic') {
      const decoded = Buffer.from(authorization.slice(space + 1).trim(), 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i >= 0) return { kind: 'basic', name: decoded.slice(0, i), password: decoded.slice(i + 1) };
      return { kind: 'basic', name: decoded, password: '' };
    }
  }
  return { kind: 'none' };
}

/**
 * Resolves credentials to a user; `false` means credentials were given and
 * are wrong (401), Throttled that the password was not checked (429).
 * `client` is the caller's address, for counting failed passwords.
 */
export async function authenticate(accounts: Accounts, creds: Credentials, client: string): Promise<Authenticated | Throttled | null | false> {
  switch (creds.kind) {
    case 'none':
      return null;
    case 'token':
      return accounts.checkToken(creds.token) ?? false;
    case 'basic':
      return (await accounts.checkBasic(creds.name, creds.password, client)) ?? false;
  }
}

/** The text of a 429 for too many failed passwords (Retry-After tells when to try again). */
export const TOO_MANY_FAILURES = 'too many failed authentication attempts, try again later';

/** The client address of a request served by @hono/node-server. */
export const clientAddress = (env: unknown): string => (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? '';

/**
 * Gitea's credential middleware: sets `giteaAuth` (null when anonymous) and
 * `giteaBasic`; wrong credentials get `onFail` (each surface answers 401 in
 * its own dialect), and so does a password check refused for too many
 * failures (429, with how long to wait).
 */
export function giteaAuth(g: CallerDeps, onFail: (c: Context, throttled?: Throttled) => Response): MiddlewareHandler {
  return async (c, next) => {
    const creds = readCredentials(c.req.header('authorization'), c.req.url, !g.config.disableQueryAuthToken);
    const auth = await authenticate(g.accounts, creds, clientAddress(c.env));
    if (auth === false) return onFail(c);
    if (auth instanceof Throttled) return onFail(c, auth);
    c.set('giteaAuth', auth);
    c.set('giteaBasic', creds.kind === 'basic');
    await next();
  };
}
