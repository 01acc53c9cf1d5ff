/**
 * The address policy for push and pull mirrors, as Gitea applies it when a
 * mirror is created or its address changed (forms.ParseRemoteAddr followed by
 * IsPushMirrorURLAllowed / IsMigrateURLAllowed, answered by the API's
 * HandleRemoteAddressError):
 *
 *   400 `Invalid Url `            (sic, trailing space) the address does not parse
 *   400 `Invalid mirror protocol` a scheme the mirror kind does not take
 *   400 `Unknown error`           a local path that is not absolute
 *   401 `Permission denied`       a local path for a non-admin, or a host the
 *                                 allow/block lists or the address ranges refuse
 *
 * The check runs when a mirror is added and again before every sync
 * (resolveMirrorTarget), which also hands back the addresses it approved so
 * that git connects to exactly those (remote-git.ts): a name whose DNS answer
 * changes in between (rebinding) gains nothing.
 */
import { compileGlob, GlobBudgetError, GlobSyntaxError, type Glob } from '../../util/glob/glob.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressAllowed, neverAllowed } from '../../util/address-ranges.js';

/** Which mirror targets are allowed (MIRROR_ALLOW_LOCALNETWORKS, allowed and blocked domains). */
export interface MirrorUrlPolicy {
  /** MIRROR_ALLOW_LOCAL_NETWORKS (default false). */
  allowLocalNetworks: boolean;
  /** MIRROR_ALLOWED_DOMAINS, already split: glob patterns ('*', '*.example.com', 'git.example.com'); empty = no allow list. */
  allowedDomains: string[];
  /** MIRROR_BLOCKED_DOMAINS, already split; the same patterns. */
  blockedDomains: string[];
}

/** Whether an address is pushed to or pulled from. */
export type AddressKind = 'push' | 'pull';

/** The outcome of checking a mirror address. */
export type AddressCheck =
  | { ok: true; url: string; stripped: string; scheme: 'http' | 'https' | 'git' | 'ssh' | 'file'; username: string; password: string }
  | { ok: false; status: 400 | 401; message: string; /** The setting that would allow a refused address, when one would. */ setting?: string };

type Refusal = Extract<AddressCheck, { ok: false }>;
type NetworkScheme = 'http' | 'https' | 'git' | 'ssh';

const INVALID_URL: Refusal = { ok: false, status: 400, message: 'Invalid Url ' };
const INVALID_PROTOCOL: Refusal = { ok: false, status: 400, message: 'Invalid mirror protocol' };
const UNKNOWN_ERROR: Refusal = { ok: false, status: 400, message: 'Unknown error' };
const DENIED: Refusal = { ok: false, status: 401, message: 'Permission denied' };
const deniedUnless = (setting: string): Refusal => ({ ...DENIED, setting });

const SCHEMES: Record<AddressKind, readonly string[]> = {
  push: ['http', 'https', 'git', 'ssh'],
  pull: ['http', 'https', 'git'],
};

/** Every address of a name, in the resolver's order. */
async function dnsResolve(host: string): Promise<string[]> {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

/** `user@host:path` (scp-like, no scheme) → `ssh://user@host/path`; anything else unchanged. */
export function normaliseScpAddress(address: string): string {
  if (address.includes('://')) return address;
  // The '@' comes before the first ':' and nothing before that ':' is a '/'
  // (so neither user nor host holds one); `user@[v6]:path` as git takes it.
  const m = /^([^\s/:]+)@(\[[^\]\s/@]+\]|[^\s/:@[\]]+):(.*)$/s.exec(address);
  if (!m) return address;
  const [, user, host, path] = m as unknown as [string, string, string, string];
  return `ssh://${user}@${host}/${path.startsWith('/') ? path.slice(1) : path}`;
}

/**
 * Masks credentials in any text (git's error output, a log line): every
 * occurrence of a non-empty secret (longest first; also its percent-encoded
 * forms, as they appear inside a URL) and the userinfo of every
 * `scheme://userinfo@` become `<credentials>`. One pass, so a replacement is
 * never itself rewritten.
 */
