import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, type ChildServer } from '../_helpers/child.js';
import { connectEvents } from '../_helpers/events.js';
import { basicAuth } from '../_helpers/request.js';
import { tempDir } from '../_helpers/temp-dir.js';

// Everything the server writes under DATA_DIR (the database and its WAL, the sealing key, recordings,
// uploaded far-end audio, repositories, LFS objects) is readable by its own user only, and a DATA_DIR
// it creates is 0700, whatever umask it was started with.
const test = suite('security: file modes under DATA_DIR');
let root = '';
let server: ChildServer | undefined;

test.after(async () => {
  server?.proc.kill('SIGKILL');
  await server?.exited;
  rmSync(root, { recursive: true, force: true });
});

function walk(dir: string, out: Array<[string, number]> = []): Array<[string, number]> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    out.push([p, st.mode & 0o777]);
    if (st.isDirectory()) walk(p, out);
  }
  return out;
}

test('a fresh DATA_DIR under a permissive umask: 0700, and nothing inside open to group or world', async () => {
  root = tempDir('modes');
  const dataDir = join(root, 'nested', 'data');
  // The test runner's umask is the usual 022; say so, so the test cannot pass for the wrong reason.
  const old = process.umask(0o022);
  try {
    server = await spawnServer({ DATA_DIR: dataDir, ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password-1', SIM_TIME_SCALE: '20' });
  } finally {
    process.umask(old);
  }
  const s = server;
  const basic = basicAuth('root:root-password-1');
  const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${s.url}${path}`, { method, headers: { authorization: basic, 'content-type': 'application/json', ...headers }, ...(body !== undefined ? { body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body) } : {}) });

  // Repositories, commits and an LFS object.
  assert.is((await api('POST', '/api/v1/user/repos', { name: 'modes', auto_init: true })).status, 201);
  assert.is((await api('POST', '/api/v1/repos/root/modes/contents/a.txt', { content: Buffer.from('hello\n').toString('base64') })).status, 201);
  const obj = Buffer.from('an lfs object\n');
  const oid = createHash('sha256').update(obj).digest('hex');
  const lfsHeaders = { accept: 'application/vnd.git-lfs+json', 'content-type': 'application/vnd.git-lfs+json' };
  assert.is((await api('POST', '/root/modes.git/info/lfs/objects/batch', { operation: 'upload', objects: [{ oid, size: obj.length }] }, lfsHeaders)).status, 200);
  assert.is((await api('PUT', `/root/modes.git/info/lfs/objects/${oid}/${obj.length}`, obj, { 'content-type': 'application/octet-stream' })).status, 200);

  // A recording, and far-end audio uploaded through the simulation API.
  const ev = await connectEvents(s.url, 'modes');
  assert.is((await s.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'modes', channelId: 'm1' } })).status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'm1');
  const wav = Buffer.alloc(44 + 1600);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + 1600, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(8000, 24);
  wav.writeUInt32LE(16000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(1600, 40);
  const up = await fetch(`${s.url}/sim/channels/m1/audio`, { method: 'PUT', headers: { authorization: basicAuth('asterisk:asterisk'), 'content-type': 'audio/wav' }, body: wav });
  assert.is(up.status, 204, await up.text());
  assert.is((await s.http('POST', '/ari/channels/m1/record', { query: { name: 'modes/rec', format: 'wav', maxDurationSeconds: 1 } })).status, 201);
  await ev.waitFor((e) => e.type === 'RecordingFinished', 10_000);
  await ev.close();

  assert.is(lstatSync(dataDir).mode & 0o777, 0o700);
  const entries = walk(dataDir);
  // The walk saw what matters, so the check below is about real files.
  for (const part of ['trunkline.db', 'trunkline.db-wal', 'secret.key', '.wav', '.git', 'lfs']) {
    assert.ok(entries.some(([p]) => p.includes(part)), `expected something named like ${part} under DATA_DIR`);
  }
  const open = entries.filter(([, mode]) => (mode & 0o077) !== 0).map(([p, mode]) => `${p.slice(dataDir.length)} ${mode.toString(8)}`);
  assert.equal(open, []);
});

test.run();
