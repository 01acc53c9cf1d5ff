import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RULE_CHECK_STEPS } from '../../server/gitea/services/protections.js';
import { addCollaborator, cloneUrl, commitFiles, git, gitAsync, gitDirOf, sqlWrite, useGitea, type Account, type GiteaWorld } from '../_helpers/gitea.js';
import { A40, HOSTILE_GLOB, hostileWithPing } from '../_helpers/hostile.js';
import { basicAuth, request } from '../_helpers/request.js';
import { startTestServer } from '../_helpers/server.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { pollUntil, sleep, WAIT_MS } from '../_helpers/wait.js';

// Git over HTTP with the real git CLI: clone/fetch/push, protocol v2, gzip bodies, authentication and
// permissions as Gitea answers them, branch protections enforced by the pre-receive hook, and the API
// seeing what pushes did.
const test = suite('gitea: git smart HTTP');
const ctx = useGitea(test);

let work: string;
let alice: Account;
let bob: Account; // write collaborator where added
let carol: Account; // read collaborator where added
let dave: Account; // stranger
const commits: { repo: string; branch: string; sha: string }[] = [];

const NO_CACHE = { expires: 'Fri, 01 Jan 1980 00:00:00 GMT', pragma: 'no-cache', 'cache-control': 'no-cache, max-age=0, must-revalidate' };
const HOOK_DECLINED = (ref: string) => `! [remote rejected] ${ref} -> ${ref} (pre-receive hook declined)`;


/** A raw request to the server (no default credentials). */
async function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {}) {
  const r = await request(ctx.g.url, init.method ?? 'GET', path, { headers: init.headers, body: init.body });
  return { status: r.status, headers: r.headers, body: r.bytes, text: r.bytes.toString('latin1') };
}

let dirCount = 0;
const freshDir = (name: string) => join(work, `${name}-${++dirCount}`);

async function clone(url: string, name: string, extra: string[] = []): Promise<string> {
  const dir = freshDir(name);
  await gitAsync(['clone', '-q', ...extra, url, dir]);
  return dir;
}

/** A push that is expected to fail; returns git's stderr. */
async function pushFails(dir: string, args: string[]): Promise<string> {
  const r = await gitAsync(['push', ...args], { cwd: dir, allowFail: true });
  assert.is.not(r.status, 0, `push should fail: ${r.stderr}`);
  return r.stderr;
}


test.before(async () => {
  work = tempDir('git-http');
  const g = ctx.g;
  [alice, bob, carol, dave] = [await g.user('alice'), await g.user('bob'), await g.user('carol'), await g.user('dave')];
  g.t.server.gitea.commits.on((repo, branch, sha) => commits.push({ repo: repo.row.name, branch, sha }));
  await g.repo('pub', { owner: alice });
  await g.repo('priv', { owner: alice, private: true });
  await addCollaborator(ctx.g, alice, 'pub', bob, 'write');
  await addCollaborator(ctx.g, alice, 'pub', carol, 'read');
  await addCollaborator(ctx.g, alice, 'priv', carol, 'read');
});

test.after(() => {
  rmSync(work, { recursive: true, force: true });
});

test('info/refs: advertisement with the service line, exact content type and no-cache headers, with and without .git', async () => {
  for (const path of ['/alice/pub.git/info/refs?service=git-upload-pack', '/alice/pub/info/refs?service=git-upload-pack']) {
    const r = await raw(path);
    assert.is(r.status, 200);
    assert.is(r.headers.get('content-type'), 'application/x-git-upload-pack-advertisement');
    for (const [k, val] of Object.entries(NO_CACHE)) assert.is(r.headers.get(k), val, k);
    assert.ok(r.text.startsWith('001e# service=git-upload-pack\n0000'), r.text.slice(0, 60));
    assert.match(r.text, /refs\/heads\/main/);
    assert.ok(r.text.endsWith('0000'));
  }
  const push = await raw('/alice/pub.git/info/refs?service=git-receive-pack', { headers: { authorization: `token ${alice.token}` } });
  assert.is(push.status, 200);
  assert.is(push.headers.get('content-type'), 'application/x-git-receive-pack-advertisement');
  assert.ok(push.text.startsWith('001f# service=git-receive-pack\n0000'));
  assert.match(push.text, /report-status/);
});

test('info/refs: Git-Protocol reaches git only when it matches the safe pattern (protocol v2)', async () => {
  const v2 = await raw('/alice/pub.git/info/refs?service=git-upload-pack', { headers: { 'git-protocol': 'version=2' } });
  assert.ok(v2.text.startsWith('001e# service=git-upload-pack\n0000000eversion 2\n'), v2.text.slice(0, 80));
  assert.match(v2.text, /ls-refs/);
  const unsafe = await raw('/alice/pub.git/info/refs?service=git-upload-pack', { headers: { 'git-protocol': 'version=2;x' } });
  assert.not.match(unsafe.text, /version 2/);
  assert.match(unsafe.text, /refs\/heads\/main/);
});

