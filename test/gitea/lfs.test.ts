import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cloneUrl, commitFiles, git, gitAsync, useGitea, type Account } from '../_helpers/gitea.js';
import { request } from '../_helpers/request.js';
import { requireTool } from '../_helpers/skip.js';
import { startTestServer } from '../_helpers/server.js';
import { tempDir } from '../_helpers/temp-dir.js';

// The LFS server under /{owner}/{repo}.git/info/lfs/ (batch, upload, verify, download) as Gitea answers it,
// objects linked per repository, and real `git lfs push` / clone followed by /media.
const test = suite('gitea: LFS');
const ctx = useGitea(test);

const LFS = 'application/vnd.git-lfs+json';
let alice: Account;
let bob: Account; // read collaborator on alice/store
let dave: Account; // stranger
let work: string;

const object = (bytes: Buffer) => ({ oid: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, bytes });
const A = object(randomBytes(5000));
const B = object(Buffer.from('another object\n'));

async function lfs(path: string, init: { method?: string; auth?: string | null; body?: unknown; accept?: string | null; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.accept !== null) headers.accept = init.accept ?? LFS;
  if (init.auth) headers.authorization = init.auth;
  let body: string | Buffer | undefined;
  if (Buffer.isBuffer(init.body) || typeof init.body === 'string') body = init.body;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = LFS;
  }
  const r = await request(ctx.g.url, init.method ?? 'GET', path, { body, headers });
  return { status: r.status, headers: r.headers, buf: r.bytes, text: r.bytes.toString('utf8') };
}

const tokenAuth = (a: Account) => `token ${a.token}`;
const batch = (repo: string, operation: string, objects: unknown[], auth: string | null) =>
  lfs(`/${repo}.git/info/lfs/objects/batch`, { method: 'POST', body: { operation, objects }, auth });

test.before(async () => {
  work = tempDir('lfs');
  const g = ctx.g;
  [alice, bob, dave] = [await g.user('alice'), await g.user('bob'), await g.user('dave')];
  await g.repo('store', { owner: alice });
  await g.repo('other', { owner: alice });
  await g.repo('hidden', { owner: alice, private: true });
  const r = await g.api('PUT', '/api/v1/repos/alice/store/collaborators/bob', { json: { permission: 'read' }, auth: alice.auth });
  assert.is(r.status, 204);
});

test.after(() => {
  rmSync(work, { recursive: true, force: true });
});

test('batch upload → PUT → verify → batch download → GET, with Gitea\'s exact bodies and hrefs', async () => {
  const auth = tokenAuth(alice);
  const prefix = `${ctx.g.url}/alice/store.git/info/lfs`;
  const up = await batch('alice/store', 'upload', [{ oid: A.oid, size: A.size }], auth);
  assert.is(up.status, 200);
  assert.is(up.headers.get('content-type'), LFS);
  assert.ok(up.text.endsWith('}\n'));
  assert.equal(JSON.parse(up.text), {
    objects: [
      {
        oid: A.oid,
        size: A.size,
        actions: {
          upload: { href: `${prefix}/objects/${A.oid}/${A.size}`, header: { Authorization: auth } },
          verify: { href: `${prefix}/verify`, header: { Accept: 'application/vnd.git-lfs+json;q=0.9, */*;q=0.8', Authorization: auth } },
        },
      },
    ],
  });

  // Not stored yet: verify and download say 404.
  assert.is((await lfs('/alice/store.git/info/lfs/verify', { method: 'POST', body: { oid: A.oid, size: A.size }, auth })).status, 404);
  const missing = await batch('alice/store', 'download', [{ oid: A.oid, size: A.size }], auth);
  assert.equal(JSON.parse(missing.text).objects, [{ oid: A.oid, size: A.size, error: { code: 404, message: 'Not Found' } }]);

  const put = await lfs(`/alice/store.git/info/lfs/objects/${A.oid}/${A.size}`, { method: 'PUT', body: A.bytes, auth, accept: null });
  assert.is(put.status, 200, put.text);
  const verify = await lfs('/alice/store.git/info/lfs/verify', { method: 'POST', body: { oid: A.oid, size: A.size }, auth });
  assert.is(verify.status, 200);
  assert.is(verify.text, '{"Message":"OK"}\n');

  // Once stored and linked, an upload batch asks for nothing.
  const again = await batch('alice/store', 'upload', [{ oid: A.oid, size: A.size }], auth);
  assert.equal(JSON.parse(again.text), { objects: [{ oid: A.oid, size: A.size }] });

  const down = await batch('alice/store', 'download', [{ oid: A.oid, size: A.size }], auth);
  assert.equal(JSON.parse(down.text), { objects: [{ oid: A.oid, size: A.size, actions: { download: { href: `${prefix}/objects/${A.oid}`, header: { Authorization: auth } } } }] });

  const get = await lfs(`/alice/store.git/info/lfs/objects/${A.oid}`, { auth, accept: null });
  assert.is(get.status, 200);
  assert.is(get.headers.get('content-type'), 'application/octet-stream');
  assert.is(get.headers.get('content-length'), String(A.size));
  assert.ok(get.buf.equals(A.bytes));
  // A public repository: anonymous readers download too.
  assert.ok((await lfs(`/alice/store.git/info/lfs/objects/${A.oid}`, { accept: null })).buf.equals(A.bytes));
  // The object is content-addressed under DATA_DIR.
  assert.ok(existsSync(join(ctx.g.t.dataDir, 'lfs', A.oid.slice(0, 2), A.oid.slice(2, 4), A.oid.slice(4))));
});

