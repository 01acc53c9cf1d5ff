import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError } from '../_helpers/api-error.js';
import { cloneUrl, git, gitAsync, giteaWorld, useGitea, type Account, type GiteaWorld } from '../_helpers/gitea.js';
import { requireTool } from '../_helpers/skip.js';
import { startTestServer } from '../_helpers/server.js';
import { tempDir } from '../_helpers/temp-dir.js';

// migrate with lfs: the LFS objects the copied refs point to come along (at migration and on every
// mirror sync), from the source's batch API or lfs_endpoint, every outbound request under the mirror
// address policy. Remotes that misbehave are tiny node:http servers on 127.0.0.1.
const test = suite('gitea: migrate with LFS');
const ctx = useGitea(test, { MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });

const LFS = 'application/vnd.git-lfs+json';
const ATTRS = { '.gitattributes': '*.bin filter=lfs diff=lfs merge=lfs -text\n' };
const object = (bytes: Buffer) => ({ oid: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, bytes });
const pointerOf = (o: { oid: string; size: number }) => `version https://git-lfs.github.com/spec/v1\noid sha256:${o.oid}\nsize ${o.size}\n`;
const A = object(randomBytes(3000));
const B = object(randomBytes(2000));
const C = object(randomBytes(1000));
const D = object(Buffer.from('an object the source never received\n'));
const ONE = object(randomBytes(1500));

let g: GiteaWorld;
let alice: Account;
let bob: Account;
let work: string;

const migrate = (body: object) => g.api('POST', '/api/v1/repos/migrate', { json: body, auth: bob.auth });
const asAlice = { auth_username: 'alice', auth_password: '' };
const media = (repo: string, path: string, auth: Account = bob) => g.api('GET', `/api/v1/repos/${repo}/media/${path}`, { auth: { token: auth.token } });
const linked = (repoId: number) =>
  (g.t.server.db.prepare('SELECT oid FROM lfs_repo_objects WHERE repo_id = ? ORDER BY oid').all(repoId) as { oid: string }[]).map((r) => r.oid);
