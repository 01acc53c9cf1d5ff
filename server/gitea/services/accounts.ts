import { createHash, randomBytes } from 'node:crypto';
import type { TokenRepo, TokenRow } from '../../db/repos/token-repo.js';
import type { UserRepo, UserRow } from '../../db/repos/user-repo.js';
import { badRequest, notFound, unprocessable } from '../../errors.js';
import { Lru } from '../../util/lru.js';
import { validUsername } from '../../../protocol/gitea/request.js';
import { LoginThrottle, Throttled } from './login-throttle.js';
import { hashPassword, newToken, NO_PASSWORD_HASH, tokenHash, verifyPassword } from './passwords.js';
import { normaliseScopes, Scopes } from './scopes.js';

/** Gitea's reserved user names and patterns, plus our own top-level routes (decisions.md). */
const RESERVED_NAMES = new Set([
  '.', '..', '.well-known', 'api', 'metrics', 'v2', 'assets', 'attachments', 'avatar', 'avatars', 'repo-avatars', 'captcha', 'login', 'org', 'repo',
  'user', 'explore', 'issues', 'pulls', 'milestones', 'notifications', 'favicon.ico', 'manifest.json', 'robots.txt', 'sitemap.xml', 'ssh_info',
  'swagger.v1.json', 'openapi3.v1.json', 'ghost', 'gitea-actions',
  // Trunkline's own route prefixes.
  'ari', 'sim', 'admin', 'users', 'repos',
]);
const RESERVED_PATTERNS = ['*.keys', '*.gpg', '*.rss', '*.atom', '*.png'];

/** Gitea: passwords shorter than MIN_PASSWORD_LENGTH (8) are refused. */
export const MIN_PASSWORD_LENGTH = 8;

/** Whether an account may sign in at all (any way: password, token, OAuth2, web session): active, not barred, and a person (an organisation, type 1, never signs in). */
export const canSignIn = (user: UserRow | undefined): user is UserRow => !!user && !!user.is_active && !user.prohibit_login && user.type === 0;

/** A token's last use is written at most this often (seconds). */
const TOKEN_USE_RECORDED_EVERY_S = 60;

/** The caller once credentials are checked. */
export interface Authenticated {
  user: UserRow;
  /** Set when a token authenticated the request: scopes are then checked. */
  token: TokenRow | null;
  /** The token's scopes, parsed once (null without a token: password sessions are not scoped). */
  scopes: Scopes | null;
  /** Set when the token is an OAuth2 access token: the grant it was issued under. */
  oauth?: { grantId: number; applicationId: number };
}

/** The port through which OAuth2 access tokens are checked (services/oauth2-tokens.ts). */
export interface OAuthTokenCheck {
  check(token: string): { userId: number; grantId: number; applicationId: number; scopes: string } | null;
}

/** A user to create. */
export interface NewUserInput {
  username: string;
  email: string;
  password: string;
  fullName?: string;
  isAdmin?: boolean;
  visibility?: string;
  /** Unix seconds; an admin may backdate an account (CreateUserOption.created_at). */
  createdAt?: number;
  /**
   * The first-start admin: decisions.md names `admin` as its default while
   * also reserving that name, so the reserved list bars registering it, not
   * bootstrapping it (no route of ours lives at /admin, so it can own repos).
   */
  bootstrap?: boolean;
}