test('download: Range gives 206 with Content-Range, past the end 416; a filename gives Content-Disposition', async () => {
  const auth = tokenAuth(alice);
  const part = await lfs(`/alice/store.git/info/lfs/objects/${A.oid}`, { auth, accept: null, headers: { range: 'bytes=10-19' } });
  assert.is(part.status, 206);
  assert.is(part.headers.get('content-range'), `bytes 10-19/${A.size}`);
  assert.ok(part.buf.equals(A.bytes.subarray(10, 20)));
  const tail = await lfs(`/alice/store.git/info/lfs/objects/${A.oid}`, { auth, accept: null, headers: { range: 'bytes=4990-' } });
  assert.is(tail.status, 206);
  assert.ok(tail.buf.equals(A.bytes.subarray(4990)));
  const past = await lfs(`/alice/store.git/info/lfs/objects/${A.oid}`, { auth, accept: null, headers: { range: `bytes=${A.size}-` } });
  assert.is(past.status, 416);
  assert.is(past.text, '{"Message":"Requested Range Not Satisfiable"}\n');
  const named = await lfs(`/alice/store.git/info/lfs/objects/${A.oid}/${Buffer.from('report.pdf').toString('base64url')}`, { auth, accept: null });
  assert.is(named.headers.get('content-disposition'), 'attachment; filename="report.pdf"');
  const head = await lfs(`/alice/store.git/info/lfs/objects/${A.oid}`, { method: 'HEAD', auth, accept: null });
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), String(A.size));
  assert.is(head.buf.length, 0);
});

test('upload: wrong bytes, wrong size and bad pointers are 422; nothing is linked', async () => {
  const auth = tokenAuth(alice);
  const wrong = await lfs(`/alice/store.git/info/lfs/objects/${B.oid}/${B.size}`, { method: 'PUT', body: Buffer.from('another objecT\n'), auth, accept: null });
  assert.is(wrong.status, 422);
  assert.is(wrong.text, '{"Message":"content hash does not match OID"}\n');
  const short = await lfs(`/alice/store.git/info/lfs/objects/${B.oid}/${B.size}`, { method: 'PUT', body: B.bytes.subarray(0, 5), auth, accept: null });
  assert.is(short.status, 422);
  assert.is(short.text, '{"Message":"content size does not match"}\n');
  const long = await lfs(`/alice/store.git/info/lfs/objects/${B.oid}/${B.size}`, { method: 'PUT', body: Buffer.concat([B.bytes, B.bytes]), auth, accept: null });
  assert.is(long.status, 422);
  const badSize = await lfs(`/alice/store.git/info/lfs/objects/${B.oid}/ten`, { method: 'PUT', body: B.bytes, auth, accept: null });
  assert.is(badSize.status, 422);
  assert.is(badSize.text, '{"Message":"strconv.ParseInt: parsing \\"ten\\": invalid syntax"}\n');
  assert.is((await lfs(`/alice/store.git/info/lfs/objects/${'z'.repeat(64)}/3`, { method: 'PUT', body: 'abc', auth, accept: null })).status, 422);
  // Nothing of B reached this repository.
  const down = await batch('alice/store', 'download', [{ oid: B.oid, size: B.size }], auth);
  assert.equal(JSON.parse(down.text).objects[0].error, { code: 404, message: 'Not Found' });
  // A batch with a bad pointer answers per object; a size that disagrees with the stored one too.
  const mixed = await batch('alice/store', 'upload', [{ oid: 'nope', size: 1 }, { oid: A.oid, size: A.size + 1 }], auth);
  assert.equal(JSON.parse(mixed.text).objects, [
    { oid: 'nope', size: 1, error: { code: 422, message: 'Oid or size are invalid' } },
    { oid: A.oid, size: A.size + 1, error: { code: 422, message: `Object ${A.oid} is not ${A.size + 1} bytes` } },
  ]);
  assert.is((await lfs('/alice/store.git/info/lfs/verify', { method: 'POST', body: { oid: 'nope', size: 1 }, auth })).text, '{"Message":"Oid or size are invalid"}\n');
});

