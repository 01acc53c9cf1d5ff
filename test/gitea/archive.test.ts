import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expectError } from '../_helpers/api-error.js';
import { authHeader, git, gitAsync, gitChildren, gitDirOf, useGitea, waitNoChildren, type Account, type Auth, type GiteaWorld, type GReply } from '../_helpers/gitea.js';
import { requireTool } from '../_helpers/skip.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { pollUntil, WAIT_MS } from '../_helpers/wait.js';

// /archive/{ref}.{zip|tar.gz|bundle} (repoGetArchive): formats, refs, paths, headers, errors, streaming.
const test = suite('gitea: archive');
// A short queue, so the 503 beyond it is reachable; concurrency limits are the defaults (2 in all, 1 per client).
const ctx = useGitea(test, { ARCHIVE_QUEUE_LENGTH: '3' });

let g: GiteaWorld;
let alice: Account;
let head = '';
let featureHead = '';
let bigHead = '';
const work = tempDir('archive-test');

const get = (path: string, opts: { auth?: Auth; method?: string } = {}): Promise<GReply> => g.api(opts.method ?? 'GET', path, { auth: opts.auth });

/** Entry names and sizes from a zip's central directory (no unzip needed). */
function zipEntries(zip: Buffer): { name: string; size: number }[] {
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  assert.ok(eocd >= 0, 'end of central directory found');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const out: { name: string; size: number }[] = [];
  for (let i = 0; i < count; i++) {
    assert.is(zip.readUInt32LE(p), 0x02014b50, 'central directory entry');
    const size = zip.readUInt32LE(p + 24);
    const n = zip.readUInt16LE(p + 28);
    const e = zip.readUInt16LE(p + 30);
    const c = zip.readUInt16LE(p + 32);
    out.push({ name: zip.toString('utf8', p + 46, p + 46 + n), size });
    p += 46 + n + e + c;
  }
  return out;
}

/** Bundles are made in temporary repositories, removed once git exits. */
async function noBundleDirs() {
  const left = () => readdirSync(tmpdir()).filter((d) => d.startsWith('trunkline-bundle-'));
  await pollUntil(() => !left().length, WAIT_MS, 50);
  assert.equal(left(), [], 'no temporary bundle repository left');
}

test.before(async () => {
  g = ctx.g;
  alice = await g.user('alice');
  await g.repo('arch');
  head = (await g.commit('root', 'arch', { 'src/a.txt': 'a\n', 'src/b/c.txt': 'c\n', 'doc.md': '# doc\n' })).commit.sha;
  featureHead = (await g.commit('root', 'arch', { 'feature.txt': 'feature\n' }, { newBranch: 'feature/x' })).commit.sha;
  const dir = gitDirOf(g, (await g.api('GET', '/api/v1/repos/root/arch')).body.id);
  git(['--git-dir', dir, 'tag', '-a', '-m', 'release', 'v1', head]);
  g.t.server.gitea.git.invalidate(dir);
});

test.after(() => rmSync(work, { recursive: true, force: true }));

const ALL = ['arch/', 'arch/README.md', 'arch/doc.md', 'arch/src/', 'arch/src/a.txt', 'arch/src/b/', 'arch/src/b/c.txt'];

test('zip: every entry under <repo>/, with the download and immutable headers', async () => {
  const r = await get('/api/v1/repos/root/arch/archive/main.zip');
  assert.is(r.status, 200);
  assert.equal(zipEntries(r.bytes).map((e) => e.name).sort(), ALL);
  assert.is(r.headers.get('content-type'), 'application/zip');
  assert.is(r.headers.get('content-disposition'), 'attachment; filename=arch-main.zip');
  assert.is(r.headers.get('link'), `<${g.url}/api/v1/repos/root/arch/archive/${head}.zip?rev=${head}>; rel="immutable"`);
  assert.is(r.headers.get('etag'), null, 'no ETag on archives');
  assert.is(r.headers.get('x-content-type-options'), 'nosniff');
});

