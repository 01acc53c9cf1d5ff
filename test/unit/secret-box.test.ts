import { readFileSync, statSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SecretBoxError, openSecretBox } from '../../server/util/secret-box.js';
import { tempDirs } from '../_helpers/temp-dir.js';

const test = suite('secret-box');

const freshDir = tempDirs(test, 'secret-box');

function throwsSecretBoxError(fn: () => unknown, secretText?: string): SecretBoxError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, SecretBoxError);
    assert.instance(err, Error);
    assert.is((err as Error).name, 'SecretBoxError');
    if (secretText) assert.not.ok((err as Error).message.includes(secretText), 'message leaks plaintext');
    return err as SecretBoxError;
  }
  assert.unreachable('expected a SecretBoxError');
  throw new Error('unreachable');
}

const ENV_KEY = 'correct horse battery staple';

test('round trip, including empty and non-ASCII values', () => {
  const { box } = openSecretBox({ secretKey: ENV_KEY, dataDir: freshDir() });
  for (const plain of ['hunter2', '', 'pässwörd ✓ 🔑', 'x'.repeat(10_000), '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n']) {
    const sealed = box.seal(plain, 'push_mirror:12:password');
    assert.match(sealed, /^v1:[A-Za-z0-9_-]+$/);
    assert.not.ok(sealed.includes(plain) && plain.length > 0);
    assert.is(box.open(sealed, 'push_mirror:12:password'), plain);
  }
});

test('each seal uses a fresh nonce', () => {
  const { box } = openSecretBox({ secretKey: ENV_KEY, dataDir: freshDir() });
  const seen = new Set<string>();
  const nonces = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const s = box.seal('same', 'aad');
    seen.add(s);
    nonces.add(Buffer.from(s.slice(3), 'base64url').subarray(0, 12).toString('hex'));
  }
  assert.is(seen.size, 50);
  assert.is(nonces.size, 50);
  // layout: 12-byte nonce | ciphertext (same length as plaintext) | 16-byte tag
  assert.is(Buffer.from(box.seal('abcd', 'aad').slice(3), 'base64url').length, 12 + 4 + 16);
});

test('wrong aad, tampering, wrong key and garbage all throw SecretBoxError without the plaintext', () => {
  const dataDir = freshDir();
  const { box } = openSecretBox({ secretKey: ENV_KEY, dataDir });
  const plain = 'sup3r-s3cret-pa55';
  const sealed = box.seal(plain, 'push_mirror:12:password');

  throwsSecretBoxError(() => box.open(sealed, 'push_mirror:13:password'), plain);
  throwsSecretBoxError(() => box.open(sealed, ''), plain);

  const raw = Buffer.from(sealed.slice(3), 'base64url');
  for (const i of [0, 12, raw.length - 1]) {
    const t = Buffer.from(raw);
    t[i] = t[i]! ^ 0x01;
    throwsSecretBoxError(() => box.open(`v1:${t.toString('base64url')}`, 'push_mirror:12:password'), plain);
  }
  // truncated
  throwsSecretBoxError(() => box.open(`v1:${raw.subarray(0, raw.length - 1).toString('base64url')}`, 'push_mirror:12:password'));

  const other = openSecretBox({ secretKey: 'another key of enough length', dataDir }).box;
  throwsSecretBoxError(() => other.open(sealed, 'push_mirror:12:password'), plain);
  const fileBox = openSecretBox({ dataDir }).box;
  throwsSecretBoxError(() => fileBox.open(sealed, 'push_mirror:12:password'), plain);

  for (const garbage of ['', 'hunter2', 'v1:', 'v1:abc', 'v2:' + sealed.slice(3), 'v1:!!!!', 'v1:' + 'A'.repeat(20), sealed + '*']) {
    throwsSecretBoxError(() => box.open(garbage, 'push_mirror:12:password'));
  }
});

test('key file: created with mode 0600, reused on the next open', () => {
  const dataDir = join(freshDir(), 'nested', 'data'); // created on demand
  const first = openSecretBox({ dataDir });
  assert.is(first.source, 'file-created');
  const file = join(dataDir, 'secret.key');
  const st = statSync(file);
  if (process.platform !== 'win32') assert.is(st.mode & 0o777, 0o600);
  assert.is(st.size, 32);
  assert.equal(readdirSync(dataDir), ['secret.key'], 'no temp file left behind');
  const keyBytes = readFileSync(file);

  const sealed = first.box.seal('mirror-token', 'push_mirror:1:password');
  const second = openSecretBox({ dataDir });
  assert.is(second.source, 'file');
  assert.equal(readFileSync(file), keyBytes, 'key file unchanged');
  assert.is(second.box.open(sealed, 'push_mirror:1:password'), 'mirror-token');
});

test('env key wins over a key file, writes no file, and is deterministic', () => {
  const dataDir = freshDir();
  const env1 = openSecretBox({ secretKey: ENV_KEY, dataDir });
  assert.is(env1.source, 'env');
  assert.not.ok(existsSync(join(dataDir, 'secret.key')));

  const fileBox = openSecretBox({ dataDir });
  assert.is(fileBox.source, 'file-created');
  const env2 = openSecretBox({ secretKey: ENV_KEY, dataDir });
  assert.is(env2.source, 'env');
  const sealed = env1.box.seal('v', 'a');
  assert.is(env2.box.open(sealed, 'a'), 'v');
  throwsSecretBoxError(() => fileBox.box.open(sealed, 'a'));
  throwsSecretBoxError(() => env2.box.open(fileBox.box.seal('v', 'a'), 'a'));
});

test('short SECRET_KEY throws a clear error without echoing the key', () => {
  const dataDir = freshDir();
  for (const secretKey of ['', 'short', '123456789012345']) {
    const err = throwsSecretBoxError(() => openSecretBox({ secretKey, dataDir }));
    assert.match(err.message, /SECRET_KEY must be at least 16 characters/);
    if (secretKey) assert.not.ok(err.message.includes(secretKey));
  }
  assert.not.ok(existsSync(join(dataDir, 'secret.key')));
  assert.is(openSecretBox({ secretKey: '1234567890123456', dataDir }).source, 'env');
});

test('a key file of the wrong size throws naming the file', () => {
  const dataDir = freshDir();
  const file = join(dataDir, 'secret.key');
  for (const size of [0, 31, 33, 64]) {
    writeFileSync(file, Buffer.alloc(size, 7), { mode: 0o600 });
    const err = throwsSecretBoxError(() => openSecretBox({ dataDir }));
    assert.ok(err.message.includes(file), err.message);
    assert.match(err.message, new RegExp(`found ${size}\\b`));
    assert.is(statSync(file).size, size, 'bad file left alone');
  }
});

test.run();
