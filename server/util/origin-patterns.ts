/**
 * Origins as Gitea's `[cors] ALLOW_DOMAIN` lists them (go-chi/cors rules): `*`
 * is every origin; any other entry is an origin, `scheme://host[:port]`, that
 * may hold one `*` standing for any run of characters
 * (`https://*.example.com`). Entries and origins are compared lowercase. A
 * match is a string comparison or a prefix-and-suffix test: no regular
 * expression, no backtracking, linear in the origin's length.
 */
export interface OriginPatterns {
  /** The list holds `*`. */
  readonly any: boolean;
  test(origin: string): boolean;
}

const ORIGIN_LIKE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s@]+$/i;

/** Whether `entry` may stand in an ALLOW_DOMAIN list: `*`, or an origin with at most one `*`. */
export function isOriginPattern(entry: string): boolean {
  if (entry === '*') return true;
  return ORIGIN_LIKE.test(entry) && entry.indexOf('*') === entry.lastIndexOf('*');
}

/** Whether `value` has the shape of a serialized origin (what a browser puts in `Origin`; `null` has not). */
export function isOriginLike(value: string): boolean {
  return ORIGIN_LIKE.test(value) && !value.includes('*');
}

/** Compiles a checked list (isOriginPattern) into a matcher. */
export function compileOriginPatterns(entries: string[]): OriginPatterns {
  if (entries.includes('*')) return { any: true, test: () => true };
  const exact = new Set<string>();
  const wild: { prefix: string; suffix: string }[] = [];
  for (const entry of entries.map((e) => e.toLowerCase())) {
    const star = entry.indexOf('*');
    if (star < 0) exact.add(entry);
    else wild.push({ prefix: entry.slice(0, star), suffix: entry.slice(star + 1) });
  }
  return {
    any: false,
    test(origin) {
      const o = origin.toLowerCase();
      if (exact.has(o)) return true;
      return wild.some((w) => o.length >= w.prefix.length + w.suffix.length && o.startsWith(w.prefix) && o.endsWith(w.suffix));
    },
  };
}