test('batch: Accept must be the LFS type (415), bad JSON 400, unknown operation 400, empty list null', async () => {
  const auth = tokenAuth(alice);
  const noAccept = await lfs('/alice/store.git/info/lfs/objects/batch', { method: 'POST', body: { operation: 'download', objects: [] }, auth, accept: 'application/json' });
  assert.is(noAccept.status, 415);
  assert.is(noAccept.text, '{"Message":"Unsupported Media Type"}\n');
  const badJson = await lfs('/alice/store.git/info/lfs/objects/batch', { method: 'POST', body: '{"operation":', auth, headers: { 'content-type': LFS } });
  assert.is(badJson.status, 400);
  assert.is(badJson.text, '{"Message":"Bad Request"}\n');
  assert.is((await batch('alice/store', 'delete', [], auth)).status, 400);
  const empty = await batch('alice/store', 'download', [], auth);
  assert.is(empty.text, '{"objects":null}\n');
  // The locks API is not offered: 404, on which git-lfs carries on without locking.
  assert.is((await lfs('/alice/store.git/info/lfs/locks', { auth })).status, 404);
  assert.is((await batch('alice/nothing-here', 'download', [], auth)).status, 404);
});

test('permissions: anonymous, stranger, reader, read-only token, private and archived repositories', async () => {
  const upload = (repo: string, auth: string | null) => batch(repo, 'upload', [{ oid: B.oid, size: B.size }], auth);
  // Uploading needs write: anonymous and readers get 401 with the LFS realm, so git-lfs asks for credentials.
  for (const auth of [null, tokenAuth(dave), tokenAuth(bob)]) {
    const r = await upload('alice/store', auth);
    assert.is(r.status, 401, String(auth));
    assert.is(r.headers.get('www-authenticate'), 'Basic realm="gitea-lfs"');
    assert.is(r.text, '{"Message":"Unauthorized"}\n');
  }
  // A token without write:repository is refused outright.
  const readOnly = await ctx.g.token(alice, ['read:repository']);
  assert.is((await upload('alice/store', `token ${readOnly}`)).status, 403);
  assert.is((await batch('alice/store', 'download', [{ oid: A.oid, size: A.size }], `token ${readOnly}`)).status, 200);
  // Wrong credentials end the request before anything else.
  const bad = await upload('alice/store', 'token 0000000000000000000000000000000000000000');
  assert.is(bad.status, 401);
  assert.is(bad.text, 'Failed to authenticate user\n');
  // Private: strangers and anonymous cannot download.
  for (const auth of [null, tokenAuth(dave)]) assert.is((await batch('alice/hidden', 'download', [], auth)).status, 401);
  assert.is((await batch('alice/hidden', 'download', [], tokenAuth(alice))).status, 200);
  // Archived: nothing is written (decisions.md), reads go on.
  await ctx.g.repo('frozen', { owner: alice });
  assert.is((await ctx.g.api('PATCH', '/api/v1/repos/alice/frozen', { json: { archived: true }, auth: alice.auth })).status, 200);
  const frozen = await upload('alice/frozen', tokenAuth(alice));
  assert.is(frozen.status, 403);
  assert.is(frozen.text, '{"Message":"Forbidden"}\n');
  assert.is((await lfs(`/alice/frozen.git/info/lfs/objects/${B.oid}/${B.size}`, { method: 'PUT', body: B.bytes, auth: tokenAuth(alice), accept: null })).status, 403);
  assert.is((await batch('alice/frozen', 'download', [], tokenAuth(alice))).status, 200);
});