const pending = (repoId: number) => g.t.server.db.prepare('SELECT oid, size FROM lfs_mirror_pending WHERE repo_id = ? ORDER BY oid').all(repoId);
const noSecretsLogged = (...secrets: string[]) => {
  for (const line of g.t.logs) for (const s of secrets) assert.not.ok(line.includes(s), `log line holds "${s}": ${line}`);
};

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A tiny HTTP server on 127.0.0.1 playing a remote; records every request. */
async function remote(handle: (req: Seen, res: ServerResponse) => void = (_r, res) => res.writeHead(404).end()) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(s);
      r.handle(s, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const r = {
    url,
    seen,
    handle,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return r;
}

const batchAnswer = (res: ServerResponse, body: unknown) => res.writeHead(200, { 'content-type': LFS }).end(JSON.stringify(body));

test.before(async () => {
  g = ctx.g;
  work = tempDir('migrate-lfs');
  [alice, bob] = [await g.user('alice'), await g.user('bob')];
  asAlice.auth_password = alice.token;
  // alice/assets (private): A on main, B on the branch side; objects stored through the contents API.
  await g.repo('assets', { owner: alice, private: true });
  await g.commit('alice', 'assets', ATTRS, { auth: alice.auth });
  await g.commit('alice', 'assets', { 'data/a.bin': A.bytes, 'notes.txt': 'plain\n' }, { auth: alice.auth });
  await g.commit('alice', 'assets', { 'b.bin': B.bytes }, { newBranch: 'side', auth: alice.auth });
  // alice/one (public): a single object, the source of the hostile-remote cases.
  await g.repo('one', { owner: alice });
  await g.commit('alice', 'one', ATTRS, { auth: alice.auth });
  await g.commit('alice', 'one', { 'one.bin': ONE.bytes }, { auth: alice.auth });
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test('lfs:true: 201, every object the refs point to is linked to the copy and served by /media and the batch API', async () => {
  const r = await migrate({ clone_addr: `${g.url}/alice/assets.git`, ...asAlice, repo_name: 'copy', lfs: true, private: true });
  assert.is(r.status, 201, r.text);
  assert.is(r.body.full_name, 'bob/copy');
  assert.is(r.body.mirror, false);
  assert.equal(linked(r.body.id), [A.oid, B.oid].sort());
  assert.ok((await media('bob/copy', 'data/a.bin')).bytes.equals(A.bytes));
  assert.ok((await media('bob/copy', 'b.bin?ref=side')).bytes.equals(B.bytes));
  const raw = await g.api('GET', '/api/v1/repos/bob/copy/raw/data/a.bin', { auth: bob.auth });
  assert.is(raw.text, pointerOf(A));
  const auth = `token ${bob.token}`;
  const batch = await fetch(`${g.url}/bob/copy.git/info/lfs/objects/batch`, {
    method: 'POST',
    headers: { accept: LFS, 'content-type': LFS, authorization: auth },
    body: JSON.stringify({ operation: 'download', objects: [{ oid: A.oid, size: A.size }] }),
  });
  assert.is(batch.status, 200);
  assert.equal(await batch.json(), { objects: [{ oid: A.oid, size: A.size, actions: { download: { href: `${g.url}/bob/copy.git/info/lfs/objects/${A.oid}`, header: { Authorization: auth } } } }] });
  assert.not.ok(r.text.includes(alice.token));
  noSecretsLogged(alice.token);
});

test('real git-lfs: a clone of the copy smudges the object', async () => {
  if (!requireTool('clone of a migrated copy with git-lfs', 'git-lfs', 'git-lfs')) return;
  const dir = join(work, 'copy');
  await gitAsync(['clone', '-q', cloneUrl(g, 'bob', 'copy', bob), dir], { env: { GIT_LFS_SKIP_SMUDGE: '1' } });
  git(['lfs', 'install', '--local'], { cwd: dir });
  await gitAsync(['lfs', 'pull'], { cwd: dir });
  assert.ok(readFileSync(join(dir, 'data/a.bin')).equals(A.bytes));
  // And the smudge filter on a plain clone.
  const again = join(work, 'copy-smudged');
  await gitAsync(['-c', 'filter.lfs.smudge=git-lfs smudge -- %f', '-c', 'filter.lfs.process=git-lfs filter-process', '-c', 'filter.lfs.required=true', 'clone', '-q', cloneUrl(g, 'bob', 'copy', bob), again]);
  assert.ok(readFileSync(join(again, 'data/a.bin')).equals(A.bytes));
});

test('lfs:false (and lfs omitted) copies the pointers only: no object is linked, /media serves the pointer', async () => {
  const r = await migrate({ clone_addr: `${g.url}/alice/assets.git`, ...asAlice, repo_name: 'pointers-only', lfs: false });
  assert.is(r.status, 201, r.text);
  assert.equal(linked(r.body.id), []);
  const m = await media('bob/pointers-only', 'data/a.bin');
  assert.is(m.status, 200);
  assert.is(m.bytes.toString('utf8'), pointerOf(A));
});

test('mirror with lfs: the mirror remembers it; an object pushed to the source arrives with the next mirror-sync', async () => {
  const r = await migrate({ clone_addr: `${g.url}/alice/assets.git`, ...asAlice, repo_name: 'mirror', lfs: true, mirror: true, mirror_interval: '0' });
  assert.is(r.status, 201, r.text);
  assert.is(r.body.mirror, true);
  const row = g.t.server.db.prepare('SELECT lfs, lfs_endpoint FROM pull_mirrors WHERE repo_id = ?').get(r.body.id);
  assert.equal(row, { lfs: 1, lfs_endpoint: '' });
  assert.equal(linked(r.body.id), [A.oid, B.oid].sort());

  await g.commit('alice', 'assets', { 'c.bin': C.bytes }, { auth: alice.auth });
  assert.is((await media('bob/mirror', 'c.bin')).status, 404);
  const sync = await g.api('POST', '/api/v1/repos/bob/mirror/mirror-sync', { auth: bob.auth });
  assert.is(sync.status, 200, sync.text);
  await g.t.server.gitea.mirrorQueue.idle();
  assert.equal(linked(r.body.id), [A.oid, B.oid, C.oid].sort());
  assert.ok((await media('bob/mirror', 'c.bin')).bytes.equals(C.bytes));
});

test('an object the source lacks (per-object 404) is skipped as Gitea does: 201, and it arrives on a later sync once the source has it', async () => {
  await g.repo('holes', { owner: alice });
  // A pointer committed as a plain file: the source's LFS store never got D.
  await g.commit('alice', 'holes', { 'ghost.bin': pointerOf(D), 'real.txt': 'x\n' }, { auth: alice.auth });
  const r = await migrate({ clone_addr: `${g.url}/alice/holes.git`, ...asAlice, repo_name: 'holes', lfs: true, mirror: true, mirror_interval: '0' });
  assert.is(r.status, 201, r.text);
  assert.equal(linked(r.body.id), []);
  assert.equal(pending(r.body.id), [{ oid: D.oid, size: D.size }]);
  assert.is((await media('bob/holes', 'ghost.bin')).bytes.toString('utf8'), pointerOf(D));

  const put = await fetch(`${g.url}/alice/holes.git/info/lfs/objects/${D.oid}/${D.size}`, { method: 'PUT', headers: { authorization: `token ${alice.token}` }, body: D.bytes });
  assert.is(put.status, 200);
  assert.is((await g.api('POST', '/api/v1/repos/bob/holes/mirror-sync', { auth: bob.auth })).status, 200);
  await g.t.server.gitea.mirrorQueue.idle();
  assert.equal(linked(r.body.id), [D.oid]);
  assert.equal(pending(r.body.id), []);
  assert.ok((await media('bob/holes', 'ghost.bin')).bytes.equals(D.bytes));
});

test('a source without an LFS server (Gitea): pointers → 422 and nothing kept; no pointers → 201 without any LFS request', async () => {
  const t2 = await startTestServer({ LFS_ENABLED: 'false' });
  try {
    const w = await giteaWorld(t2);
    const carol = await w.user('carol');
    await w.repo('withptr', { owner: carol });
    await w.commit('carol', 'withptr', { 'big.bin': pointerOf(ONE) }, { auth: carol.auth });
    await w.repo('plain', { owner: carol });
    const r = await migrate({ clone_addr: `${w.url}/carol/withptr.git`, auth_username: 'carol', auth_token: carol.token, repo_name: 'from-nolfs', lfs: true });
    assert.is(r.status, 422, r.text);
    assert.equal(r.body, apiError(g, 'Migration failed: LFS batch request: HTTP 404'));
    assert.is((await g.api('GET', '/api/v1/repos/bob/from-nolfs', { auth: bob.auth })).status, 404);

    const plain = await migrate({ clone_addr: `${w.url}/carol/plain.git`, repo_name: 'plain-nolfs', lfs: true });
    assert.is(plain.status, 201, plain.text);
    // Counted on an lfs_endpoint that records requests: none is made when nothing points into LFS.
    const x = await remote();
    try {
      const again = await migrate({ clone_addr: `${w.url}/carol/plain.git`, repo_name: 'plain-nolfs-2', lfs: true, lfs_endpoint: `${x.url}/lfs` });
      assert.is(again.status, 201, again.text);
      assert.equal(x.seen, []);
    } finally {
      await x.close();
    }
  } finally {
    await t2.close();
  }
});

test('lfs_endpoint passes the address policy: another scheme 400, the metadata address 401 (as clone_addr)', async () => {
  const base = { clone_addr: `${g.url}/alice/one.git`, repo_name: 'ep', lfs: true };
  const ftp = await migrate({ ...base, lfs_endpoint: 'ftp://example.com/lfs' });
  assert.is(ftp.status, 400);
  assert.equal(ftp.body, apiError(g, 'Invalid mirror protocol'));
  const meta = await migrate({ ...base, lfs_endpoint: 'http://169.254.169.254/lfs' });
  assert.is(meta.status, 401);
  assert.equal(meta.body, apiError(g, 'Permission denied'));
  // Without lfs the endpoint is not looked at (as Gitea).
  const off = await migrate({ ...base, lfs: false, lfs_endpoint: 'ftp://example.com/lfs' });
  assert.is(off.status, 201, off.text);
});

test('hostile LFS remotes: hrefs and redirects off the endpoint\'s origin refused, credentials kept home, remote text never shown', async () => {
  const other = await remote((_r, res) => res.writeHead(200).end(ONE.bytes)); // must never be reached
  const h = await remote();
  const SECRET = 'REMOTE-SECRET-TEXT';
  const download = (href: string, header: Record<string, string> = {}) => ({ objects: [{ oid: ONE.oid, size: ONE.size, actions: { download: { href, header } } }] });
  const cases: { name: string; batch: (res: ServerResponse) => void; get?: (res: ServerResponse) => void; message: string }[] = [
    { name: 'href to another host:port', batch: (res) => batchAnswer(res, download(`${other.url}/steal/${ONE.oid}`, { Authorization: 'Basic c3RvbGVu' })), message: `LFS download of ${ONE.oid}: refused by the mirror address policy` },
    {
      name: 'redirect to another host:port',
      batch: (res) => batchAnswer(res, download(`${h.url}/obj/${ONE.oid}`, { Authorization: 'Bearer remote-issued' })),
      get: (res) => res.writeHead(302, { location: `${other.url}/steal/${ONE.oid}` }).end(SECRET),
      message: `LFS download of ${ONE.oid}: refused by the mirror address policy`,
    },
    { name: 'href to the metadata address', batch: (res) => batchAnswer(res, download(`http://169.254.169.254/latest/${ONE.oid}`)), message: `LFS download of ${ONE.oid}: refused by the mirror address policy` },
    { name: 'per-object error 410', batch: (res) => batchAnswer(res, { objects: [{ oid: ONE.oid, size: ONE.size, error: { code: 410, message: SECRET } }] }), message: `LFS object ${ONE.oid}: the remote answered error 410` },
    { name: 'batch 500', batch: (res) => res.writeHead(500, { 'content-type': LFS }).end(JSON.stringify({ message: SECRET })), message: 'LFS batch request: HTTP 500' },
    { name: 'batch not JSON', batch: (res) => res.writeHead(200).end(SECRET), message: 'LFS batch request: the answer is not JSON' },
    {
      name: 'download answers 403',
      batch: (res) => batchAnswer(res, download(`${h.url}/obj/${ONE.oid}`)),
      get: (res) => res.writeHead(403).end(SECRET),
      message: `LFS download of ${ONE.oid}: HTTP 403`,
    },
    {
      name: 'more bytes than declared (Content-Length)',
      batch: (res) => batchAnswer(res, download(`${h.url}/obj/${ONE.oid}`)),
      get: (res) => res.writeHead(200, { 'content-length': String(ONE.size + 1) }).end(Buffer.concat([ONE.bytes, Buffer.from('x')])),
      message: `LFS download of ${ONE.oid}: the remote sends more bytes than the pointer declares`,
    },
    {
      name: 'more bytes than declared (chunked)',
      batch: (res) => batchAnswer(res, download(`${h.url}/obj/${ONE.oid}`)),
      get: (res) => {
        res.writeHead(200);
        res.write(ONE.bytes);
        res.end(randomBytes(100_000));
      },
      message: `LFS download of ${ONE.oid}: the content is not the size its pointer declares`,
    },
    {
      name: 'wrong bytes',
      batch: (res) => batchAnswer(res, download(`${h.url}/obj/${ONE.oid}`)),
      get: (res) => res.writeHead(200).end(randomBytes(ONE.size)),
      message: `LFS download of ${ONE.oid}: the content does not hash to its oid`,
    },
  ];
  try {
    for (const [i, c] of cases.entries()) {
      h.seen.length = 0;
      h.handle = (req, res) => (req.method === 'POST' ? c.batch(res) : c.get ? c.get(res) : res.writeHead(404).end());
      const r = await migrate({ clone_addr: `${g.url}/alice/one.git`, ...asAlice, repo_name: `hostile-${i}`, lfs: true, lfs_endpoint: `${h.url}/lfs` });
      assert.is(r.status, 422, `${c.name}: ${r.text}`);
      assert.equal(r.body, apiError(g, `Migration failed: ${c.message}`), c.name);
      assert.is((await g.api('GET', `/api/v1/repos/bob/hostile-${i}`, { auth: bob.auth })).status, 404, c.name);
      // The batch request: exact body, and no credentials (lfs_endpoint is another origin than clone_addr and has none of its own).
      assert.equal(h.seen[0]!.url, '/lfs/objects/batch', c.name);
      assert.equal(JSON.parse(h.seen[0]!.body), { operation: 'download', transfers: ['basic'], objects: [{ oid: ONE.oid, size: ONE.size }] });
      assert.is(h.seen[0]!.headers.authorization, undefined, c.name);
      assert.is(h.seen[0]!.headers.accept, LFS);
      if (c.name.startsWith('redirect')) assert.is(h.seen[1]!.headers.authorization, 'Bearer remote-issued');
    }
    assert.equal(other.seen, [], 'the other host was never contacted');
    noSecretsLogged(SECRET, alice.token);
  } finally {
    await Promise.all([h.close(), other.close()]);
  }
});

test('a well-behaved remote on lfs_endpoint: its own userinfo credentials, only Authorization of the header map, same-origin href', async () => {
  const h = await remote((req, res) => {
    if (req.method === 'POST')
      batchAnswer(res, { objects: [{ oid: ONE.oid, size: ONE.size, actions: { download: { href: `${h.url}/obj/${ONE.oid}`, header: { Authorization: 'Bearer remote-issued', Cookie: 'c=1', 'X-Evil': 'yes' } } } }] });
    else res.writeHead(200).end(ONE.bytes);
  });
  try {
    const r = await migrate({ clone_addr: `${g.url}/alice/one.git`, ...asAlice, repo_name: 'via-endpoint', lfs: true, mirror: true, mirror_interval: '0', lfs_endpoint: `http://lfsuser:lfs-secret-9@${h.url.slice(7)}/lfs` });
    assert.is(r.status, 201, r.text);
    assert.equal(linked(r.body.id), [ONE.oid]);
    assert.ok((await media('bob/via-endpoint', 'one.bin')).bytes.equals(ONE.bytes));
    assert.equal(
      h.seen.map((s) => [s.method, s.url]),
      [
        ['POST', '/lfs/objects/batch'],
        ['GET', `/obj/${ONE.oid}`],
      ],
    );
    assert.is(h.seen[0]!.headers.authorization, `Basic ${Buffer.from('lfsuser:lfs-secret-9').toString('base64')}`);
    assert.is(h.seen[1]!.headers.authorization, 'Bearer remote-issued');
    assert.is(h.seen[1]!.headers.cookie, undefined);
    assert.is(h.seen[1]!.headers['x-evil'], undefined);
    // Stored without its credentials (they are sealed with the rest).
    const row = g.t.server.db.prepare('SELECT lfs, lfs_endpoint, credentials FROM pull_mirrors WHERE repo_id = ?').get(r.body.id) as { lfs: number; lfs_endpoint: string; credentials: string };
    assert.is(row.lfs_endpoint, `${h.url}/lfs`);
    assert.not.ok(row.credentials.includes('lfs-secret-9'));
    assert.not.ok(r.text.includes('lfs-secret-9'));
    noSecretsLogged('lfs-secret-9');
    // A sync with nothing new asks the remote nothing.
    assert.is((await g.api('POST', '/api/v1/repos/bob/via-endpoint/mirror-sync', { auth: bob.auth })).status, 200);
    await g.t.server.gitea.mirrorQueue.idle();
    assert.is(h.seen.length, 2);
  } finally {
    await h.close();
  }
});

test('a remote that stops answering is given up after MIRROR_LFS_IDLE_TIMEOUT: 422, nothing kept', async () => {
  const t3 = await startTestServer({ MIRROR_ALLOW_LOCAL_NETWORKS: 'true', MIRROR_LFS_IDLE_TIMEOUT: '300ms' });
  const stall = await remote(() => {}); // never answers
  try {
    const w = await giteaWorld(t3);
    const r = await w.api('POST', '/api/v1/repos/migrate', { json: { clone_addr: `${g.url}/alice/one.git`, repo_name: 'stalled', lfs: true, lfs_endpoint: `${stall.url}/lfs` } });
    assert.is(r.status, 422, r.text);
    assert.equal(r.body, { message: 'Migration failed: LFS batch request: timed out', url: `${w.url}/api/swagger` });
    assert.is((await w.api('GET', '/api/v1/repos/root/stalled')).status, 404);
    assert.is(stall.seen.length, 1);
  } finally {
    await stall.close();
    await t3.close();
  }
});

test.run();
