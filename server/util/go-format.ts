/**
 * Go's renderings of values Gitea puts on the wire, so our JSON matches it
 * byte for byte: RFC 3339 times with the local offset (`Z` in UTC), duration
 * strings, and URL escaping of path segments and query values.
 */
const pad = (n: number) => String(Math.trunc(Math.abs(n))).padStart(2, '0');

const timeCache = new Map<string, string>();

/** time.Time in RFC 3339 at a given offset (minutes east of UTC); seconds precision, as Gitea stores times. */
export function goTime(epochSeconds: number, tzMinutes = -new Date(epochSeconds * 1000).getTimezoneOffset()): string {
  // Listings render the same few commit times many times over.
  const key = `${epochSeconds}/${tzMinutes}`;
  let out = timeCache.get(key);
  if (out === undefined) {
    out = formatGoTime(epochSeconds, tzMinutes);
    if (timeCache.size > 10_000) timeCache.clear();
    timeCache.set(key, out);
  }
  return out;
}

function formatGoTime(epochSeconds: number, tzMinutes: number): string {
  const d = new Date((epochSeconds + tzMinutes * 60) * 1000);
  const base = `${String(d.getUTCFullYear()).padStart(4, '0')}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (tzMinutes === 0) return `${base}Z`;
  return `${base}${tzMinutes < 0 ? '-' : '+'}${pad(Math.abs(tzMinutes) / 60)}:${pad(Math.abs(tzMinutes) % 60)}`;
}

/** The Go zero time, which Gitea sends for dates it never fills. */
export const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

/** time.Time in UTC (CommitUser.date). */
export const goTimeUtc = (epochSeconds: number) => goTime(epochSeconds, 0);

const keepInSegment = /[A-Za-z0-9\-_.~$&+:=@]/;
const plainSegment = /^[A-Za-z0-9\-_.~$&+:=@]*$/;
const plainPath = /^[A-Za-z0-9\-_.~$&+:=@/]*$/;

/** url.PathEscape: one path segment. */
export function goPathEscape(s: string): string {
  if (plainSegment.test(s)) return s;
  let out = '';
  for (const ch of s) {
    if (keepInSegment.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Gitea's util.PathEscapeSegments: each segment escaped, slashes kept. */
export const pathEscapeSegments = (p: string) => (plainPath.test(p) ? p : p.split('/').map(goPathEscape).join('/'));

/** url.QueryEscape: spaces become `+`. */
export function goQueryEscape(s: string): string {
  if (/^[A-Za-z0-9\-_.~]*$/.test(s)) return s;
  let out = '';
  for (const ch of s) {
    if (/[A-Za-z0-9\-_.~]/.test(ch)) out += ch;
    else if (ch === ' ') out += '+';
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