export function maskCredentials(text: string, secrets: string[]): string {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (!s) continue;
    forms.add(s);
    forms.add(goEscapeUserinfo(s));
    forms.add(encodeURIComponent(s));
  }
  const literals = [...forms].sort((a, b) => b.length - a.length);
  // A scan, not one regular expression of the secrets: a long secret (a 100 KB password) made
  // "Regular expression too large", a 500 whose message and log line showed the secret itself.
  // At each position the URL form goes first: a secret that happens to start a URL must not leave
  // its userinfo behind.
  // (A scheme is short: bounded, the scan stays linear on long runs of letters.)
  const url = /([A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/)[^\s/?#@]+@/y;
  let out = '';
  let kept = 0;
  let i = 0;
  while (i < text.length) {
    url.lastIndex = i;
    const m = url.exec(text);
    const lit = m ? undefined : literals.find((l) => text.startsWith(l, i));
    if (!m && !lit) {
      i++;
      continue;
    }
    out += text.slice(kept, i) + (m ? `${m[1]}<credentials>@` : '<credentials>');
    i += m ? m[0].length : lit!.length;
    kept = i;
  }
  return out + text.slice(kept);
}

/** Checks a mirror address against the policy (scheme, credentials, host, resolved addresses) before any git runs. */
export async function checkMirrorAddress(
  input: { address: string; username?: string; password?: string; kind: AddressKind; isAdmin: boolean },
  policy: MirrorUrlPolicy,
  resolve: (host: string) => Promise<string[]> = dnsResolve,
): Promise<AddressCheck> {
  const { target: _target, ...check } = await inspect(input, policy, resolve);
  return check as AddressCheck;
}

/** Where a network address leads: the host as git and curl will name it, the port, and the addresses the policy approved. */
export interface MirrorTarget {
  scheme: NetworkScheme;
  /** Lower case, IPv6 without brackets. */
  host: string;
  port: number;
  /** What the name resolved to (all approved); undefined for an IP literal. */
  addresses?: string[];
}

const DEFAULT_PORTS: Record<NetworkScheme, number> = { http: 80, https: 443, git: 9418, ssh: 22 };

/**
 * The check before a sync: the stored (credential-free) address passes the
 * policy again, now, and the answer says which addresses git may connect
 * to. A name that no longer resolves is refused here (git would otherwise
 * resolve it on its own). Local paths (`file:`) pass when local networks are
 * still allowed; only an admin could add them.
 */
export async function resolveMirrorTarget(
  address: string,
  kind: AddressKind,
  policy: MirrorUrlPolicy,
  resolve: (host: string) => Promise<string[]> = dnsResolve,
): Promise<{ ok: true; target?: MirrorTarget } | { ok: false; reason: 'refused' | 'unresolved'; setting?: string }> {
  const checked = await inspect({ address, kind, isAdmin: true }, policy, resolve);
  if (!checked.ok) return { ok: false, reason: 'refused', ...(checked.setting ? { setting: checked.setting } : {}) };
  if (checked.scheme === 'file') return { ok: true };
  const target = checked.target!;
  if (!isIP(target.host) && !target.addresses?.length) return { ok: false, reason: 'unresolved' };
  return { ok: true, target };
}

async function inspect(
  input: { address: string; username?: string; password?: string; kind: AddressKind; isAdmin: boolean },
  policy: MirrorUrlPolicy,
  resolve: (host: string) => Promise<string[]>,
): Promise<AddressCheck & { target?: MirrorTarget }> {
  let address = input.address.trim();
  // Rule 1: scp-like addresses are ssh, for push mirrors only.
  if (input.kind === 'push') address = normaliseScpAddress(address);
  // Go's url.Parse refuses any ASCII control character.
  if (/[\x00-\x1f\x7f]/.test(address)) return INVALID_URL;

  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(address);
  if (!schemeMatch) {
    // No scheme: a local path — unless a colon in the first segment makes it
    // unparsable (Go: "first path segment in URL cannot contain colon"), which
    // is where a pull mirror's `git@host:path` ends.
    if (address.split('/', 1)[0]!.includes(':')) return INVALID_URL;
    return localPath(address, input.isAdmin, policy);
  }
  const scheme = schemeMatch[1]!.toLowerCase();
  const rest = address.slice(schemeMatch[0].length);
  if (scheme === 'file') return localPath(rest, input.isAdmin, policy);
  if (!SCHEMES[input.kind].includes(scheme)) return parses(address) ? INVALID_PROTOCOL : INVALID_URL;
  const net = scheme as NetworkScheme;

  // Rule 3: a network address is scheme://[userinfo@]host[:port][/path][?query][#fragment].
  if (!rest.startsWith('//')) return INVALID_URL;
  const prefix = address.slice(0, schemeMatch[0].length + 2);
  const afterSlashes = rest.slice(2);
  const authorityEnd = afterSlashes.search(/[/?#]/);
  const authority = authorityEnd < 0 ? afterSlashes : afterSlashes.slice(0, authorityEnd);
  const tail = authorityEnd < 0 ? '' : afterSlashes.slice(authorityEnd);
  // A backslash ends the authority for the WHATWG parser but not for git or curl.
  if (authority.includes('\\')) return INVALID_URL;
  const atSign = authority.lastIndexOf('@');
  const userinfo = atSign < 0 ? undefined : authority.slice(0, atSign);
  const hostPort = authority.slice(atSign + 1);
  const split = splitHost(hostPort);
  const host = split?.host;
  // '%' would be decoded by one reader and not another; a leading '-' reaches ssh as an option.
  if (host === undefined || host === '' || host.includes('%') || host.startsWith('-')) return INVALID_URL;
  let canonical: string;
  try {
    canonical = canonicalHost(host);
    // Both parsers must agree on the host that will be contacted.
    if (canonicalHost(new URL(address).hostname) !== canonical) return INVALID_URL;
  } catch {
    return INVALID_URL;
  }
  // As Forgejo: no CR or LF smuggled into a git:// request line.
  if (net === 'git' && /%0[ad]/i.test(address)) return INVALID_URL;

  let username = '';
  let password = '';
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    try {
      username = decodeURIComponent(colon < 0 ? userinfo : userinfo.slice(0, colon));
      password = colon < 0 ? '' : decodeURIComponent(userinfo.slice(colon + 1));
    } catch {
      return INVALID_URL;
    }
  }

  let url = address;
  let stripped: string;
  if (net === 'ssh') {
    // An ssh user name is not a credential: keep it, drop only a password.
    // Given credentials are not put into an ssh address (Gitea: http, https and git only).
    if (username.startsWith('-')) return INVALID_URL;
    const user = userinfo === undefined ? '' : userinfo.split(':', 1)[0]!;
    stripped = `${prefix}${user ? `${user}@` : ''}${hostPort}${tail}`;
  } else {
    // Rule 2: given credentials replace the userinfo (Go's url.UserPassword:
    // always `user:password@`, even with one of them empty).
    const givenUser = input.username ?? '';
    const givenPassword = input.password ?? '';
    if (givenUser.length + givenPassword.length > 0) {
      username = givenUser;
      password = givenPassword;
      url = `${prefix}${goEscapeUserinfo(givenUser)}:${goEscapeUserinfo(givenPassword)}@${hostPort}${tail}`;
    }
    stripped = `${prefix}${hostPort}${tail}`;
  }

  // Rule 5: the host policy.
  let seen: string[] | undefined;
  const recording = async (name: string) => (seen = await resolve(name));
  const refusal = await checkHost(host, canonical, policy, recording);
  if (refusal) return refusal;
  const target: MirrorTarget = { scheme: net, host: unbracket(canonical), port: split!.port ? Number(split!.port) : DEFAULT_PORTS[net], ...(seen ? { addresses: seen } : {}) };
  return { ok: true, url, stripped, scheme: net, username, password, target };
}

/** Rule 4, for `file:` and scheme-less addresses; `rest` is what follows `file:` (or the whole address). */
function localPath(rest: string, isAdmin: boolean, policy: MirrorUrlPolicy): AddressCheck {
  // As Go's url.Parse: an optional //authority, then the path up to ?query or #fragment, percent-decoded;
  // Gitea then wants host + path to be absolute.
  let hostPart = '';
  let pathPart = rest;
  if (rest.startsWith('//')) {
    const end = rest.slice(2).search(/[/?#]/);
    hostPart = end < 0 ? rest.slice(2) : rest.slice(2, end + 2);
    pathPart = end < 0 ? '' : rest.slice(end + 2);
  }
  pathPart = pathPart.replace(/[?#].*$/s, '');
  let decoded: string;
  try {
    decoded = decodeURIComponent(hostPart + pathPart);
  } catch {
    return INVALID_URL;
  }
  if (!(isAdmin && policy.allowLocalNetworks)) return deniedUnless('MIRROR_ALLOW_LOCAL_NETWORKS');
  if (!decoded.startsWith('/')) return UNKNOWN_ERROR;
  const url = `file://${decoded}`;
  return { ok: true, url, stripped: url, scheme: 'file', username: '', password: '' };
}

function parses(address: string): boolean {
  try {
    new URL(address);
    return true;
  } catch {
    return false;
  }
}

/** The host and port of `host[:port]` or `[v6][:port]`; undefined when malformed. */
function splitHost(hostPort: string): { host: string; port: string } | undefined {
  let host: string;
  let port: string;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) return undefined;
    host = hostPort.slice(0, close + 1);
    const after = hostPort.slice(close + 1);
    if (after && !after.startsWith(':')) return undefined;
    port = after.slice(1);
  } else {
    const colon = hostPort.indexOf(':');
    host = colon < 0 ? hostPort : hostPort.slice(0, colon);
    port = colon < 0 ? '' : hostPort.slice(colon + 1);
  }
  if (!/^\d*$/.test(port) || (port !== '' && Number(port) > 65535)) return undefined;
  return { host, port };
}

/** The host as the WHATWG parser writes it for http: lower case, punycode, IPv4 dotted, IPv6 compressed. Throws when invalid. */
function canonicalHost(host: string): string {
  return new URL(`http://${host}/`).hostname;
}

const unbracket = (h: string) => (h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h);
/** Compared without brackets, case or a trailing root dot (`example.com.` is `example.com`). */
const forMatch = (h: string) => unbracket(h.toLowerCase()).replace(/\.$/, '');

/** Host patterns (`*`, `?`, classes) compiled once per list into matchers that cannot backtrack. */
const compiled = new WeakMap<string[], Glob[]>();
function compilePatterns(patterns: string[]): Glob[] {
  let out = compiled.get(patterns);
  if (out) return out;
  out = [];
  for (const raw of patterns) {
    const p = forMatch(raw.trim());
    if (!p) continue;
    try {
      out.push(compileGlob(p, 'wildmatch'));
    } catch (err) {
      // A malformed pattern matches nothing, as a bad pattern does in Gitea's host matcher.
      if (!(err instanceof GlobSyntaxError)) throw err;
    }
  }
  compiled.set(patterns, out);
  return out;
}

/** Whether a name matches; a match that runs out of steps counts as `onBudget` (blocked, or not allowed). */
const matchesAny = (patterns: Glob[], names: string[], onBudget: boolean) =>
  patterns.some((g) =>
    names.some((n) => {
      try {
        return g.test(n);
      } catch (err) {
        if (err instanceof GlobBudgetError) return onBudget;
        throw err;
      }
    }),
  );

async function checkHost(host: string, canonical: string, policy: MirrorUrlPolicy, resolve: (host: string) => Promise<string[]>): Promise<Refusal | undefined> {
  const names = [...new Set([forMatch(canonical), forMatch(host)])];
  const blocked = compilePatterns(policy.blockedDomains);
  const allowed = compilePatterns(policy.allowedDomains);
  if (matchesAny(blocked, names, true)) return deniedUnless('MIRROR_BLOCKED_DOMAINS');

  const target = unbracket(canonical);
  let addresses: string[] | null | undefined; // undefined: not asked yet; null: does not resolve
  const addressesOf = async (): Promise<string[] | null> => {
    if (addresses !== undefined) return addresses;
    if (isIP(target)) return (addresses = [target]);
    try {
      addresses = await resolve(target);
    } catch {
      addresses = null;
    }
    return addresses;
  };

  // As Gitea, the patterns are matched against the addresses a name resolves to as well:
  // a blocked pattern matching any of them refuses ...
  if (blocked.length) {
    const list = await addressesOf();
    if (list?.some((a) => matchesAny(blocked, [forMatch(a)], true))) return deniedUnless('MIRROR_BLOCKED_DOMAINS');
  }
  if (allowed.length) {
    // A name the allow list admits is still looked up: an address in a range that is never
    // allowed (the metadata service, link-local, ...) refuses it whatever the lists say.
    // A name that does not resolve passes here, as in Gitea; a sync needs its addresses.
    if (matchesAny(allowed, names, false)) return (await addressesOf())?.some(neverAllowed) ? DENIED : undefined;
    // ... and allowed patterns matching all of them allow.
    const list = await addressesOf();
    if (list?.length && list.every((a) => matchesAny(allowed, [forMatch(a)], false) && !neverAllowed(a))) return undefined;
    return list?.some(neverAllowed) ? DENIED : deniedUnless('MIRROR_ALLOWED_DOMAINS');
  }
  const list = await addressesOf();
  if (!list?.length) return DENIED;
  if (list.every((a) => addressAllowed(a, policy.allowLocalNetworks))) return undefined;
  return list.some(neverAllowed) ? DENIED : deniedUnless('MIRROR_ALLOW_LOCAL_NETWORKS');
}

/** Go's escaping of userinfo (encodeUserPassword): unreserved and `$&+,;=` stay, everything else is %XX of its UTF-8 bytes. */
function goEscapeUserinfo(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~$&+,;=]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

