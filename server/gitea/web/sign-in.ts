import type { Hono } from 'hono';
import { clientAddress } from '../http/auth.js';
import type { Accounts } from '../services/accounts.js';
import { Throttled } from '../services/login-throttle.js';
import type { WebSessions } from '../services/web-sessions.js';
import type { Site } from '../site.js';
import { SESSION_COOKIE, setCookie } from './cookies.js';
import { signInPage, signOutPage } from './pages/sign-in-views.js';
import { localRedirect, readForm, seeOther, webVisit, withCookies } from './web-session.js';

/** What the sign-in pages use. */
export interface SignInDeps {
  site: Site;
  accounts: Pick<Accounts, 'checkPassword' | 'byEmail'>;
  sessions: WebSessions;
}

/** The form's text when the password check fails, whatever failed (Gitea's). */
export const WRONG_PASSWORD = 'Username or password is incorrect.';
/** The form's text when its CSRF token is missing or not this visitor's. */
export const FORM_EXPIRED = 'The form has expired or did not come from this site. Please try again.';

/**
 * Web sign-in (`/user/login`) and sign-out (`/user/logout`), with a cookie
 * session; the OAuth2 authorization pages are what use it. Password checks go
 * through the same login throttle as Basic credentials.
 */
export function mountSignIn(app: Hono<any>, g: SignInDeps): void {
  const base = () => g.site.basePath;
  const home = () => base() || '/';

  app.get('/user/login', (c) => {
    const visit = webVisit(c, g.sessions, g.site);
    const redirectTo = localRedirect(c.req.query('redirect_to'));
    // Already signed in: straight on, as Gitea does.
    if (visit.user) return seeOther(redirectTo || home(), visit.setCookies);
    return withCookies(signInPage(base(), { csrf: visit.csrf, redirectTo, userName: '' }), visit.setCookies);
  });

  app.post('/user/login', async (c) => {
    const visit = webVisit(c, g.sessions, g.site);
    const form = await readForm(c);
    const redirectTo = localRedirect(form?.get('redirect_to'));
    const userName = (form?.get('user_name') ?? '').slice(0, 255);
    const again = (error: string, status: number, headers: Record<string, string> = {}) => {
      const res = signInPage(base(), { csrf: visit.csrf, redirectTo, userName, error }, status);
      for (const [k, val] of Object.entries(headers)) res.headers.set(k, val);
      return withCookies(res, visit.setCookies);
    };
    if (!form || !visit.csrfOk(form.get('_csrf') ?? undefined)) return again(FORM_EXPIRED, 400);
    const password = form.get('password') ?? '';
    if (!userName || !password || password.length > 1024) return again(WRONG_PASSWORD, 200);
    // Gitea signs in with the user name or the account's email address.
    const name = userName.includes('@') ? (g.accounts.byEmail(userName)?.name ?? userName) : userName;
    const who = await g.accounts.checkPassword(name, password, clientAddress(c.env));
    if (who instanceof Throttled) return again('Too many failed sign-in attempts. Please try again later.', 429, { 'retry-after': String(who.retryAfter) });
    if (!who) return again(WRONG_PASSWORD, 200);
    c.set('giteaAuth', who);
    const session = g.sessions.start(who.user);
    return seeOther(redirectTo || home(), [...visit.setCookies, setCookie(SESSION_COOKIE, session.id, visit.cookie(session.maxAge))]);
  });

  app.get('/user/logout', (c) => {
    const visit = webVisit(c, g.sessions, g.site);
    return withCookies(signOutPage(base(), visit.csrf, visit.user?.name ?? null), visit.setCookies);
  });

  app.post('/user/logout', async (c) => {
    const visit = webVisit(c, g.sessions, g.site);
    const form = await readForm(c);
    if (!visit.user) return seeOther(home(), visit.setCookies);
    if (!form || !visit.csrfOk(form.get('_csrf') ?? undefined)) return withCookies(signOutPage(base(), visit.csrf, visit.user.name), visit.setCookies);
    g.sessions.end(visit.sessionId);
    return seeOther(home(), [setCookie(SESSION_COOKIE, '', visit.cookie(0))]);
  });
}