test('zip: unzip lists the same entries and extracts a file', async ({ __test__ }) => {
  if (!requireTool(__test__, 'unzip', 'unzip', ['-v'])) return;
  const r = await get('/api/v1/repos/root/arch/archive/main.zip');
  assert.is(r.status, 200);
  const file = join(work, 'main.zip');
  writeFileSync(file, r.bytes);
  const list = spawnSync('unzip', ['-Z1', file], { encoding: 'utf8' });
  assert.is(list.status, 0);
  assert.equal(list.stdout.trim().split('\n').sort(), ALL);
  assert.is(spawnSync('unzip', ['-p', file, 'arch/src/b/c.txt'], { encoding: 'utf8' }).stdout, 'c\n');
});

test('tar.gz: the same tree, by tag, branch with a slash, full and short sha', async ({ __test__ }) => {
  if (!requireTool(__test__, 'tar', 'tar')) return;
  const list = (bytes: Buffer) => spawnSync('tar', ['tzf', '-'], { input: bytes, encoding: 'utf8' }).stdout.trim().split('\n').sort();
  const cases: [string, string, string, string[]][] = [
    ['main', head, 'arch-main.tar.gz', ALL],
    ['v1', head, 'arch-v1.tar.gz', ALL],
    ['feature/x', featureHead, 'arch-feature-x.tar.gz', [...ALL, 'arch/feature.txt'].sort()],
    [head, head, `arch-${head}.tar.gz`, ALL],
    [head.slice(0, 7), head, `arch-${head.slice(0, 7)}.tar.gz`, ALL],
  ];
  for (const [ref, commit, filename, entries] of cases) {
    const r = await get(`/api/v1/repos/root/arch/archive/${ref}.tar.gz`);
    assert.is(r.status, 200, `${ref}: ${r.text.slice(0, 100)}`);
    assert.is(r.headers.get('content-type'), 'application/gzip');
    assert.is(r.headers.get('content-disposition'), `attachment; filename=${filename}`);
    assert.is(r.headers.get('link'), `<${g.url}/api/v1/repos/root/arch/archive/${commit}.tar.gz?rev=${commit}>; rel="immutable"`);
    assert.equal(list(r.bytes), entries, ref);
  }
});

test('?path= limits zip and tar.gz to those entries', async () => {
  const r = await get('/api/v1/repos/root/arch/archive/main.zip?path=src/b&path=doc.md');
  assert.is(r.status, 200);
  assert.equal(zipEntries(r.bytes).map((e) => e.name).sort(), ['arch/', 'arch/doc.md', 'arch/src/', 'arch/src/b/', 'arch/src/b/c.txt']);
  const t = await get('/api/v1/repos/root/arch/archive/main.zip?path=src/a.txt');
  assert.equal(zipEntries(t.bytes).map((e) => e.name).sort(), ['arch/', 'arch/src/', 'arch/src/a.txt']);
  await expectError(g, get('/api/v1/repos/root/arch/archive/main.zip?path=nope'), 404, `object does not exist [id: ${head}, rel_path: nope]`);
  await expectError(g, get('/api/v1/repos/root/arch/archive/main.tar.gz?path=.git/config'), 400, 'path contains a malformed path component [path: .git/config]');
  await expectError(g, get('/api/v1/repos/root/arch/archive/main.bundle?path=src'), 400, 'paths are not supported for bundle archives');
});

