import type { Accounts, Authenticated } from '../services/accounts.js';

export type Credentials =
  | { kind: 'none' }
  | { kind: 'token'; token: string; from: 'header' | 'query' }
  | { kind: 'basic'; name: string; password: string };

/** What the caller presented: `Authorization: token|Bearer X`, Basic, or `?token=` / `?access_token=`. */
export function readCredentials(authorization: string | undefined, url: URL, allowQuery: boolean): Credentials {
  if (authorization) {
    const parts = authorization.trim().split(/\s+/);
    if (parts.length === 2) {
      const scheme = parts[0]!.toLowerCase();
      if (scheme === 'token' || scheme === 'bearer') return { kind: 'token', token: parts[1]!, from: 'header' };
      if (scheme === 'basic') {
        const decoded = Buffer.from(parts[1]!, 'base64').toString('utf8');
        const i = decoded.indexOf(':');
        if (i >= 0) return { kind: 'basic', name: decoded.slice(0, i), password: decoded.slice(i + 1) };
        return { kind: 'basic', name: decoded, password: '' };
      }
    }
  }
  if (allowQuery) {
    const q = url.searchParams.get('token') ?? url.searchParams.get('access_token');
    if (q) return { kind: 'token', token: q, from: 'query' };
  }
  return { kind: 'none' };
}

/** Resolves credentials to a user; `false` means credentials were given and are wrong (401). */
export async function authenticate(accounts: Accounts, creds: Credentials): Promise<Authenticated | null | false> {
  switch (creds.kind) {
    case 'none':
      return null;
    case 'token':
      return accounts.checkToken(creds.token) ?? false;
    case 'basic':
      return (await accounts.checkBasic(creds.name, creds.password)) ?? false;
  }
}