test('info/refs: unknown service 400, upload-archive 400, dumb protocol refused, unknown owner 404', async () => {
  const unknown = await raw('/alice/pub.git/info/refs?service=git-frobnicate');
  assert.is(unknown.status, 400);
  assert.is(unknown.body.length, 0);
  assert.is((await raw('/alice/pub.git/info/refs?service=git-upload-archive')).status, 400);
  const dumb = await raw('/alice/pub.git/info/refs');
  assert.is(dumb.status, 403);
  assert.is(dumb.text, 'The dumb HTTP protocol is not supported: use a git client that speaks smart HTTP.');
  const nobody = await raw('/nobody-here/pub.git/info/refs?service=git-upload-pack');
  assert.is(nobody.status, 404);
});

test('clone a public repository anonymously (with and without .git), then fetch new commits', async () => {
  const a = await clone(`${ctx.g.url}/alice/pub.git`, 'anon');
  assert.ok(existsSync(join(a, 'README.md')));
  const b = await clone(`${ctx.g.url}/alice/pub`, 'anon-nogit');
  assert.is(readFileSync(join(b, 'README.md'), 'utf8'), readFileSync(join(a, 'README.md'), 'utf8'));
  const made = await ctx.g.commit('alice', 'pub', { 'fetched.txt': 'from the API\n' }, { auth: alice.auth });
  await gitAsync(['pull', '-q'], { cwd: a });
  assert.is(readFileSync(join(a, 'fetched.txt'), 'utf8'), 'from the API\n');
  assert.is(git(['rev-parse', 'HEAD'], { cwd: a }).stdout.trim(), made.commit.sha);
});

test('private repository: anonymous 401 with the Gitea realm; token, password and token-as-username work', async () => {
  const anon = await raw('/alice/priv.git/info/refs?service=git-upload-pack');
  assert.is(anon.status, 401);
  assert.is(anon.headers.get('www-authenticate'), 'Basic realm="Gitea"');
  assert.is(anon.text, 'Unauthorized\n');
  assert.is(anon.headers.get('content-type'), 'text/plain; charset=utf-8');
  const noCreds = await gitAsync(['clone', '-q', `${ctx.g.url}/alice/priv.git`, freshDir('nocreds')], { allowFail: true });
  assert.is.not(noCreds.status, 0);

  const byToken = await clone(cloneUrl(ctx.g, 'alice', 'priv', { name: alice.name, token: alice.token }), 'priv-token');
  const byPassword = await clone(cloneUrl(ctx.g, 'alice', 'priv', alice), 'priv-password');
  assert.ok(existsSync(join(byToken, 'README.md')) && existsSync(join(byPassword, 'README.md')));
  const readOnly = await clone(cloneUrl(ctx.g, 'alice', 'priv', carol), 'priv-carol');
  assert.ok(existsSync(join(readOnly, 'README.md')));

  for (const authorization of [`token ${alice.token}`, `Bearer ${alice.token}`, basicAuth(`${alice.token}:`), basicAuth(`anything:${alice.token}`), basicAuth(`alice:${alice.password}`)]) {
    assert.is((await raw('/alice/priv.git/info/refs?service=git-upload-pack', { headers: { authorization } })).status, 200, authorization.slice(0, 12));
  }
});

test('wrong credentials: 401 "Failed to authenticate user" without a realm; signed-in stranger: 404', async () => {
  const wrong = await raw('/alice/pub.git/info/refs?service=git-upload-pack', { headers: { authorization: basicAuth(`alice:not-her-password`) } });
  assert.is(wrong.status, 401);
  assert.is(wrong.text, 'Failed to authenticate user\n');
  assert.is(wrong.headers.get('www-authenticate'), null);
  const stranger = await raw('/alice/priv.git/info/refs?service=git-upload-pack', { headers: { authorization: `token ${dave.token}` } });
  assert.is(stranger.status, 404);
  assert.is(stranger.text, 'Repository not found');
  assert.is(stranger.headers.get('content-type'), 'text/plain;charset=utf-8');
  assert.is(stranger.headers.get('x-content-type-options'), 'nosniff');
  const failed = await gitAsync(['clone', '-q', cloneUrl(ctx.g, 'alice', 'priv', dave), freshDir('dave')], { allowFail: true });
  assert.is.not(failed.status, 0);
});