test('bundle: verifies, lists HEAD and branch bundle at the commit, clones; the served repository gains no ref', async () => {
  const before = (await g.api('GET', '/api/v1/repos/root/arch/branches')).body.map((b: { name: string }) => b.name).sort();
  const r = await get('/api/v1/repos/root/arch/archive/feature/x.bundle');
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-type'), 'application/octet-stream');
  assert.is(r.headers.get('content-disposition'), 'attachment; filename=arch-feature-x.bundle');
  assert.is(r.headers.get('link'), `<${g.url}/api/v1/repos/root/arch/archive/${featureHead}.bundle?rev=${featureHead}>; rel="immutable"`);
  const file = join(work, 'x.bundle');
  writeFileSync(file, r.bytes);
  const repo = join(work, 'verify');
  git(['init', '-q', repo]);
  assert.is(git(['bundle', 'verify', file], { cwd: repo, allowFail: true }).status, 0, 'git bundle verify');
  assert.equal(git(['bundle', 'list-heads', file]).stdout.trim().split('\n').sort(), [`${featureHead} HEAD`, `${featureHead} refs/heads/bundle`]);
  const clone = join(work, 'clone');
  git(['clone', '-q', file, clone]);
  assert.is(readFileSync(join(clone, 'feature.txt'), 'utf8'), 'feature\n');
  assert.is(readFileSync(join(clone, 'src', 'b', 'c.txt'), 'utf8'), 'c\n');
  assert.is(git(['-C', clone, 'rev-parse', 'HEAD']).stdout.trim(), featureHead);
  const after = (await g.api('GET', '/api/v1/repos/root/arch/branches')).body.map((b: { name: string }) => b.name).sort();
  assert.equal(after, before);
  await noBundleDirs();
});

test('errors: unknown format 400, unknown ref 404, empty repository 404, private repository invisible', async () => {
  await expectError(g, get('/api/v1/repos/root/arch/archive/main.rar'), 400, 'unknown format: main.rar');
  await expectError(g, get('/api/v1/repos/root/arch/archive/main'), 400, 'unknown format: main');
  await expectError(g, get('/api/v1/repos/root/arch/archive/main.tar'), 400, 'unknown format: main.tar');
  await expectError(g, get('/api/v1/repos/root/arch/archive/nope.zip'), 404, 'unrecognized repository reference: nope');
  await expectError(g, get('/api/v1/repos/root/arch/archive/0000000.zip'), 404, 'unrecognized repository reference: 0000000');
  await expectError(g, get('/api/v1/repos/root/arch/archive/nope.bundle'), 404, 'unrecognized repository reference: nope');
  await g.repo('empty', { autoInit: false });
  await expectError(g, get('/api/v1/repos/root/empty/archive/main.zip'), 404, 'unrecognized repository reference: main');
  await g.repo('secret', { owner: alice, private: true });
  await expectError(g, get('/api/v1/repos/alice/secret/archive/main.zip', { auth: null }), 404, 'not found');
  const mine = await get('/api/v1/repos/alice/secret/archive/main.zip', { auth: alice.auth });
  assert.is(mine.status, 200);
  assert.equal(zipEntries(mine.bytes).map((e) => e.name).sort(), ['secret/', 'secret/README.md']);
  const readOnly = await g.token(alice, ['read:user']);
  await expectError(g, get('/api/v1/repos/alice/secret/archive/main.zip', { auth: { token: readOnly } }), 403, 'token does not have at least one of required scope(s), required=[read:repository], token scope=read:user');
});

test('HEAD: the headers without running git', async () => {
  const r = await get('/api/v1/repos/root/arch/archive/main.zip', { method: 'HEAD' });
  assert.is(r.status, 200);
  assert.is(r.bytes.length, 0);
  assert.is(r.headers.get('content-disposition'), 'attachment; filename=arch-main.zip');
  assert.is(r.headers.get('link'), `<${g.url}/api/v1/repos/root/arch/archive/${head}.zip?rev=${head}>; rel="immutable"`);
  assert.equal(gitChildren('archive --format'), []);
});

