import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { tokenHash } from './passwords.js';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Lower-case base32 without padding (the alphabet Gitea writes its OAuth2 secrets in). */
export function base32Lower(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * A new OAuth2 secret: a prefix that names its kind (so secret scanners can
 * find a leaked one, as Gitea's `gto_` secrets and `gta_` codes) and 256 random bits.
 */
export const newOAuth2Secret = (prefix: 'gto_' | 'gta_' | 'gtat_' | 'gtrt_' | 'gts_') => prefix + base32Lower(randomBytes(32));

/** A new client id: a random UUID, as Gitea's. */
export const newClientId = () => randomUUID();

/** How every OAuth2 secret is stored and looked up: its SHA-256 (each is 256 random bits). */
export const secretHash = tokenHash;

/** Whether `secret` hashes to `stored`, compared in constant time. */
export function secretMatches(secret: string, stored: string): boolean {
  const a = Buffer.from(secretHash(secret), 'hex');
  const b = Buffer.from(stored, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