test('missing repository: anonymous 401, signed-in pull 404, signed-in push 403 (no push-to-create)', async () => {
  assert.is((await raw('/alice/nope.git/info/refs?service=git-upload-pack')).status, 401);
  const pull = await raw('/alice/nope.git/info/refs?service=git-upload-pack', { headers: { authorization: `token ${alice.token}` } });
  assert.is(pull.status, 404);
  assert.is(pull.text, 'Repository not found');
  const push = await raw('/alice/nope.git/info/refs?service=git-receive-pack', { headers: { authorization: `token ${alice.token}` } });
  assert.is(push.status, 403);
  assert.is(push.text, 'Push to create is not enabled for users.');
});

test('token scopes: read:repository fetches but cannot push (403 Forbidden); other scopes cannot read private code', async () => {
  const readTok = await ctx.g.token(alice, ['read:repository']);
  const userTok = await ctx.g.token(alice, ['read:user']);
  const publicOnly = await ctx.g.token(alice, ['public-only', 'write:repository']);
  const h = (t: string) => ({ authorization: basicAuth(`alice:${t}`) });
  assert.is((await raw('/alice/priv.git/info/refs?service=git-upload-pack', { headers: h(readTok) })).status, 200);
  const push = await raw('/alice/priv.git/info/refs?service=git-receive-pack', { headers: h(readTok) });
  assert.is(push.status, 403);
  assert.is(push.text, 'Forbidden\n');
  assert.is((await raw('/alice/priv.git/info/refs?service=git-upload-pack', { headers: h(userTok) })).status, 403);
  // Gitea skips the check for Bearer tokens (a known hole); we do not.
  assert.is((await raw('/alice/priv.git/info/refs?service=git-upload-pack', { headers: { authorization: `Bearer ${userTok}` } })).status, 403);
  assert.is((await raw('/alice/priv.git/info/refs?service=git-upload-pack', { headers: h(publicOnly) })).status, 403);
  assert.is((await raw('/alice/pub.git/info/refs?service=git-receive-pack', { headers: h(publicOnly) })).status, 200);
  // A public repository needs no credentials to pull, so no scope applies either.
  assert.is((await raw('/alice/pub.git/info/refs?service=git-upload-pack', { headers: h(userTok) })).status, 200);

  const dir = await clone(cloneUrl(ctx.g, 'alice', 'priv', { name: 'alice', token: readTok }), 'scoped');
  commitFiles(dir, { 'scoped.txt': 'x\n' });
  assert.match(await pushFails(dir, ['-q', 'origin', 'main']), /403/);
});

test('push new commits (password and token), then read them back through the API; onCommit fires', async () => {
  const before = await ctx.g.api('GET', '/api/v1/repos/alice/pub/contents/pushed.txt', { auth: alice.auth });
  assert.is(before.status, 404); // also warms the refs cache: the push must invalidate it
  const dir = await clone(cloneUrl(ctx.g, 'alice', 'pub', alice), 'push');
  const sha = commitFiles(dir, { 'pushed.txt': 'pushed over http\n', 'dir/nested.txt': 'nested\n' }, 'pushed');
  await gitAsync(['push', '-q', 'origin', 'main'], { cwd: dir });
  const file = await ctx.g.api('GET', '/api/v1/repos/alice/pub/contents/pushed.txt', { auth: alice.auth });
  assert.is(file.status, 200);
  assert.is(Buffer.from(file.body.content, 'base64').toString(), 'pushed over http\n');
  assert.is(file.body.last_commit_sha, sha);
  const branch = await ctx.g.api('GET', '/api/v1/repos/alice/pub/branches/main', { auth: alice.auth });
  assert.is(branch.body.commit.id, sha);
  assert.ok(commits.some((c) => c.repo === 'pub' && c.branch === 'main' && c.sha === sha));

  // A new branch by token, and an API write on top of a pushed commit.
  git(['remote', 'set-url', 'origin', cloneUrl(ctx.g, 'alice', 'pub', { name: 'alice', token: alice.token })], { cwd: dir });
  git(['checkout', '-q', '-b', 'feature'], { cwd: dir });
  const feat = commitFiles(dir, { 'feature.txt': 'f\n' });
  await gitAsync(['push', '-q', 'origin', 'feature'], { cwd: dir });
  assert.is((await ctx.g.api('GET', '/api/v1/repos/alice/pub/branches/feature', { auth: alice.auth })).body.commit.id, feat);
  const onTop = await ctx.g.commit('alice', 'pub', { 'feature.txt': 'f2\n' }, { branch: 'feature', auth: alice.auth });
  assert.equal(onTop.commit.parents.map((p: { sha: string }) => p.sha), [feat]);
  assert.ok(commits.some((c) => c.branch === 'feature' && c.sha === feat));
});

