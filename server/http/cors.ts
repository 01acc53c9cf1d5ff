import type { MiddlewareHandler } from 'hono';
import type { CorsSettings } from '../config/cors-settings.js';
import { compileOriginPatterns, isOriginLike } from '../util/origin-patterns.js';
import { mayCarryKeptCredentials } from './origin-policy.js';

/**
 * Gitea's `[cors]` for the repository API, as its go-chi/cors middleware does
 * it on `/api/v1`, and on the OAuth2 endpoints a page calls itself (the token
 * endpoint and userinfo; there Gitea adds no headers of its own to the allowed
 * ones, and answers 405 to an `OPTIONS` that is not a preflight it handles):
 * - a preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered
 *   200 with no body before authentication and routing, allowed or not. It
 *   always varies on Origin and the two request headers; only when the
 *   origin, the method and every requested header are allowed does it say so
 *   (the origin as sent, or `*` when every origin is; the method; the headers
 *   as asked for, normalised; credentials; max age);
 * - any other request goes on as it would, its answer varying on Origin, and
 *   from an allowed origin with an allowed method it names the origin (and
 *   credentials). A disallowed origin gets no `Access-Control-*`: the browser
 *   keeps the answer from the page.
 * Which answer headers a page may read is the route's business
 * (`Access-Control-Expose-Headers` with `Link`, `X-Total-Count`, as Gitea).
 */
export interface Cors {
  /** The middleware; it touches `/api/v1` requests only. */
  handle: MiddlewareHandler;
  /**
   * Whether a state change from a foreign `Origin` may go ahead on the
   * repository API: the origin is one CORS_ALLOW_DOMAIN names, and the
   * request is not one a browser could have sent with credentials it keeps
   * (origin-policy.ts, mayCarryKeptCredentials).
   */
  allowsWrite(path: string, method: string, headers: Headers): boolean;
}

// Gitea allows these on the API whatever HEADERS says; go-chi/cors adds Origin to any list.
const ALWAYS_ALLOWED = ['Authorization', 'X-Gitea-OTP', 'Origin'];
const PREFLIGHT_VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';

/** Whether a routing path (`//` collapsed) is the repository API's. */
export const isRepositoryApiPath = (path: string): boolean => path === '/api/v1' || path.startsWith('/api/v1/');

const OAUTH_CORS_PATHS = new Set(['/login/oauth/access_token', '/login/oauth/userinfo']);
/**
 * Whether a routing path is an OAuth2 endpoint a page on another origin calls
 * with `fetch`. They take no credential a browser adds by itself (the client's
 * own in the body or `Authorization`, or a bearer token), so a cross-origin
 * state change there acts for nobody the page does not already speak for.
 */
export const isOAuthCorsPath = (path: string): boolean => OAUTH_CORS_PATHS.has(path);

/** A header name as Go's CanonicalHeaderKey writes it (`content-type` → `Content-Type`). */
export function canonicalHeaderName(name: string): string {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return name;
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, ch: string) => dash + ch.toUpperCase());
}

/**
 * `Access-Control-Request-Headers` as go-chi/cors reads it: names split at
 * spaces and commas, each canonical, characters other than letters, digits,
 * `-` and `_` dropped.
 */
export function requestedHeaders(list: string): string[] {
  const out: string[] = [];
  let name = '';
  let upper = true;
  for (const ch of list) {
    if (ch === ' ' || ch === ',') {
      if (name) out.push(name);
      name = '';
      upper = true;
      continue;
    }
    if (/[a-z]/i.test(ch)) name += upper ? ch.toUpperCase() : ch.toLowerCase();
    else if (/[0-9_-]/.test(ch)) name += ch;
    upper = ch === '-';
  }
  if (name) out.push(name);
  return out;
}

/** Builds the middleware and the write check from the settings (the caller mounts it only when they are enabled). */
export function createCors(settings: CorsSettings): Cors {
  const origins = compileOriginPatterns(settings.allowDomain);
  const methods = new Set(settings.methods.map((m) => m.toUpperCase()));
  const anyHeader = settings.headers.includes('*');
  const headers = new Set([...ALWAYS_ALLOWED, ...settings.headers].map(canonicalHeaderName));
  const oauthHeaders = new Set(['Origin', ...settings.headers].map(canonicalHeaderName));
  const methodAllowed = (m: string) => m.toUpperCase() === 'OPTIONS' || methods.has(m.toUpperCase());
  const allowOrigin = (origin: string) => (origins.any ? '*' : origin);

  function preflight(origin: string | undefined, method: string, asked: string | undefined, allowed: Set<string>): Response {
    const h = new Headers({ vary: PREFLIGHT_VARY });
    const wanted = requestedHeaders(asked ?? '');
    if (origin && origins.test(origin) && methodAllowed(method) && (anyHeader || wanted.every((x) => allowed.has(x)))) {
      h.set('access-control-allow-origin', allowOrigin(origin));
      h.set('access-control-allow-methods', method.toUpperCase());
      if (wanted.length) h.set('access-control-allow-headers', wanted.join(', '));
      if (settings.allowCredentials) h.set('access-control-allow-credentials', 'true');
      if (settings.maxAgeSeconds > 0) h.set('access-control-max-age', String(settings.maxAgeSeconds));
    }
    // Empty, with its length said (as Go does), rather than an empty chunked body.
    h.set('content-length', '0');
    return new Response(null, { status: 200, headers: h });
  }

  return {
    async handle(c, next) {
      const api = isRepositoryApiPath(c.req.path);
      if (!api && !isOAuthCorsPath(c.req.path)) return next();
      const origin = c.req.header('origin');
      const asked = c.req.header('access-control-request-method');
      if (c.req.method === 'OPTIONS' && asked) return preflight(origin, asked, c.req.header('access-control-request-headers'), api ? headers : oauthHeaders);
      await next();
      const add: [string, string][] = [['vary', 'Origin']];
      if (origin && origins.test(origin) && methodAllowed(c.req.method)) {
        add.push(['access-control-allow-origin', allowOrigin(origin)]);
        if (settings.allowCredentials) add.push(['access-control-allow-credentials', 'true']);
      }
      const apply = (h: Headers) => {
        for (const [k, val] of add) k === 'vary' ? h.append(k, val) : h.set(k, val);
      };
      try {
        apply(c.res.headers);
      } catch {
        // An answer whose headers are immutable (Response.redirect): the same answer, with headers we may change.
        const res = new Response(c.res.body, c.res);
        apply(res.headers);
        c.res = res;
      }
    },
    allowsWrite(path, method, h) {
      const origin = h.get('origin');
      if (!isRepositoryApiPath(path) || !origin || !isOriginLike(origin) || !origins.test(origin)) return false;
      return !mayCarryKeptCredentials({ method, authorization: h.get('authorization') ?? undefined, contentType: h.get('content-type') ?? undefined });
    },
  };
}
