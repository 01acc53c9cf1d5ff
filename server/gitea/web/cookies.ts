/** The session cookie's name: Gitea's default COOKIE_NAME. */
export const SESSION_COOKIE = 'i_like_gitea';
/** The cookie that seeds the CSRF token of forms shown before signing in (Gitea's is `_csrf` too). */
export const CSRF_COOKIE = '_csrf';

/** The cookies a request sent, by name (the first of a name wins). */
export function readCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header || header.length > 8192) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || out.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    out.set(name, value);
  }
  return out;
}

/** What a cookie is set with: its path, whether only https may carry it, and how long it lives (0: remove it; undefined: until the browser closes). */
export interface CookieOptions {
  path: string;
  secure: boolean;
  maxAge?: number;
}

/**
 * A `Set-Cookie` value: always HttpOnly (no script of any page needs it) and
 * SameSite=Lax (a page on another site cannot make the browser send it with
 * a form post; following a link to the consent page still carries it).
 */
export function setCookie(name: string, value: string, o: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${o.path}`, 'HttpOnly', 'SameSite=Lax'];
  if (o.maxAge !== undefined) parts.push(`Max-Age=${o.maxAge}`);
  if (o.secure) parts.push('Secure');
  return parts.join('; ');
}