test('push to an empty repository: the first pushed branch becomes the default', async () => {
  const repo = await ctx.g.repo('empty', { owner: alice, autoInit: false });
  assert.is(repo.empty, true);
  assert.is(repo.default_branch, 'main');
  const dir = freshDir('empty');
  mkdirSync(dir);
  git(['init', '-q', '-b', 'trunk'], { cwd: dir });
  const sha = commitFiles(dir, { 'a.txt': 'a\n' });
  await gitAsync(['push', '-q', cloneUrl(ctx.g, 'alice', 'empty', alice), 'trunk'], { cwd: dir });
  const after = await ctx.g.api('GET', '/api/v1/repos/alice/empty', { auth: alice.auth });
  assert.is(after.body.default_branch, 'trunk');
  assert.is(after.body.empty, false);
  const again = await clone(cloneUrl(ctx.g, 'alice', 'empty', alice), 'empty-again');
  assert.is(git(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: again }).stdout.trim(), 'trunk');
  assert.is(git(['rev-parse', 'HEAD'], { cwd: again }).stdout.trim(), sha);

  // Pushing the default branch itself keeps it.
  await ctx.g.repo('empty2', { owner: alice, autoInit: false });
  await gitAsync(['push', '-q', cloneUrl(ctx.g, 'alice', 'empty2', alice), 'trunk:main', 'trunk:other'], { cwd: dir });
  assert.is((await ctx.g.api('GET', '/api/v1/repos/alice/empty2', { auth: alice.auth })).body.default_branch, 'main');
});

test('protocol v2 clone and fetch', async () => {
  const dir = freshDir('v2');
  const r = await gitAsync(['-c', 'protocol.version=2', 'clone', cloneUrl(ctx.g, 'alice', 'priv', alice), dir], { env: { GIT_TRACE_PACKET: '1' } });
  assert.match(r.stderr, /git< version 2/);
  assert.ok(existsSync(join(dir, 'README.md')));
  await ctx.g.commit('alice', 'priv', { 'v2.txt': 'v2\n' }, { auth: alice.auth });
  const f = await gitAsync(['-c', 'protocol.version=2', 'pull', '-q'], { cwd: dir, env: { GIT_TRACE_PACKET: '1' } });
  assert.match(f.stderr, /(git|fetch)> command=fetch/);
  assert.is(readFileSync(join(dir, 'v2.txt'), 'utf8'), 'v2\n');
});

/** A hand-made v0 upload-pack request for `sha`. */
function wantRequest(sha: string): Buffer {
  const want = `want ${sha} ofs-delta side-band-64k\n`;
  const pkt = (s: string) => `${(s.length + 4).toString(16).padStart(4, '0')}${s}`;
  return Buffer.from(`${pkt(want)}0000${pkt('done\n')}`);
}

