import { spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findSsh, generateMirrorKeyPair } from '../../server/gitea/mirrors/ssh-keys.js';
import { requireTool, skipBecause } from '../_helpers/skip.js';
import { tempDirs } from '../_helpers/temp-dir.js';

const test = suite('ssh-keys');

const freshDir = tempDirs(test, 'ssh-keys');

/** Minimal reader of SSH wire data. */
class Reader {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}
  uint32(): number {
    assert.ok(this.pos + 4 <= this.buf.length, 'uint32 past end');
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  bytes(n: number): Buffer {
    assert.ok(this.pos + n <= this.buf.length, 'bytes past end');
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }
  string(): Buffer {
    return this.bytes(this.uint32());
  }
  rest(): Buffer {
    return this.bytes(this.buf.length - this.pos);
  }
  get done(): boolean {
    return this.pos === this.buf.length;
  }
}

function parsePublicLine(line: string): Buffer {
  const [type, b64, ...more] = line.split(' ');
  assert.is(type, 'ssh-ed25519');
  assert.is(more.length, 0);
  const r = new Reader(Buffer.from(b64!, 'base64'));
  assert.is(r.string().toString(), 'ssh-ed25519');
  const pub = r.string();
  assert.is(pub.length, 32);
  assert.ok(r.done, 'trailing bytes in public blob');
  return pub;
}

/** Parses an unencrypted openssh-key-v1 ed25519 private key file, checking every field. */
function parsePrivateKey(text: string): { pub: Buffer; seed: Buffer; comment: string; blob: Buffer } {
  const lines = text.split('\n');
  assert.is(lines[0], '-----BEGIN OPENSSH PRIVATE KEY-----');
  assert.is(lines.at(-1), '', 'trailing newline');
  assert.is(lines.at(-2), '-----END OPENSSH PRIVATE KEY-----');
  const body = lines.slice(1, -2);
  body.forEach((l, i) => {
    assert.match(l, /^[A-Za-z0-9+/]+=*$/);
    if (i < body.length - 1) assert.is(l.length, 70, 'wrapped at 70 columns');
    else assert.ok(l.length <= 70 && l.length > 0);
  });
  const raw = Buffer.from(body.join(''), 'base64');
  assert.is(raw.subarray(0, 15).toString('latin1'), 'openssh-key-v1\0');
  const r = new Reader(raw.subarray(15));
  assert.is(r.string().toString(), 'none', 'ciphername');
  assert.is(r.string().toString(), 'none', 'kdfname');
  assert.is(r.string().length, 0, 'kdfoptions');
  assert.is(r.uint32(), 1, 'number of keys');
  const blob = r.string();
  const priv = r.string();
  assert.ok(r.done, 'trailing bytes after private section');

  assert.is(priv.length % 8, 0, 'private section padded to 8');
  const p = new Reader(priv);
  const c1 = p.uint32();
  const c2 = p.uint32();
  assert.is(c1, c2, 'checkints match');
  assert.is(p.string().toString(), 'ssh-ed25519');
  const pub = p.string();
  assert.is(pub.length, 32);
  const both = p.string();
  assert.is(both.length, 64);
  assert.equal(both.subarray(32), pub, 'private key ends with the public key');
  const comment = p.string().toString('utf8');
  const pad = p.rest();
  assert.ok(pad.length < 8);
  pad.forEach((b, i) => assert.is(b, i + 1, 'padding 1,2,3…'));

  const bp = new Reader(blob);
  assert.is(bp.string().toString(), 'ssh-ed25519');
  assert.equal(bp.string(), pub, 'outer public blob matches private section');
  assert.ok(bp.done);
  return { pub, seed: Buffer.from(both.subarray(0, 32)), comment, blob };
}

test('public line format and blob', () => {
  const { publicKey, privateKey } = generateMirrorKeyPair();
  assert.match(publicKey, /^ssh-ed25519 [A-Za-z0-9+/]+=*$/);
  assert.not.ok(publicKey.endsWith('\n'));
  const pub = parsePublicLine(publicKey);
  const parsed = parsePrivateKey(privateKey);
  assert.equal(parsed.pub, pub);
  assert.is(publicKey, `ssh-ed25519 ${parsed.blob.toString('base64')}`);
  assert.is(parsed.comment, '');
  // ed25519 public blob is always 51 bytes → 68 base64 chars
  assert.is(publicKey.length, 'ssh-ed25519 '.length + 68);
});

test('keys differ between calls; comment is stored in the private key only', () => {
  const a = generateMirrorKeyPair('push mirror 7');
  const b = generateMirrorKeyPair('push mirror 7');
  assert.is.not(a.publicKey, b.publicKey);
  assert.is.not(a.privateKey, b.privateKey);
  assert.not.ok(a.publicKey.includes('push mirror'));
  assert.is(parsePrivateKey(a.privateKey).comment, 'push mirror 7');
  // every padding length gets exercised across comment lengths
  for (let n = 0; n < 9; n++) assert.is(parsePrivateKey(generateMirrorKeyPair('c'.repeat(n)).privateKey).comment, 'c'.repeat(n));
});