test('a large repository streams; a client that leaves mid-download stops git', async () => {
  await g.repo('big');
  const data = randomBytes(12 * 1024 * 1024);
  bigHead = (await g.commit('root', 'big', { 'data.bin': data })).commit.sha;
  const r = await get('/api/v1/repos/root/big/archive/main.zip');
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-length'), null, 'streamed, length unknown in advance');
  const entries = zipEntries(r.bytes);
  assert.equal(entries.find((e) => e.name === 'big/data.bin')?.size, data.length);
  await waitNoChildren('archive --format');

  for (const ext of ['zip', 'tar.gz', 'bundle']) {
    const ac = new AbortController();
    const res = await fetch(`${g.url}/api/v1/repos/root/big/archive/${bigHead}.${ext}`, { headers: authHeader(g.admin.auth), signal: ac.signal });
    assert.is(res.status, 200);
    const reader = res.body!.getReader();
    await reader.read();
    assert.is(gitChildren(ext === 'bundle' ? 'bundle create' : 'archive --format').length, 1, `git is producing the ${ext}`);
    ac.abort();
    await reader.closed.catch(() => {});
    await waitNoChildren(ext === 'bundle' ? 'bundle create' : 'archive --format');
  }
  await noBundleDirs();
});

// ---------------------------------------------------------------------------
// Admission: ten parallel zips of a 64 MB file used to run ten git processes (about 1 GB).

const ARCHIVING = 'archive --format';

/** Polls (every 20 ms) until `cond` holds; a guard against hanging, not a timing assertion. */
async function eventually(cond: () => boolean, what: string): Promise<void> {
  await pollUntil(cond, 60_000, 20);
  assert.ok(cond(), `never: ${what}`);
}

interface Download {
  ac: AbortController;
  /** Set once the answer's head has arrived. */
  res: Response | undefined;
  answered: Promise<Response>;
  bytes(): Promise<Buffer>;
}

/** A download whose body is left unread until asked for: its git blocks once the buffers between are full. */
function download(path: string, auth: Auth): Download {
  const ac = new AbortController();
  const d: Download = {
    ac,
    res: undefined,
    answered: fetch(g.url + path, { headers: authHeader(auth), signal: ac.signal }),
    async bytes() {
      return Buffer.from(await (await d.answered).arrayBuffer());
    },
  };
  d.answered.then((res) => (d.res = res)).catch(() => {}); // an aborted download rejects; the tests look when they care
  return d;
}

let busy: { path: string; zip: Buffer } | undefined;
/** A repository whose zip (about 24 MB, incompressible) outgrows the socket and pipe buffers, so an unread download holds its git. */
async function busyRepo() {
  if (busy) return busy;
  const repo = await g.repo('busy');
  const dir = gitDirOf(g, repo.id);
  // Written with plumbing straight into the repository (24 MB through the contents API is slow), and
  // without holding the event loop long: the server shares it, and a long stall makes kept-alive
  // connections close under the client's feet.
  const file = join(work, 'data.bin');
  writeFileSync(file, randomBytes(24 * 1024 * 1024));
  const out = async (args: string[]) => (await gitAsync(['--git-dir', dir, ...args])).stdout.trim();
  const blob = await out(['hash-object', '-w', file]);
  const small = git(['--git-dir', dir, 'hash-object', '-w', '--stdin'], { input: 'small\n' }).stdout.trim();
  const tree = git(['--git-dir', dir, 'mktree'], { input: `100644 blob ${blob}\tdata.bin\n100644 blob ${small}\tsmall.txt\n` }).stdout.trim();
  const sha = await out(['commit-tree', tree, '-p', 'main', '-m', 'big']);
  await out(['update-ref', 'refs/heads/main', sha]);
  g.t.server.gitea.git.invalidate(dir);
  const zipFile = join(work, 'busy.zip');
  await out(['archive', '--format=zip', '--prefix=busy/', '-o', zipFile, sha]);
  const zip = readFileSync(zipFile);
  busy = { path: `/api/v1/repos/root/busy/archive/${sha}.zip`, zip };
  return busy;
}

