import { createHash, timingSafeEqual } from 'node:crypto';
import type { AriUser } from '../../config.js';

const CACHE_LIMIT = 1024;
const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * ARI authentication: an `Authorization: Basic` header first, else
 * `api_key=user:password` (split at the first colon), as Asterisk does.
 * Decoded results are cached per credential string so the hot path does no
 * base64 or hashing work; the cache is bounded.
 */
export function createAriAuth(users: readonly AriUser[]) {
  const byName = new Map(users.map((u) => [u.name, { user: u, hash: digest(u.password) }]));
  const cache = new Map<string, AriUser | null>();

  function check(name: string, password: string): AriUser | null {
    const entry = byName.get(name);
    // Compare digests so timing does not reveal the password length or a prefix.
    const ok = entry !== undefined && timingSafeEqual(entry.hash, digest(password));
    return ok ? entry.user : null;
  }

  function cached(key: string, compute: () => AriUser | null): AriUser | null {
    let hit = cache.get(key);
    if (hit === undefined) {
      hit = compute();
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
      cache.set(key, hit);
    }
    return hit;
  }

  return {
    /** The user for a request, or null when credentials are missing or wrong. */
    authenticate(authorization: string | undefined, apiKey: string | null | undefined): AriUser | null {
      if (authorization && /^basic /i.test(authorization)) {
        return cached(authorization, () => {
          const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
          const i = decoded.indexOf(':');
          return i < 0 ? null : check(decoded.slice(0, i), decoded.slice(i + 1));
        });
      }
      if (apiKey) {
        return cached(`k:${apiKey}`, () => {
          const i = apiKey.indexOf(':');
          return i < 0 ? null : check(apiKey.slice(0, i), apiKey.slice(i + 1));
        });
      }
      return null;
    },
  };
}

/** The ARI credential checker, as created by `createAriAuth`. */
export type AriAuth = ReturnType<typeof createAriAuth>;

/**
 * Where a request made inside the server already names its ARI user: the key
 * of the Hono env a REST request sent over the event socket runs under, so it
 * runs as the user who opened the socket and reads no credentials of its own.
 * Requests from the network never carry it (their env is the Node adapter's).
 */
export const PRESET_ARI_USER = Symbol('preset ARI user');

/** A Hono env that may carry a preset ARI user. */
export type PresetUserEnv = { [PRESET_ARI_USER]?: AriUser } | undefined;

/** The raw `api_key` query value (URL-decoded), without parsing the whole query string. */
export function apiKeyOf(url: string): string | null {
  const q = url.indexOf('?');
  if (q < 0 || !url.includes('api_key=', q)) return null;
  return new URLSearchParams(url.slice(q + 1)).get('api_key');
}
