import { isIP } from 'node:net';
import type { OAuth2AppRepo, OAuth2AppRow } from '../../db/repos/oauth2-app-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { badRequest, notFound } from '../../errors.js';
import { newClientId, newOAuth2Secret, secretHash, secretMatches } from './oauth2-secrets.js';

/** The settings of a new or edited application (Gitea's CreateOAuth2ApplicationOptions). */
export interface OAuth2AppInput {
  name: string;
  redirectUris: readonly string[];
  confidential: boolean;
  skipSecondaryAuthorization: boolean;
}

/** The longest redirect URI kept (browsers and proxies refuse far shorter URLs than a hostile client could send). */
const MAX_URI = 2048;

/**
 * Gitea accepts redirect URIs that are valid http(s) URLs (custom schemes only
 * when its OAUTH2 CUSTOM_SCHEMES names them, which we do not have). A fragment
 * is refused too: RFC 6749 forbids it, and the code would be appended after it.
 */
function validRedirect(uri: string): boolean {
  if (uri.length > MAX_URI) return false;
  try {
    const u = new URL(uri);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && !uri.includes('#') && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** The registered redirect URIs of a row. */
export const redirectUrisOf = (app: OAuth2AppRow): string[] => JSON.parse(app.redirect_uris) as string[];

/**
 * Gitea's ContainsRedirectURI: the URI is one registered (compared without
 * regard to case); for a public client, an http URI on a loopback IP address
 * (127.0.0.0/8, ::1) also matches a registered one that leaves the port out,
 * whatever its port (RFC 8252 7.3: a native app listens on a port it gets
 * from the system). `localhost` is a name, not an IP, and gets no such rule.
 */
export function redirectAllowed(app: OAuth2AppRow, uri: string): boolean {
  const registered = redirectUrisOf(app).map((r) => r.toLowerCase());
  if (registered.includes(uri.toLowerCase())) return true;
  if (app.confidential_client) return false;
  try {
    const u = new URL(uri);
    if (u.protocol !== 'http:' || !u.port) return false;
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const loopback = (isIP(host) === 4 && host.startsWith('127.')) || (isIP(host) === 6 && (host === '::1' || host === '0:0:0:0:0:0:0:1'));
    if (!loopback) return false;
    // The URI as given with its port taken out (WHATWG URL would rewrite other parts, Go does not).
    const withoutPort = uri.replace(/^(http:\/\/[^/?#]*?):\d+/i, '$1');
    return registered.includes(withoutPort.toLowerCase());
  } catch {
    return false;
  }
}

/** OAuth2 applications: registration, edits (each issuing a new secret), and client authentication. */
export function createOAuth2Apps(rows: OAuth2AppRepo, now: () => number = () => Math.floor(Date.now() / 1000)) {
  function checkInput(input: OAuth2AppInput): void {
    const bad = input.redirectUris.find((u) => !validRedirect(u));
    if (bad !== undefined) throw badRequest(`invalid redirect URI: ${bad}`);
  }

  function own(user: UserRow, id: number): OAuth2AppRow {
    const app = rows.byId(id);
    // Another user's application is answered as one that does not exist.
    if (!app || app.user_id !== user.id) throw notFound('The target couldn\'t be found.');
    return app;
  }

  return {
    /** One page of the user's applications, newest first, with the total count. */
    page: (user: UserRow, limit: number, offset: number) => rows.page(user.id, limit, offset),

    /** Registers an application; the secret is returned here only. */
    create(user: UserRow, input: OAuth2AppInput): { row: OAuth2AppRow; secret: string } {
      checkInput(input);
      const secret = newOAuth2Secret('gto_');
      const id = rows.insert({
        user_id: user.id,
        name: input.name,
        client_id: newClientId(),
        secret_hash: secretHash(secret),
        redirect_uris: JSON.stringify(input.redirectUris),
        confidential_client: input.confidential ? 1 : 0,
        skip_secondary_authorization: input.skipSecondaryAuthorization ? 1 : 0,
        created_at: now(),
      });
      return { row: rows.byId(id)!, secret };
    },

    /** The user's own application (404 for anyone else's). */
    get: own,

    /** Replaces the settings and, as Gitea's API does, issues a new secret (returned here only). */
    update(user: UserRow, id: number, input: OAuth2AppInput): { row: OAuth2AppRow; secret: string } {
      own(user, id);
      checkInput(input);
      const secret = newOAuth2Secret('gto_');
      rows.update(id, {
        name: input.name,
        redirect_uris: JSON.stringify(input.redirectUris),
        confidential_client: input.confidential ? 1 : 0,
        skip_secondary_authorization: input.skipSecondaryAuthorization ? 1 : 0,
        secret_hash: secretHash(secret),
        updated_at: now(),
      });
      return { row: rows.byId(id)!, secret };
    },

    /** Deletes the application with its grants, codes and tokens (they stop working at once). */
    remove(user: UserRow, id: number): void {
      if (!rows.remove(id, user.id)) throw notFound('The target couldn\'t be found.');
    },

    byClientId: (clientId: string) => (clientId && clientId.length <= 255 ? rows.byClientId(clientId) : undefined),
    byId: (id: number) => rows.byId(id),
    /** Whether `secret` is the application's current client secret. */
    checkSecret: (app: OAuth2AppRow, secret: string) => secret !== '' && secretMatches(secret, app.secret_hash),
  };
}

/** The OAuth2 application service's interface. */
export type OAuth2Apps = ReturnType<typeof createOAuth2Apps>;