test('parallel archives: at most ARCHIVE_MAX_CONCURRENT git processes, one per client, the rest wait; every download is complete', async () => {
  const { path, zip } = await busyRepo();
  const clients = await Promise.all(['ann', 'ben', 'cat', 'dan', 'eve'].map((n) => g.user(n)));
  let peak = 0;
  const sample = () => (peak = Math.max(peak, gitChildren(ARCHIVING).length));
  const sampler = setInterval(sample, 10);
  try {
    const downloads = clients.map((c) => download(path, c.auth));
    // Two answer: their gits run, held by the unread bodies. The three others wait for a slot.
    await eventually(() => downloads.filter((d) => d.res).length === 2, 'two downloads answered');
    await eventually(() => g.t.server.gitea.archiveSlots.stats.waiting === 3, 'three downloads queued');
    sample();
    assert.is(gitChildren(ARCHIVING).length, 2, 'two gits, no more');
    assert.is(downloads.filter((d) => d.res).length, 2, 'the queued ones have no answer yet');
    // Read everything: each finished download lets a queued one start.
    const bodies = await Promise.all(downloads.map((d) => d.bytes()));
    for (const [i, b] of bodies.entries()) assert.ok(b.equals(zip), `download ${i}: ${b.length} bytes, the archive is ${zip.length}`);
    sample();
    assert.is(peak, 2, 'never more than two gits at once');
    assert.equal(downloads.map((d) => d.res!.status), [200, 200, 200, 200, 200]);
  } finally {
    clearInterval(sampler);
  }
  await waitNoChildren(ARCHIVING);
  assert.equal(g.t.server.gitea.archiveSlots.stats, { running: 0, waiting: 0 });
});

test('archives: 429 over a client\'s share, 503 past the queue (Retry-After); a client that leaves frees its slot or place', async () => {
  const { path, zip } = await busyRepo();
  const [fay, gus, hal, ida, jon] = await Promise.all(['fay', 'gus', 'hal', 'ida', 'jon'].map((n) => g.user(n)));
  const slots = g.t.server.gitea.archiveSlots;
  const held = [download(path, fay!.auth), download(path, gus!.auth)];
  await eventually(() => held.every((d) => d.res), 'two downloads running');
  // fay's second waits (her share: one running, one waiting); a third is refused.
  const fay2 = download(path, fay!.auth);
  await eventually(() => slots.stats.waiting === 1, 'fay\'s second queued');
  const over = await get(path, { auth: fay!.auth });
  await expectError(g, over, 429, 'too many archive requests from this client; try again later');
  assert.is(over.headers.get('retry-after'), '5');
  // The queue (three places) fills, in a known order; the next is refused.
  const queued = [download(path, hal!.auth)];
  await eventually(() => slots.stats.waiting === 2, 'hal queued');
  queued.push(download(path, ida!.auth));
  await eventually(() => slots.stats.waiting === 3, 'queue full');
  const full = await get(path, { auth: jon!.auth });
  await expectError(g, full, 503, 'too many archives are being made; try again later');
  assert.is(full.headers.get('retry-after'), '5');
  // A waiting client that leaves gives its place up: jon now gets one.
  fay2.ac.abort();
  await eventually(() => slots.stats.waiting === 2, 'fay\'s second left the queue');
  const jon1 = download(path, jon!.auth);
  await eventually(() => slots.stats.waiting === 3, 'jon queued');
  // A downloading client that leaves frees its slot: its git is killed, and hal (first in line) starts.
  held[1]!.ac.abort();
  await eventually(() => !!queued[0]!.res, 'hal answered');
  assert.equal(slots.stats, { running: 2, waiting: 2 });
  assert.ok(gitChildren(ARCHIVING).length <= 2);
  // The rest complete with the right bytes.
  for (const d of [held[0]!, ...queued, jon1]) assert.ok((await d.bytes()).equals(zip), 'complete download');
  await waitNoChildren(ARCHIVING);
  assert.equal(slots.stats, { running: 0, waiting: 0 });
});

test.run();