test('upload-pack: gzip request bodies are decompressed; bad gzip 400; wrong content type 400', async () => {
  const head = (await ctx.g.api('GET', '/api/v1/repos/alice/pub/branches/main', { auth: alice.auth })).body.commit.id as string;
  const headers = { 'content-type': 'application/x-git-upload-pack-request' };
  const plain = await raw('/alice/pub.git/git-upload-pack', { method: 'POST', headers, body: wantRequest(head) });
  assert.is(plain.status, 200);
  assert.is(plain.headers.get('content-type'), 'application/x-git-upload-pack-result');
  assert.is(plain.headers.get('cache-control'), null);
  assert.ok(plain.text.startsWith('0008NAK\n'), plain.text.slice(0, 20));
  assert.ok(plain.text.includes('PACK'));
  const zipped = await raw('/alice/pub.git/git-upload-pack', { method: 'POST', headers: { ...headers, 'content-encoding': 'gzip' }, body: gzipSync(wantRequest(head)) });
  assert.is(zipped.status, 200);
  assert.ok(zipped.text.startsWith('0008NAK\n'));
  // Pack bytes may differ run to run (delta search is threaded); the objects sent may not.
  const packCount = (b: Buffer) => b.readUInt32BE(b.indexOf('PACK') + 8);
  assert.is(packCount(zipped.body), packCount(plain.body));
  assert.ok(packCount(plain.body) >= 3);

  const bad = await raw('/alice/pub.git/git-upload-pack', { method: 'POST', headers: { ...headers, 'content-encoding': 'gzip' }, body: Buffer.from('this is not gzip at all') });
  assert.is(bad.status, 400);
  const wrongType = await raw('/alice/pub.git/git-upload-pack', { method: 'POST', headers: { 'content-type': 'application/x-git-receive-pack-request' }, body: wantRequest(head) });
  assert.is(wrongType.status, 400);
  assert.is(wrongType.body.length, 0);
  // git itself sends gzip for large negotiations; a fetch with many local refs exercises that path.
  const dir = await clone(`${ctx.g.url}/alice/pub.git`, 'gzip-fetch');
  // 300 local commits in one fast-import (300 separate git runs would stall this process's event loop).
  // Newer than origin/main, so the negotiation walks them first and the have list grows large.
  const now = Math.floor(Date.now() / 1000);
  let stream = '';
  for (let i = 0; i < 300; i++) {
    const msg = `local ${i}\n`;
    const body = `${i}\n`;
    stream += `commit refs/heads/main\ncommitter T <t@example.com> ${now + i} +0000\ndata ${msg.length}\n${msg}`;
    if (i === 0) stream += 'from refs/heads/main^0\n';
    stream += `M 100644 inline local.txt\ndata ${body.length}\n${body}\n`;
  }
  git(['fast-import', '--quiet'], { cwd: dir, input: stream });
  await ctx.g.commit('alice', 'pub', { 'after-gzip.txt': 'x\n' }, { auth: alice.auth });
  const traced = await gitAsync(['fetch', '-q', 'origin'], { cwd: dir, env: { GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' } });
  assert.match(traced.stderr, /Content-Encoding: gzip/i);
  assert.is(git(['cat-file', '-t', 'origin/main:after-gzip.txt'], { cwd: dir }).stdout.trim(), 'blob');
});

test('upload-pack: a body (after decompression) over MAX_BODY_BYTES is refused with 413', async () => {
  const t = await startTestServer({ MAX_BODY_BYTES: '4096' });
  try {
    const r = await fetch(`${t.url}/nobody/x.git/git-upload-pack`, { method: 'POST' });
    assert.is(r.status, 404);
    await r.arrayBuffer();
    // The admin's public repository; a 1 MiB request squeezed into ~1 KiB of gzip.
    const mk = await fetch(`${t.url}/api/v1/user/repos`, {
      method: 'POST',
      headers: { authorization: basicAuth(`root:root-password-1`), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'small', auto_init: true }),
    });
    assert.is(mk.status, 201);
    const bomb = gzipSync(Buffer.alloc(1024 * 1024, '0'));
    assert.ok(bomb.length < 4096);
    const res = await fetch(`${t.url}/root/small.git/git-upload-pack`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip' },
      body: bomb,
    });
    assert.is(res.status, 413);
    await res.arrayBuffer();
    const big = await fetch(`${t.url}/root/small.git/git-upload-pack`, { method: 'POST', headers: { 'content-type': 'application/x-git-upload-pack-request' }, body: Buffer.alloc(8192, '0') });
    assert.is(big.status, 413);
    await big.arrayBuffer();
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test('anonymous push: 401 with the realm, before anything else', async () => {
  const info = await raw('/alice/pub.git/info/refs?service=git-receive-pack');
  assert.is(info.status, 401);
  assert.is(info.headers.get('www-authenticate'), 'Basic realm="Gitea"');
  const post = await raw('/alice/pub.git/git-receive-pack', { method: 'POST', headers: { 'content-type': 'application/x-git-receive-pack-request' }, body: '0000' });
  assert.is(post.status, 401);
  const dir = await clone(`${ctx.g.url}/alice/pub.git`, 'anon-push');
  commitFiles(dir, { 'anon.txt': 'x\n' });
  assert.match(await pushFails(dir, ['-q', 'origin', 'main']), /could not read Username|Authentication failed|terminal prompts disabled/);
});

test('read-only collaborator: the hook refuses with Gitea\'s message', async () => {
  const dir = await clone(cloneUrl(ctx.g, 'alice', 'pub', carol), 'carol');
  commitFiles(dir, { 'carol.txt': 'no\n' });
  const err = await pushFails(dir, ['origin', 'main']);
  assert.match(err, /remote: Gitea: User permission denied for writing\./);
  assert.ok(err.includes(HOOK_DECLINED('main')), err);
  git(['tag', 'carol-tag'], { cwd: dir });
  assert.match(await pushFails(dir, ['origin', 'carol-tag']), /remote: Gitea: User permission denied for writing\./);
});

test('archived repository: push 403 with Gitea\'s text (even before authentication); clone still works', async () => {
  await ctx.g.repo('arch', { owner: alice });
  const dir = await clone(cloneUrl(ctx.g, 'alice', 'arch', alice), 'arch');
  assert.is((await ctx.g.api('PATCH', '/api/v1/repos/alice/arch', { json: { archived: true }, auth: alice.auth })).status, 200);
  const text = 'This repo is archived. You can view files and clone it, but cannot push or open issues/pull-requests.';
  for (const headers of [{}, { authorization: `token ${alice.token}` }] as Record<string, string>[]) {
    const r = await raw('/alice/arch.git/info/refs?service=git-receive-pack', { headers });
    assert.is(r.status, 403);
    assert.is(r.text, text);
    assert.is(r.headers.get('content-type'), 'text/plain;charset=utf-8');
  }
  commitFiles(dir, { 'late.txt': 'x\n' });
  assert.match(await pushFails(dir, ['-q', 'origin', 'main']), /403/);
  await clone(`${ctx.g.url}/alice/arch.git`, 'arch-clone');
});

test('mirror repository: push 403 "mirror repository is read-only" after authentication', async () => {
  const repo = await ctx.g.repo('mirrored', { owner: alice });
  sqlWrite(ctx.g, 'UPDATE repositories SET is_mirror = 1 WHERE id = ?', repo.id);
  assert.is((await raw('/alice/mirrored.git/info/refs?service=git-receive-pack')).status, 401);
  const r = await raw('/alice/mirrored.git/info/refs?service=git-receive-pack', { headers: { authorization: `token ${alice.token}` } });
  assert.is(r.status, 403);
  assert.is(r.text, 'mirror repository is read-only');
  const dir = await clone(cloneUrl(ctx.g, 'alice', 'mirrored', alice), 'mirror');
  commitFiles(dir, { 'm.txt': 'x\n' });
  assert.match(await pushFails(dir, ['-q', 'origin', 'main']), /403/);
});

test('protected branch: allow-list, force push, protected and unprotected files, deletion, tags', async () => {
  await ctx.g.repo('prot', { owner: alice });
  await addCollaborator(ctx.g, alice, 'prot', bob, 'write');
  await ctx.g.commit('alice', 'prot', { 'secret.txt': 's1\n', 'docs/guide.md': 'g1\n' }, { auth: alice.auth });
  await ctx.g.commit('alice', 'prot', { 'x.txt': 'x\n' }, { newBranch: 'release', auth: alice.auth });
  const protect = async (body: object) => {
    const r = await ctx.g.api('POST', '/api/v1/repos/alice/prot/branch_protections', { json: body, auth: alice.auth });
    assert.is(r.status, 201, r.text);
  };
  await protect({
    rule_name: 'main',
    enable_push: true,
    enable_push_whitelist: true,
    push_whitelist_usernames: ['alice'],
    protected_file_patterns: 'secret.txt',
    unprotected_file_patterns: 'docs/*.md',
  });
  await protect({ rule_name: 'release', enable_push: true });

  const asBob = await clone(cloneUrl(ctx.g, 'alice', 'prot', bob), 'prot-bob');
  const asAlice = await clone(cloneUrl(ctx.g, 'alice', 'prot', alice), 'prot-alice');

  // Not on the allow-list.
  commitFiles(asBob, { 'README.md': 'bob was here\n' });
  let err = await pushFails(asBob, ['origin', 'main']);
  assert.match(err, /remote: Gitea: Not allowed to push to protected branch main *\n/);
  assert.ok(err.includes(HOOK_DECLINED('main')));
  // Only unprotected files: allowed even for a non-pusher.
  git(['reset', '-q', '--hard', 'origin/main'], { cwd: asBob });
  const docs = commitFiles(asBob, { 'docs/guide.md': 'g2\n', 'docs/more.md': 'more\n' });
  await gitAsync(['push', '-q', 'origin', 'main'], { cwd: asBob });
  assert.is((await ctx.g.api('GET', '/api/v1/repos/alice/prot/branches/main', { auth: alice.auth })).body.commit.id, docs);

  // A protected file, by someone on the allow-list (the path is reported lower-cased, as Gitea does).
  await gitAsync(['pull', '-q'], { cwd: asAlice });
  commitFiles(asAlice, { 'Secret.txt': 'renamed case\n', 'secret.txt': 's2\n' });
  err = await pushFails(asAlice, ['origin', 'main']);
  assert.match(err, /remote: Gitea: Branch main is protected from changing file secret\.txt *\n/);

  // Force push.
  git(['reset', '-q', '--hard', 'HEAD~2'], { cwd: asAlice });
  commitFiles(asAlice, { 'rewrite.txt': 'history rewritten\n' });
  err = await pushFails(asAlice, ['-f', 'origin', 'main']);
  assert.match(err, /remote: Gitea: Branch main is protected from force push *\n/);
  // Force pushes enabled for an allow-list that bob is not on.
  assert.is((await ctx.g.api('PATCH', '/api/v1/repos/alice/prot/branch_protections/main', { json: { enable_force_push: true, enable_force_push_allowlist: true, force_push_allowlist_usernames: ['alice'], enable_push_whitelist: false }, auth: alice.auth })).status, 200);
  await gitAsync(['fetch', '-q'], { cwd: asBob });
  git(['reset', '-q', '--hard', 'origin/main~1'], { cwd: asBob });
  commitFiles(asBob, { 'bob-rewrite.txt': 'x\n' });
  assert.match(await pushFails(asBob, ['-f', 'origin', 'main']), /remote: Gitea: Not allowed to force-push to protected branch main *\n/);
  await gitAsync(['push', '-q', '-f', 'origin', 'main'], { cwd: asAlice });
  assert.is((await ctx.g.api('GET', '/api/v1/repos/alice/prot/branches/main', { auth: alice.auth })).body.commit.id, git(['rev-parse', 'HEAD'], { cwd: asAlice }).stdout.trim());

  // Deleting the default branch, and a protected one.
  assert.match(await pushFails(asAlice, ['origin', ':main']), /remote: Gitea: Branch main is the default branch and cannot be deleted *\n/);
  assert.match(await pushFails(asAlice, ['origin', ':release']), /remote: Gitea: Branch release is protected from deletion *\n/);
  // An unprotected branch can be created and deleted; tags are fine for writers.
  await gitAsync(['push', '-q', 'origin', 'HEAD:refs/heads/scratch'], { cwd: asAlice });
  await gitAsync(['push', '-q', 'origin', ':scratch'], { cwd: asAlice });
  git(['tag', '-a', '-m', 'v1', 'v1.0.0'], { cwd: asBob });
  await gitAsync(['push', '-q', 'origin', 'v1.0.0'], { cwd: asBob });
  const tags = (await gitAsync(['ls-remote', '--tags', 'origin'], { cwd: asBob })).stdout;
  assert.match(tags, /refs\/tags\/v1\.0\.0/);
});

test('a hostile protected file pattern: pushes are judged correctly in bounded work while a ping is served', async () => {
  await ctx.g.repo('hostile-push', { owner: alice });
  const r = await ctx.g.api('POST', '/api/v1/repos/alice/hostile-push/branch_protections', { json: { rule_name: 'main', enable_push: true, protected_file_patterns: HOSTILE_GLOB }, auth: alice.auth });
  assert.is(r.status, 201, r.text);
  const dir = await clone(cloneUrl(ctx.g, 'alice', 'hostile-push', alice), 'hostile-push');
  commitFiles(dir, { [`d.e/${A40}`]: 'free\n' });
  const ok = await hostileWithPing(ctx.g, () => gitAsync(['push', '-q', 'origin', 'main'], { cwd: dir }));
  assert.is(ok.reply.status, 0);
  assert.ok(ok.steps <= 2 * RULE_CHECK_STEPS, `${ok.steps} steps`); // one path, judged once the hook has sent it
  commitFiles(dir, { [`d.e/${A40}b`]: 'protected\n' });
  const refused = await hostileWithPing(ctx.g, () => pushFails(dir, ['origin', 'main']));
  assert.match(refused.reply, new RegExp(`remote: Gitea: Branch main is protected from changing file d\\.e/${A40}b *\n`));
  assert.ok(refused.steps <= 2 * RULE_CHECK_STEPS, `${refused.steps} steps`);
});

test('concurrent API writes and a push: every acknowledged commit stays reachable', async () => {
  await ctx.g.repo('busy', { owner: alice });
  const dir = await clone(cloneUrl(ctx.g, 'alice', 'busy', alice), 'busy');
  const acknowledged: string[] = [];
  const writers = Array.from({ length: 12 }, (_, i) =>
    ctx.g.api('POST', '/api/v1/repos/alice/busy/contents/api-' + i + '.txt', { json: { content: Buffer.from(`api ${i}\n`).toString('base64') }, auth: alice.auth }).then((r) => {
      assert.is(r.status, 201, r.text);
      acknowledged.push(r.body.commit.sha);
    }),
  );
  const pushed: string[] = [];
  const pusher = (async () => {
    for (let round = 0; round < 3; round++) {
      pushed.push(commitFiles(dir, { [`push-${round}.txt`]: `${round}\n` }));
      for (let attempt = 0; ; attempt++) {
        const r = await gitAsync(['push', '-q', 'origin', 'main'], { cwd: dir, allowFail: true });
        if (r.status === 0) break;
        assert.ok(attempt < 40, `push keeps failing: ${r.stderr}`);
        await gitAsync(['pull', '-q', '--rebase'], { cwd: dir });
        pushed[pushed.length - 1] = git(['rev-parse', 'HEAD'], { cwd: dir }).stdout.trim();
        await sleep(5);
      }
      await sleep(1);
    }
  })();
  await Promise.all([...writers, pusher]);
  const head = (await ctx.g.api('GET', '/api/v1/repos/alice/busy/branches/main', { auth: alice.auth })).body.commit.id as string;
  const repo = (await ctx.g.api('GET', '/api/v1/repos/alice/busy', { auth: alice.auth })).body;
  const gitDir = gitDirOf(ctx.g, repo.id);
  for (const sha of [...acknowledged, ...pushed]) {
    const r = git(['--git-dir', gitDir, 'merge-base', '--is-ancestor', sha, head], { allowFail: true });
    assert.is(r.status, 0, `${sha} is not in the history of main`);
  }
  assert.is(acknowledged.length, 12);
  // Reads after all that see the final state.
  for (let i = 0; i < 12; i++) assert.is((await ctx.g.api('GET', `/api/v1/repos/alice/busy/contents/api-${i}.txt`, { auth: alice.auth })).status, 200);
  for (let round = 0; round < 3; round++) assert.is((await ctx.g.api('GET', `/api/v1/repos/alice/busy/contents/push-${round}.txt`, { auth: alice.auth })).status, 200);
});

/** Processes working on a repository for a client (the server's long-lived cat-file and update-ref readers excluded). */
function serviceProcesses(gitDir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${pid}/cwd`);
      } catch {}
      if (/cat-file|update-ref( -m \S+)? --stdin/.test(cmd)) continue;
      if (cmd.includes(gitDir) || cwd.startsWith(gitDir)) found.push(`${pid}: ${cmd}`);
    } catch {}
  }
  return found;
}

async function noServiceProcesses(gitDir: string): Promise<void> {
  let left: string[] = [];
  if (!(await pollUntil(() => !(left = serviceProcesses(gitDir)).length, WAIT_MS, 50))) assert.unreachable(`git processes left behind: ${left.join('; ')}`);
}

test('a client that goes away mid-transfer leaves no git process behind (fetch and push)', async () => {
  const repo = await ctx.g.repo('big', { owner: alice });
  const gitDir = gitDirOf(ctx.g, repo.id);
  const dir = await clone(cloneUrl(ctx.g, 'alice', 'big', alice), 'big');
  const sha = commitFiles(dir, { 'blob.bin': randomBytes(24 * 1024 * 1024) }, 'big blob');
  await gitAsync(['push', '-q', 'origin', 'main'], { cwd: dir }); // a 24 MiB pack through the streamed push

  // Fetch: read a little of the pack, then drop the connection.
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest(`${ctx.g.url}/alice/big.git/git-upload-pack`, { method: 'POST', headers: { 'content-type': 'application/x-git-upload-pack-request' } }, (res) => {
      assert.is(res.statusCode, 200);
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', () => {});
    req.on('close', () => resolve());
    req.end(wantRequest(sha));
    setTimeout(() => reject(new Error('no response')), WAIT_MS).unref();
  });
  await noServiceProcesses(gitDir);

  // Push: send the start of a pack, then drop the connection.
  await new Promise<void>((resolve) => {
    const req = httpRequest(`${ctx.g.url}/alice/big.git/git-receive-pack`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-git-receive-pack-request', authorization: `token ${alice.token}`, 'transfer-encoding': 'chunked' },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    const zero = '0'.repeat(40);
    const cmd = `${zero} ${'1'.repeat(40)} refs/heads/dropped\0 report-status\n`;
    req.write(`${(cmd.length + 4).toString(16).padStart(4, '0')}${cmd}0000PACK`);
    req.write(randomBytes(64 * 1024));
    setTimeout(() => req.destroy(), 300);
  });
  await noServiceProcesses(gitDir);
  assert.is(git(['--git-dir', gitDir, 'rev-parse', '--verify', '-q', 'refs/heads/dropped'], { allowFail: true }).status, 1);
});

test('every repository is fsck-clean at the end', async () => {
  const root = join(ctx.g.t.dataDir, 'git');
  for (const d of readdirSync(root)) {
    if (!d.endsWith('.git')) continue;
    const r = git(['--git-dir', join(root, d), 'fsck', '--no-progress'], { allowFail: true });
    assert.is(r.status, 0, `${d}: ${r.stderr}`);
    assert.not.match(r.stdout + r.stderr, /error|missing|broken/i, d);
  }
});

test.run();