test('the seed in the private key signs; the public line verifies', () => {
  const { publicKey, privateKey } = generateMirrorKeyPair('sig');
  const { seed, pub } = parsePrivateKey(privateKey);
  const key = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: seed.toString('base64url'), x: pub.toString('base64url') }, format: 'jwk' });
  const pubKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: parsePublicLine(publicKey).toString('base64url') }, format: 'jwk' });
  // the seed alone determines the public key
  assert.equal(Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x!, 'base64url'), pub);
  const msg = Buffer.from('trunkline push mirror');
  const sig = sign(null, msg, key);
  assert.ok(verify(null, msg, pubKey, sig));
  assert.not.ok(verify(null, Buffer.from('other'), pubKey, sig));
});

function hasTool(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return !(r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') && r.status !== null;
}

/** ssh-keygen is there (it exits non-zero on -?, so `have` cannot tell). */
function needKeygen(test: string): boolean {
  if (hasTool('ssh-keygen', ['-?'])) return true;
  skipBecause(test, 'install openssh-client');
  return false;
}

/** A key pair with (or without) a comment, its private key in a 0600 file. */
function keyFile(comment: string) {
  const { publicKey, privateKey } = generateMirrorKeyPair(comment || undefined);
  const file = join(freshDir(), `id_ed25519_${comment ? 'c' : 'n'}`);
  writeFileSync(file, privateKey, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { publicKey, file };
}

test('ssh-keygen accepts the private key and derives the same public key', ({ __test__ }) => {
  if (!needKeygen(__test__)) return;
  for (const comment of ['', 'trunkline mirror key']) {
    const { publicKey, file } = keyFile(comment);
    const r = spawnSync('ssh-keygen', ['-y', '-f', file], { encoding: 'utf8' });
    assert.is(r.status, 0, `ssh-keygen -y failed: ${r.stderr}`);
    const out = r.stdout.trimEnd();
    assert.ok(out === publicKey || out === `${publicKey} ${comment}`.trimEnd(), `ssh-keygen printed ${JSON.stringify(out)}, expected ${publicKey}`);
  }
});

test('ssh-keygen -Y signs with the private key file and verifies against the public line', ({ __test__ }) => {
  if (!needKeygen(__test__)) return;
  // -Y needs OpenSSH 8.0 or later.
  const probe = spawnSync('ssh-keygen', ['-Y', 'sign'], { encoding: 'utf8' });
  if (/unknown option|illegal option/i.test(probe.stderr)) return skipBecause(__test__, 'install openssh-client 8.0 or later');
  for (const comment of ['', 'trunkline mirror key']) {
    const { publicKey, file } = keyFile(comment);
    const dir = freshDir();
    const data = join(dir, 'data.txt');
    writeFileSync(data, 'hello mirror\n');
    const s = spawnSync('ssh-keygen', ['-Y', 'sign', '-f', file, '-n', 'file', data], { encoding: 'utf8' });
    assert.is(s.status, 0, `ssh-keygen -Y sign failed: ${s.stderr}`);
    const signers = join(dir, 'allowed_signers');
    writeFileSync(signers, `mirror@trunkline ${publicKey}\n`);
    const v = spawnSync('ssh-keygen', ['-Y', 'verify', '-f', signers, '-I', 'mirror@trunkline', '-n', 'file', '-s', `${data}.sig`], {
      input: 'hello mirror\n',
      encoding: 'utf8',
    });
    assert.is(v.status, 0, `ssh-keygen -Y verify failed: ${v.stderr}${v.stdout}`);
  }
});

test('findSsh: finds the installed ssh on PATH', ({ __test__ }) => {
  if (!requireTool(__test__, 'ssh', 'openssh-client', ['-V'])) return;
  const found = findSsh();
  assert.ok(found, 'ssh is installed but findSsh() returned null');
  assert.match(found!, /[\\/]ssh(\.exe)?$/i);
});

test('findSsh: null when absent; skips non-executables, directories and relative entries', () => {
  const empty = freshDir();
  assert.is(findSsh({ PATH: empty }), null);
  assert.is(findSsh({ PATH: '' }), null);
  assert.is(findSsh({}), null);

  if (process.platform !== 'win32') {
    const bin = join(freshDir(), 'bin');
    mkdirSync(bin);
    const fake = join(bin, 'ssh');
    writeFileSync(fake, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    assert.is(findSsh({ PATH: bin }), null, 'non-executable file is not ssh');
    chmodSync(fake, 0o755);
    assert.is(findSsh({ PATH: [empty, bin].join(delimiter) }), fake);
    // a directory called ssh is skipped
    const withDir = freshDir();
    mkdirSync(join(withDir, 'ssh'));
    assert.is(findSsh({ PATH: [withDir, bin].join(delimiter) }), fake);
    // relative entries are ignored
    assert.is(findSsh({ PATH: ['.', 'bin'].join(delimiter) }), null);
  }
});

test.run();