/** Users and access tokens: creation rules, password and token checks. */
export function createAccounts(
  users: UserRepo,
  tokens: TokenRepo,
  now: () => number = () => Math.floor(Date.now() / 1000),
  throttle: LoginThrottle = new LoginThrottle({ failures: 0, windowMs: 0 }),
  oauthTokens?: OAuthTokenCheck,
) {
  // Checking a password costs ~50 ms of scrypt; git over HTTP sends Basic credentials on every
  // request, so a verified pair is remembered briefly, keyed by a salted hash (never the password).
  const pepper = randomBytes(16);
  // The entry keeps the hash it was checked against: a password changed meanwhile (here or by the
  // admin command line, in another process) no longer matches it.
  const verified = new Lru<string, { userId: number; hash: string; until: number }>(1024);
  const pairKey = (name: string, password: string) => createHash('sha256').update(pepper).update(name.toLowerCase()).update('\0').update(password).digest('hex');

  /**
   * An OAuth2 access token's caller: its user (who must still be able to sign
   * in) with the grant's scopes. It stands in a token row of its own, so the
   * routes that take only the account password refuse it as they refuse tokens.
   */
  function oauthCaller(token: string): Authenticated | null {
    const found = oauthTokens?.check(token);
    if (!found) return null;
    const user = users.byId(found.userId);
    if (!canSignIn(user)) return null;
    const row: TokenRow = { id: 0, user_id: user.id, name: 'oauth2', token_hash: '', last_eight: '', scopes: found.scopes, created_at: 0, last_used_at: 0 };
    return { user, token: row, scopes: new Scopes(found.scopes), oauth: { grantId: found.grantId, applicationId: found.applicationId } };
  }

  /** Gitea's IsUsableUsername: the characters first, then reserved names, then reserved patterns. */
  function checkName(name: string): void {
    if (!validUsername(name)) throw unprocessable(`name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`);
    const lower = name.toLowerCase();
    if (RESERVED_NAMES.has(lower)) throw unprocessable(`name is reserved [name: ${lower}]`);
    for (const pat of RESERVED_PATTERNS) if (lower.endsWith(pat.slice(1))) throw unprocessable(`name pattern is not allowed [pattern: ${pat}]`);
  }

  return {
    /** Gitea's IsUsableUsername (organisation names follow the same rules). */
    checkName,
    byName: (name: string) => users.byName(name),
    byId: (id: number) => users.byId(id),
    byEmail: (email: string) => users.byEmail(email),
    count: () => users.count(),
    /** Every account, oldest first. */
    all: () => users.all(),

    /**
     * Creates a user, with Gitea's checks in its order: the password (400) is
     * checked by the API handler before the account rules (422 for a bad or
     * reserved name, then a taken name, then a taken email).
     */
    async createUser(input: NewUserInput): Promise<UserRow> {
      if (Buffer.byteLength(input.password) < MIN_PASSWORD_LENGTH) throw badRequest('PasswordIsRequired');
      if (!input.bootstrap) checkName(input.username);
      const checkFree = () => {
        if (users.byName(input.username)) throw unprocessable(`user already exists [name: ${input.username}]`);
        if (users.byEmail(input.email)) throw unprocessable(`e-mail already in use [email: ${input.email}]`);
      };
      checkFree();
      const passwordHash = await hashPassword(input.password);
      // Hashing yields: a concurrent request may have taken the name or email meanwhile.
      checkFree();
      const id = users.insert({
        name: input.username,
        full_name: input.fullName ?? '',
        email: input.email,
        password_hash: passwordHash,
        is_admin: input.isAdmin ? 1 : 0,
        visibility: input.visibility || 'public',
        created_at: input.createdAt ?? now(),
      });
      return users.byId(id)!;
    },

    /** Where failed password checks are counted (tests move its clock). */
    throttle,

    /**
     * Basic credentials: the password may be a token (tried first, as Gitea
     * does), or the account password, checked from `client` (its address).
     * Every refused password costs one scrypt run, whether the user exists,
     * may sign in, or neither, so timing does not tell which; too many
     * failures and the check is not made at all (Throttled).
     */
    async checkBasic(name: string, password: string, client = ''): Promise<Authenticated | Throttled | null> {
      if (password === '' || password === 'x-oauth-basic') return this.checkToken(name);
      // As Gitea: a token in the password slot authenticates its owner, whatever user name is given.
      const asToken = this.checkToken(password);
      if (asToken) return asToken;
      return this.checkPassword(name, password, client);
    },

    /**
     * The account password alone (the web sign-in form, Basic credentials),
     * checked from `client` (its address) under the login throttle.
     */
    async checkPassword(name: string, password: string, client = ''): Promise<Authenticated | Throttled | null> {
      const wait = throttle.check(name, client);
      if (wait) return new Throttled(wait);
      const user = users.byName(name);
      const usable = canSignIn(user);
      const key = pairKey(name, password);
      const hit = usable ? verified.get(key) : undefined;
      if (hit && hit.userId === user!.id && hit.hash === user!.password_hash && hit.until > Date.now()) {
        throttle.succeeded(name, client);
        return { user: user!, token: null, scopes: null };
      }
      const matches = await verifyPassword(password, user?.password_hash ?? NO_PASSWORD_HASH);
      if (!matches || !usable) {
        throttle.failed(name, client);
        return null;
      }
      verified.set(key, { userId: user!.id, hash: user!.password_hash, until: Date.now() + 5 * 60_000 });
      throttle.succeeded(name, client);
      return { user: user!, token: null, scopes: null };
    },

    /** A token (header, query, or Basic): looked up by its hash. */
    checkToken(token: string): Authenticated | null {
      if (!/^[0-9a-f]{40}$/.test(token)) return oauthCaller(token);
      const hash = tokenHash(token);
      let row = tokens.byHash(hash);
      if (!row) return null;
      const user = users.byId(row.user_id);
      if (!canSignIn(user)) return null;
      const at = now();
      if (at - row.last_used_at >= TOKEN_USE_RECORDED_EVERY_S) {
        // Coarse: a write per minute, not per request. The row as written is the caller's (stillCurrent reads it).
        tokens.touch(row.id, at);
        row = tokens.byHash(hash) ?? row;
      }
      return { user, token: row, scopes: new Scopes(row.scopes) };
    },

    /**
     * Whether the same credentials, presented again now, would authenticate
     * `auth` without writing anything, provided no account table changed
     * meanwhile (what replay.ts checks): a token whose use is due to be
     * recorded is not, so its next request goes through `checkToken`.
     */
    stillCurrent(auth: Authenticated): boolean {
      // An OAuth2 token dies with its grant or application, which no account table records: checked every time.
      if (auth.oauth) return false;
      return !auth.token || now() - auth.token.last_used_at < TOKEN_USE_RECORDED_EVERY_S;
    },

    /**
     * Sets a new password (at least MIN_PASSWORD_LENGTH bytes). As Gitea's
     * `admin user change-password`, only the password changes: the account's
     * access tokens stay valid.
     */
    async setPassword(user: UserRow, password: string): Promise<void> {
      if (Buffer.byteLength(password) < MIN_PASSWORD_LENGTH) throw badRequest('PasswordIsRequired');
      users.setPasswordHash(user.id, await hashPassword(password), now());
      verified.deleteWhere(() => true);
    },

    /** Forgets remembered password checks (after a password change or user deletion). */
    forgetPasswords(): void {
      verified.deleteWhere(() => true);
    },

    createToken(user: UserRow, name: string, requested: readonly string[]): { row: TokenRow; token: string } {
      if (tokens.byName(user.id, name)) throw badRequest('access token name has been used already');
      const norm = normaliseScopes(requested);
      if ('invalid' in norm) throw badRequest(`invalid access token scope provided: invalid access token scope: ${norm.invalid}`);
      if (!norm.scopes.length) throw badRequest('access token must have a scope');
      const token = newToken();
      const id = tokens.insert({ user_id: user.id, name, token_hash: tokenHash(token), last_eight: token.slice(-8), scopes: norm.scopes.join(','), created_at: now() });
      return { row: tokens.byId(user.id, id)!, token };
    },

    listTokens: (user: UserRow) => tokens.list(user.id),

    /** `token` is an id when it parses as a non-zero integer (as Gitea's ParseInt), a name otherwise; unknown → 404 `not found`. */
    deleteToken(user: UserRow, token: string): void {
      const id = /^\d+$/.test(token) ? Number(token) : 0;
      const row = id ? tokens.byId(user.id, id) : tokens.byName(user.id, token);
      if (!row) throw notFound('not found');
      tokens.remove(row.id);
    },
  };
}

/** The account service's interface. */
export type Accounts = ReturnType<typeof createAccounts>;