test('objects are per repository: stored bytes are not readable through a repository that never received them', async () => {
  const auth = tokenAuth(alice);
  // alice/store has A; alice/other does not, though the bytes are on disk.
  const down = await batch('alice/other', 'download', [{ oid: A.oid, size: A.size }], auth);
  assert.equal(JSON.parse(down.text).objects, [{ oid: A.oid, size: A.size, error: { code: 404, message: 'Not Found' } }]);
  assert.is((await lfs(`/alice/other.git/info/lfs/objects/${A.oid}`, { auth, accept: null })).status, 404);
  assert.is((await lfs('/alice/other.git/info/lfs/verify', { method: 'POST', body: { oid: A.oid, size: A.size }, auth })).status, 404);
  // Uploading it there asks for the bytes again (proof of possession), then links it.
  const up = await batch('alice/other', 'upload', [{ oid: A.oid, size: A.size }], auth);
  assert.ok(JSON.parse(up.text).objects[0].actions.upload);
  assert.is((await lfs(`/alice/other.git/info/lfs/objects/${A.oid}/${A.size}`, { method: 'PUT', body: A.bytes, auth, accept: null })).status, 200);
  assert.ok((await lfs(`/alice/other.git/info/lfs/objects/${A.oid}`, { auth, accept: null })).buf.equals(A.bytes));
});

test('LFS_ENABLED=false: every LFS route is a 404', async () => {
  const t = await startTestServer({ LFS_ENABLED: 'false' });
  try {
    const r = await fetch(`${t.url}/root/x.git/info/lfs/objects/batch`, { method: 'POST', headers: { accept: LFS }, body: '{}' });
    assert.is(r.status, 404);
    await r.arrayBuffer();
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test('real git-lfs: push through the LFS API, then /media serves the object and a clone smudges it', async ({ __test__ }) => {
  if (!requireTool(__test__, 'git-lfs', 'git-lfs')) return;
  await ctx.g.repo('assets', { owner: alice });
  const url = cloneUrl(ctx.g, 'alice', 'assets', alice);
  const dir = join(work, 'assets');
  await gitAsync(['clone', '-q', url, dir]);
  git(['lfs', 'install', '--local'], { cwd: dir });
  git(['config', 'lfs.locksverify', 'false'], { cwd: dir });
  git(['lfs', 'track', '*.bin'], { cwd: dir });
  const big = randomBytes(300 * 1024);
  const pushed = commitFiles(dir, { 'data/blob.bin': big, 'notes.txt': 'plain\n' }, 'add an LFS object');
  await gitAsync(['push', 'origin', 'main'], { cwd: dir });

  const oid = createHash('sha256').update(big).digest('hex');
  assert.is((await ctx.g.api('GET', '/api/v1/repos/alice/assets/branches/main', { auth: alice.auth })).body.commit.id, pushed);
  const media = await ctx.g.api('GET', '/api/v1/repos/alice/assets/media/data/blob.bin', { auth: null });
  assert.is(media.status, 200);
  const mediaBytes = Buffer.from(await (await fetch(`${ctx.g.url}/api/v1/repos/alice/assets/media/data/blob.bin`)).arrayBuffer());
  assert.ok(mediaBytes.equals(big));
  const raw = await ctx.g.api('GET', '/api/v1/repos/alice/assets/raw/data/blob.bin', { auth: null });
  assert.is(raw.text, `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${big.length}\n`);
  assert.ok(existsSync(join(ctx.g.t.dataDir, 'lfs', oid.slice(0, 2), oid.slice(2, 4), oid.slice(4))));

  // A fresh clone with the filter installed downloads the object through the batch API.
  const again = join(work, 'assets-again');
  await gitAsync(['clone', '-q', url, again], { env: { GIT_LFS_SKIP_SMUDGE: '1' } });
  git(['lfs', 'install', '--local'], { cwd: again });
  await gitAsync(['lfs', 'pull'], { cwd: again });
  assert.ok(readFileSync(join(again, 'data/blob.bin')).equals(big));

  // A second push of the same object to another repository uploads it again there (objects are per repository).
  await ctx.g.repo('assets-copy', { owner: alice, autoInit: false });
  git(['remote', 'add', 'copy', cloneUrl(ctx.g, 'alice', 'assets-copy', alice)], { cwd: dir });
  await gitAsync(['push', 'copy', 'main'], { cwd: dir });
  const copied = Buffer.from(await (await fetch(`${ctx.g.url}/api/v1/repos/alice/assets-copy/media/data/blob.bin`)).arrayBuffer());
  assert.ok(copied.equals(big));
});

test.run();
