/**
 * Which browser origins may change state or open an event WebSocket. A
 * browser names the page's origin in `Origin` on every cross-origin request
 * and every WebSocket handshake; other clients (ARI libraries, git, curl)
 * send none. So a request without `Origin` is allowed, and one with an
 * `Origin` must come from the server itself (the request's own host, or
 * ROOT_URL's origin) or from TRUSTED_ORIGINS. `Origin: null` (sandboxed
 * frames, local files) is never trusted.
 */
export interface OriginPolicy {
  allows(origin: string | undefined, host: string | undefined): boolean;
}

/** `scheme://host[:port]` with default ports dropped, or undefined when it is not an http(s) origin. */
export function normalizeOrigin(value: string): string | undefined {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    if (u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) return undefined;
    return `${u.protocol}//${u.host}`.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Builds the policy from ROOT_URL (read at each check, as it may be known only once we listen) and TRUSTED_ORIGINS. */
export function createOriginPolicy(opts: { rootUrl: () => string | undefined; trusted: string[] }): OriginPolicy {
  const trusted = new Set(opts.trusted.map((o) => normalizeOrigin(o)).filter((o): o is string => !!o));
  return {
    allows(origin, host) {
      if (origin === undefined) return true;
      const o = normalizeOrigin(origin);
      if (!o) return false;
      if (trusted.has(o)) return true;
      const root = opts.rootUrl();
      if (root && normalizeOrigin(new URL(root).origin) === o) return true;
      // Same host and port as the request: the page was served by us (directly, or through a TLS proxy that keeps Host).
      return !!host && new URL(o).host === host.toLowerCase();
    },
  };
}

/** What a state change carries that tells whether a browser may have added credentials of its own. */
export interface WriteRequest {
  method: string;
  authorization: string | undefined;
  contentType: string | undefined;
}

// The content types a page may send without a preflight (the Fetch standard's CORS-safelisted ones).
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/**
 * Whether a browser could have sent this state change with Basic credentials
 * it keeps for us (the only credential a browser adds by itself to the API:
 * the web sign-in's session cookie is SameSite=Lax and signs in nothing but
 * the OAuth2 pages, whose forms carry CSRF tokens), so that a page on another
 * site could act as the person using the browser. CORS (server/http/cors.ts) lets origins CORS_ALLOW_DOMAIN names
 * write to the repository API; this is what stays refused to them:
 * - a request the browser must preflight (PUT, PATCH, DELETE, a JSON body,
 *   any `Authorization` header the page sets) is sent only after our
 *   preflight answer allowed it, and without CORS_ALLOW_CREDENTIALS that
 *   answer lets the browser send it without kept credentials: whatever
 *   credentials it carries, the page put there itself (a token it holds).
 *   With CORS_ALLOW_CREDENTIALS the administrator lets the named origins use
 *   them (never with `*`: browsers refuse credentials answered with `*`);
 * - a request with no preflight (a form post, a `no-cors` or simple fetch:
 *   POST with no body type or a form's) may carry kept Basic credentials
 *   whatever CORS answers, as only reading the answer is kept from the page.
 *   That one is refused when it carries Basic credentials (a token in
 *   `Authorization: token …` is never added by a browser).
 */
export function mayCarryKeptCredentials(req: WriteRequest): boolean {
  if (!/^\s*basic(\s|$)/i.test(req.authorization ?? '')) return false;
  if (req.method.toUpperCase() !== 'POST') return false;
  if (req.contentType === undefined) return true;
  return FORM_TYPES.has(req.contentType.split(';')[0]!.trim().toLowerCase());
}
