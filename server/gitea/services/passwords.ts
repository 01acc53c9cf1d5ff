import { hash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scryptAsync = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scrypt(pw, salt, len, opts, (err, key) => (err ? reject(err) : resolve(key))));

/** scrypt with N=2^15: about 50 ms of one core per check, 32 MiB of memory. */
const PARAMS = { N: 32768, r: 8, p: 1 };
const MAXMEM = 64 * 1024 * 1024;

/** `scrypt$N$r$p$salt$hash`, base64 parts: parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, 32, { ...PARAMS, maxmem: MAXMEM });
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** How many password checks (scrypt runs) were made; tests compare it, rather than times, to see that every refusal costs the same. */
export const passwordChecks = { count: 0 };

/**
 * A stored hash that no password matches (random bytes for the key), with the
 * parameters of real ones: an unknown user's password is checked against it,
 * so that refusing an unknown user costs what refusing a known one does.
 */
export const NO_PASSWORD_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`;

/** Whether a password matches a stored hash (scrypt with the stored parameters, compared in constant time). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  passwordChecks.count++;
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: MAXMEM });
  return timingSafeEqual(key, expected);
}

/** Tokens are 160 random bits, so an unsalted SHA-256 is a safe way to store and look them up. */
// crypto.hash: the one-shot form, a quarter of createHash's cost on every token-authenticated request.
export const tokenHash = (token: string) => hash('sha256', token, 'hex');

/** A new access token: 40 lowercase hex characters, like Gitea's. */
export const newToken = () => randomBytes(20).toString('hex');

/** A printable random password for the bootstrapped admin. */
export const newPassword = () => randomBytes(18).toString('base64url');
