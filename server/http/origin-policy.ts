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
