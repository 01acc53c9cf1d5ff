import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { UserRow } from '../../db/repos/user-repo.js';
import type { WebSessionRepo } from '../../db/repos/web-session-repo.js';
import { canSignIn } from './accounts.js';
import { secretHash } from './oauth2-secrets.js';

/** Gitea's SESSION_LIFE_TIME default: a sign-in lasts a day. */
export const SESSION_LIFETIME_S = 86400;

/**
 * Web sign-in sessions and the CSRF tokens of their forms. The cookie holds a
 * random id (its hash is the row); a form's CSRF token is an HMAC, under a key
 * of this process, of the value it protects (the session id once signed in,
 * before that a random cookie of its own), so a page on another site, which
 * can read neither cookie, cannot make one.
 */
export function createWebSessions(deps: { rows: WebSessionRepo; userById: (id: number) => UserRow | undefined; now?: () => number }) {
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  const csrfKey = randomBytes(32);

  return {
    /** Starts a session for a user who has just signed in; the id is for the cookie only. */
    start(user: UserRow): { id: string; maxAge: number } {
      const at = now();
      deps.rows.sweep(at);
      const id = randomBytes(32).toString('base64url');
      deps.rows.insert({ id_hash: secretHash(id), user_id: user.id, created_at: at, expires_at: at + SESSION_LIFETIME_S });
      return { id, maxAge: SESSION_LIFETIME_S };
    },

    /** The user a session cookie stands for (one who may still sign in), or null. */
    user(id: string | undefined): UserRow | null {
      if (!id || id.length > 128) return null;
      const row = deps.rows.byHash(secretHash(id));
      if (!row || row.expires_at < now()) return null;
      const user = deps.userById(row.user_id);
      return canSignIn(user) ? user : null;
    },

    /** Ends a session (signing out). */
    end(id: string | undefined): void {
      if (id && id.length <= 128) deps.rows.remove(secretHash(id));
    },

    /** A new random value for the anonymous CSRF cookie. */
    newCsrfSeed: () => randomBytes(24).toString('base64url'),

    /** The CSRF token of forms shown to whoever holds `seed`. */
    csrfToken: (seed: string) => createHmac('sha256', csrfKey).update(seed).digest('base64url'),

    /** Whether a form's token is the one for `seed`. */
    csrfMatches(seed: string | undefined, token: string | undefined): boolean {
      if (!seed || !token) return false;
      const a = Buffer.from(createHmac('sha256', csrfKey).update(seed).digest('base64url'));
      const b = Buffer.from(token);
      return a.length === b.length && timingSafeEqual(a, b);
    },
  };
}

/** The web session service's interface. */
export type WebSessions = ReturnType<typeof createWebSessions>;
