/**
 * SSH key pairs for push mirrors with `use_ssh`: an ed25519 key generated
 * with node:crypto and serialised in OpenSSH's own formats (the
 * authorized_keys line and the unencrypted "openssh-key-v1" private key
 * file), plus locating the `ssh` client on PATH.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

const KEY_TYPE = 'ssh-ed25519';
const AUTH_MAGIC = Buffer.from('openssh-key-v1\0', 'latin1');
const PEM_BEGIN = '-----BEGIN OPENSSH PRIVATE KEY-----';
const PEM_END = '-----END OPENSSH PRIVATE KEY-----';
/** Block size used for padding the private section when the cipher is "none". */
const PAD_BLOCK = 8;
const WRAP = 70;

/** SSH wire "string": uint32 big-endian length, then the bytes. */
function sshString(data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  return Buffer.concat([len, body]);
}

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/** The public key blob: string("ssh-ed25519") string(32-byte key). */
function publicBlob(pub: Buffer): Buffer {
  return Buffer.concat([sshString(KEY_TYPE), sshString(pub)]);
}

/**
 * An ed25519 key pair: `publicKey` is the authorized_keys line
 * `ssh-ed25519 <base64>` with NO trailing newline and no comment;
 * `privateKey` is the OpenSSH private key file text
 * ("-----BEGIN OPENSSH PRIVATE KEY-----" … unencrypted, as
 * `ssh-keygen -t ed25519 -N ''` writes it, with a trailing newline) that
 * OpenSSH's ssh accepts with -i. `comment` (default none) is stored only
 * inside the private key.
 */
export function generateMirrorKeyPair(comment = ''): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwkPub = publicKey.export({ format: 'jwk' });
  const jwkPriv = privateKey.export({ format: 'jwk' });
  if (!jwkPub.x || !jwkPriv.d) throw new Error('ed25519 JWK export is missing key material');
  const pub = Buffer.from(jwkPub.x, 'base64url');
  const seed = Buffer.from(jwkPriv.d, 'base64url');
  if (pub.length !== 32 || seed.length !== 32) throw new Error('unexpected ed25519 key length');

  const blob = publicBlob(pub);
  const check = randomBytes(4).readUInt32BE(0);
  const secret = Buffer.concat([
    uint32(check),
    uint32(check),
    sshString(KEY_TYPE),
    sshString(pub),
    sshString(Buffer.concat([seed, pub])),
    sshString(comment),
  ]);
  const padLen = (PAD_BLOCK - (secret.length % PAD_BLOCK)) % PAD_BLOCK;
  const padding = Buffer.from(Array.from({ length: padLen }, (_, i) => i + 1));
  const privateSection = Buffer.concat([secret, padding]);

  const body = Buffer.concat([
    AUTH_MAGIC,
    sshString('none'), // ciphername
    sshString('none'), // kdfname
    sshString(Buffer.alloc(0)), // kdfoptions
    uint32(1), // number of keys
    sshString(blob),
    sshString(privateSection),
  ]);
  const b64 = body.toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += WRAP) lines.push(b64.slice(i, i + WRAP));

  secret.fill(0);
  privateSection.fill(0);
  seed.fill(0);

  return {
    publicKey: `${KEY_TYPE} ${blob.toString('base64')}`,
    privateKey: `${PEM_BEGIN}\n${lines.join('\n')}\n${PEM_END}\n`,
  };
}

/**
 * Path of an ssh executable on PATH, or null (the API answers 400 "SSH
 * authentication not available." without one). Empty and relative PATH
 * entries are ignored rather than resolved against the working directory.
 */
export function findSsh(env: NodeJS.ProcessEnv = process.env): string | null {
  const pathVar = env.PATH ?? env.Path ?? '';
  const names =
    process.platform === 'win32'
      ? (env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean).map((ext) => `ssh${ext.toLowerCase()}`)
      : ['ssh'];
  for (const dir of pathVar.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        if (!statSync(candidate).isFile()) continue;
        if (process.platform !== 'win32') accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        /* not here */
      }
    }
  }
  return null;
}
