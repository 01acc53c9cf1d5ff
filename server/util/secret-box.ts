/**
 * Encryption at rest for secrets kept in SQLite (mirror credentials, SSH
 * private keys). One 32-byte key per data directory, AES-256-GCM per value,
 * with associated data binding each value to the row and column it lives in.
 *
 * Only node:crypto; the key never leaves this module's closures.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const PREFIX = 'v1:';
const HKDF_SALT = 'trunkline-secret-box';
const HKDF_INFO = 'v1';
export const MIN_SECRET_KEY_LENGTH = 16;
export const SECRET_KEY_FILE = 'secret.key';

/** A sealed value that cannot be opened, or a key that cannot be loaded. Messages never contain plaintext or key material. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export interface SecretBox {
  /** AES-256-GCM, random 12-byte nonce; output `v1:` + base64url(nonce | ciphertext | tag). `aad` binds the value to its row (e.g. `push_mirror:12:password`) so a value copied to another row does not decrypt. */
  seal(plain: string, aad: string): string;
  /** Throws SecretBoxError (message without the plaintext) on a wrong key, tampering, wrong aad or bad format. */
  open(sealed: string, aad: string): string;
}

export type SecretKeySource = 'env' | 'file-created' | 'file';

/**
 * Loads or creates the key: `secretKey` (from SECRET_KEY, any string ≥ 16
 * chars) is stretched with HKDF-SHA256 (fixed salt 'trunkline-secret-box',
 * info 'v1') to 32 bytes; without it, a random 32-byte key kept in
 * `${dataDir}/secret.key` (created on first start with mode 0600, written
 * atomically: tmp + rename; read back on later starts; a file of the wrong
 * size is an error naming the file). Returns the box and where the key came
 * from.
 *
 * Only `undefined` means "no SECRET_KEY": an empty or short string throws, so
 * a mis-set variable is not silently replaced by a file key.
 */
export function openSecretBox(opts: { secretKey?: string; dataDir: string }): { box: SecretBox; source: SecretKeySource } {
  if (opts.secretKey !== undefined) {
    return { box: makeBox(deriveKey(opts.secretKey)), source: 'env' };
  }
  const { key, created } = loadOrCreateKeyFile(opts.dataDir);
  return { box: makeBox(key), source: created ? 'file-created' : 'file' };
}

function deriveKey(secretKey: string): Buffer {
  const length = [...secretKey].length;
  if (length < MIN_SECRET_KEY_LENGTH) {
    throw new SecretBoxError(
      `SECRET_KEY must be at least ${MIN_SECRET_KEY_LENGTH} characters long (got ${length}); leave it unset to use a generated key file`,
    );
  }
  return Buffer.from(hkdfSync('sha256', Buffer.from(secretKey, 'utf8'), HKDF_SALT, HKDF_INFO, KEY_BYTES));
}

function loadOrCreateKeyFile(dataDir: string): { key: Buffer; created: boolean } {
  const file = join(dataDir, SECRET_KEY_FILE);
  const existing = readKeyFile(file);
  if (existing) return { key: existing, created: false };

  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, key);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new SecretBoxError(`cannot create secret key file ${file}: ${(err as Error).message}`);
  }
  syncDir(dataDir);
  return { key, created: true };
}

/** The key in `file`, or null when there is no such file. */
function readKeyFile(file: string): Buffer | null {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SecretBoxError(`cannot read secret key file ${file}: ${(err as Error).message}`);
  }
  if (data.length !== KEY_BYTES) {
    throw new SecretBoxError(
      `secret key file ${file} must hold exactly ${KEY_BYTES} bytes (found ${data.length}); restore the original file (values sealed with it cannot be opened otherwise) or set SECRET_KEY`,
    );
  }
  return data;
}

/** Makes the rename durable; best effort (not every platform can fsync a directory). */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    /* best effort */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function makeBox(key: Buffer): SecretBox {
  return {
    seal(plain: string, aad: string): string {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
    },

    open(sealed: string, aad: string): string {
      if (typeof sealed !== 'string' || !sealed.startsWith(PREFIX)) {
        throw new SecretBoxError('sealed value has an unknown format (expected "v1:" prefix)');
      }
      const encoded = sealed.slice(PREFIX.length);
      if (!BASE64URL.test(encoded) || encoded.length % 4 === 1) {
        throw new SecretBoxError('sealed value is not valid base64url');
      }
      const raw = Buffer.from(encoded, 'base64url');
      if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SecretBoxError('sealed value is too short');
      const nonce = raw.subarray(0, NONCE_BYTES);
      const body = raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES);
      const tag = raw.subarray(raw.length - TAG_BYTES);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(aad, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError('sealed value cannot be opened (wrong key, wrong aad, or tampered)');
      }
    },
  };
}
