import type { Context } from 'hono';
import type { UserRow } from '../../db/repos/user-repo.js';
import { DomainError } from '../../errors.js';
import { readBody } from '../../http/body.js';
import type { WebSessions } from '../services/web-sessions.js';
import type { Site } from '../site.js';
import { CSRF_COOKIE, readCookies, SESSION_COOKIE, setCookie, type CookieOptions } from './cookies.js';

/** The largest form the sign-in and consent pages take (theirs are a few hundred bytes). */
export const MAX_FORM_BYTES = 16 * 1024;

/** Who a web page request comes from, and what its forms carry against cross-site posts. */
export interface WebVisit {
  user: UserRow | null;
  /** The session cookie's value, when it names a live session. */
  sessionId: string | undefined;
  /** The CSRF token for forms shown on this answer. */
  csrf: string;
  /** Cookies to set on this answer (a new CSRF seed for a first visit). */
  setCookies: string[];
  /** Whether a posted form's `_csrf` is the one this visitor was given. */
  csrfOk(token: string | undefined): boolean;
  /** How cookies of this site are set (path, Secure). */
  cookie(maxAge?: number): CookieOptions;
}

/** A local path to go on to, or '' when `target` could lead elsewhere (another host, a scheme, a backslash trick). */
export function localRedirect(target: string | null | undefined): string {
  if (!target || target.length > 2048 || !target.startsWith('/')) return '';
  if (target.startsWith('//') || target.startsWith('/\\') || /[\x00-\x20\\]/.test(target)) return '';
  return target;
}

/** Reads the visitor from the cookies: the session (if any) and the CSRF seed (made on a first visit). */
export function webVisit(c: Context, sessions: WebSessions, site: Site): WebVisit {
  const cookies = readCookies(c.req.header('cookie'));
  const sessionId = cookies.get(SESSION_COOKIE);
  const user = sessions.user(sessionId);
  // A session cookie is only ever sent back over https when ROOT_URL or the request is https.
  const secure = new URL(c.req.url).protocol === 'https:' || site.rootUrl.startsWith('https:');
  const cookie = (maxAge?: number): CookieOptions => ({ path: site.basePath || '/', secure, ...(maxAge !== undefined ? { maxAge } : {}) });
  const setCookies: string[] = [];
  let seed = user ? sessionId! : cookies.get(CSRF_COOKIE);
  if (!seed || !/^[A-Za-z0-9_-]{16,64}$/.test(seed)) {
    seed = sessions.newCsrfSeed();
    setCookies.push(setCookie(CSRF_COOKIE, seed, cookie()));
  }
  const fixedSeed = seed;
  return {
    user,
    sessionId: user ? sessionId : undefined,
    csrf: sessions.csrfToken(fixedSeed),
    setCookies,
    csrfOk: (token) => sessions.csrfMatches(fixedSeed, token),
    cookie,
  };
}

/** The form a page posted (urlencoded), or null when it is not one or too large. */
export async function readForm(c: Context): Promise<URLSearchParams | null> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return null;
  try {
    return new URLSearchParams(await readBody(c.req.raw, MAX_FORM_BYTES));
  } catch (err) {
    if (err instanceof DomainError) return null;
    throw err;
  }
}

/** An answer with the visitor's pending cookies (and any others) added. */
export function withCookies(res: Response, cookies: readonly string[]): Response {
  for (const value of cookies) res.headers.append('set-cookie', value);
  return res;
}

/** A 303 to `location` (Gitea's redirects after a form post and on the OAuth2 pages), carrying `cookies`. */
export function seeOther(location: string, cookies: readonly string[] = []): Response {
  const res = new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
  return withCookies(res, cookies);
}
