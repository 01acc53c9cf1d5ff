import Database from 'better-sqlite3';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cloneUrl, gitAsync, useGitea, type Account } from '../_helpers/gitea.js';
import { basicAuth, request, type Reply } from '../_helpers/request.js';

// Warm repository reads are sent again from memory (server/http/answer-memo.ts) without
// running the app. These tests check that such an answer is byte for byte the app's, and
// that every change it was built from (a commit, a push, the default branch, a token, a
// collaborator, another process's write) sends the next request through the app again.
const test = suite('gitea: replayed answers');
const ctx = useGitea(test);
let owen: Account;
let vera: Account;

const served = () => ctx.t.server.answers.counts.served;
const get = (path: string, auth: Account | null, headers: Record<string, string> = {}) =>
  request(ctx.t.url, 'GET', path, { headers: { ...(auth ? { authorization: `token ${auth.token}` } : {}), ...headers } });
/** Every header of an answer but Date, which node writes afresh for each. */
const headersOf = (r: Reply) => [...r.headers].filter(([k]) => k !== 'date');

/** GETs `path` twice; the second must come from memory and equal the first in status, headers and bytes. */
async function twice(path: string, auth: Account | null): Promise<Reply> {
  const first = await get(path, auth);
  const before = served();
  const again = await get(path, auth);
  assert.is(served(), before + 1, `${path}: the second GET is sent from memory`);
  assert.is(again.status, first.status, path);
  assert.equal(headersOf(again), headersOf(first), path);
  assert.ok(again.bytes.equals(first.bytes), `${path}: same bytes`);
  return again;
}

test.before(async () => {
  owen = await ctx.g.user('owen');
  vera = await ctx.g.user('vera');
  await ctx.g.repo('site', { owner: owen });
  await ctx.g.commit('owen', 'site', { 'content/a.md': 'a\n', 'content/b.md': 'b\n', 'img/x.txt': 'x\n' }, { auth: owen.auth, message: 'content' });
  await ctx.g.repo('secret', { owner: owen, private: true });
});

test('a repeated read is the app’s answer byte for byte: trees, commits, contents, a commit', async () => {
  const base = '/api/v1/repos/owen/site';
  const tree = await twice(`${base}/git/trees/main?recursive=1`, owen);
  assert.is(tree.status, 200);
  assert.is(tree.headers.get('x-total-count'), String(tree.body.total_count));
  const commits = await twice(`${base}/commits?path=content&stat=false`, owen);
  assert.is(commits.status, 200);
  assert.ok(commits.headers.get('link') !== null || commits.headers.get('x-total-count') === '1');
  assert.is((await twice(`${base}/contents/content?ref=main`, owen)).body.length, 2);
  assert.is((await twice(`${base}/contents/content/a.md`, null)).body.content, Buffer.from('a\n').toString('base64'));
  assert.is((await twice(`${base}/contents`, owen)).status, 200);
  assert.is((await twice(`${base}/git/commits/${commits.body[0].sha}`, owen)).body.sha, commits.body[0].sha);
});

test('a commit through the API, a push and a new default branch each send the next read through the app', async () => {
  const path = '/api/v1/repos/owen/site/contents/content';
  await twice(path, owen);
  await ctx.g.commit('owen', 'site', { 'content/c.md': 'c\n' }, { auth: owen.auth });
  let before = served();
  const after = await get(path, owen);
  assert.is(served(), before);
  assert.equal(after.body.map((e: { name: string }) => e.name), ['a.md', 'b.md', 'c.md']);

  // A push over HTTP with real git.
  await twice(path, owen);
  const work = mkdtempSync(join(tmpdir(), 'replay-push-'));
  await gitAsync(['clone', '-q', cloneUrl(ctx.g, 'owen', 'site', owen), work]);
  writeFileSync(join(work, 'content', 'd.md'), 'd\n');
  await gitAsync(['add', 'content/d.md'], { cwd: work });
  await gitAsync(['-c', 'user.name=O', '-c', 'user.email=o@example.com', 'commit', '-qm', 'add d'], { cwd: work });
  await gitAsync(['push', '-q', 'origin', 'main'], { cwd: work });
  before = served();
  const pushed = await get(path, owen);
  assert.is(served(), before);
  assert.equal(pushed.body.map((e: { name: string }) => e.name), ['a.md', 'b.md', 'c.md', 'd.md']);

  // The default branch: contents without `ref` follow it.
  await ctx.g.commit('owen', 'site', { 'content/only-on-next.md': 'n\n' }, { auth: owen.auth, newBranch: 'next' });
  await twice(path, owen);
  const patched = await ctx.g.api('PATCH', '/api/v1/repos/owen/site', { json: { default_branch: 'next' }, auth: owen.auth });
  assert.is(patched.status, 200);
  const moved = await get(path, owen);
  assert.ok(moved.body.some((e: { name: string }) => e.name === 'only-on-next.md'));
  assert.is((await ctx.g.api('PATCH', '/api/v1/repos/owen/site', { json: { default_branch: 'main' }, auth: owen.auth })).status, 200);
});

test('a ref moved with no database write is seen once the store hears of it', async () => {
  const path = '/api/v1/repos/owen/site/git/trees/main';
  const kept = await twice(path, owen);
  const gitDir = ctx.t.server.gitea.repos.lookup('owen', 'site', null).gitDir;
  const parent = (await gitAsync(['--git-dir', gitDir, 'rev-parse', 'main~1'])).stdout.trim();
  const tip = (await gitAsync(['--git-dir', gitDir, 'rev-parse', 'main'])).stdout.trim();
  // As git's own tools would (nothing in the database changes), then what our writers do after any ref move.
  await gitAsync(['--git-dir', gitDir, 'update-ref', 'refs/heads/main', parent, tip]);
  ctx.t.server.gitea.git.invalidate(gitDir);
  const before = served();
  const moved = await get(path, owen);
  assert.is(served(), before);
  assert.is.not(moved.body.sha, kept.body.sha);
  await gitAsync(['--git-dir', gitDir, 'update-ref', 'refs/heads/main', tip, parent]);
  ctx.t.server.gitea.git.invalidate(gitDir);
  assert.is((await get(path, owen)).body.sha, kept.body.sha);
});

test('credentials: another caller never gets a kept answer; revoked tokens and removed collaborators are refused', async () => {
  const path = '/api/v1/repos/owen/secret/contents';
  const kept = await twice(path, owen);
  assert.is(kept.status, 200);
  assert.is((await get(path, null)).status, 404);
  assert.is((await get(path, vera)).status, 404);

  // A collaborator's kept answer ends with the collaboration.
  assert.is((await ctx.g.api('PUT', '/api/v1/repos/owen/secret/collaborators/vera', { json: { permission: 'read' }, auth: owen.auth })).status, 204);
  await twice(path, vera);
  assert.is((await ctx.g.api('DELETE', '/api/v1/repos/owen/secret/collaborators/vera', { auth: owen.auth })).status, 204);
  assert.is((await get(path, vera)).status, 404);

  // A token deleted through the API.
  const token = await ctx.g.token(owen, ['read:repository'], 'short-lived');
  const holder = { ...owen, token };
  await twice(path, holder);
  assert.is((await ctx.g.api('DELETE', '/api/v1/users/owen/tokens/short-lived', { auth: { basic: `owen:${owen.password}` } })).status, 204);
  const refused = await get(path, holder);
  assert.is(refused.status, 401);
});

test('another process’s commit (the admin command line) is seen by the next request', async () => {
  const path = '/api/v1/repos/owen/secret/contents';
  const token = await ctx.g.token(owen, ['read:repository'], 'removed-elsewhere');
  const holder = { ...owen, token };
  await twice(path, holder);
  const other = new Database(join(ctx.t.dataDir, 'trunkline.db'));
  try {
    assert.is(other.prepare("DELETE FROM access_tokens WHERE name = 'removed-elsewhere'").run().changes, 1);
  } finally {
    other.close();
  }
  const before = served();
  assert.is((await get(path, holder)).status, 401);
  assert.is(served(), before);
});

test('requests whose answer may differ are never sent from memory: Origin, conditions, ranges, cookies, HEAD, passwords', async () => {
  const path = '/api/v1/repos/owen/site/git/trees/main';
  await twice(path, owen);
  const before = served();
  const varying: Record<string, string>[] = [{ origin: 'http://elsewhere.example' }, { 'if-none-match': '"x"' }, { 'if-modified-since': new Date().toUTCString() }, { range: 'bytes=0-1' }, { cookie: 'a=b' }];
  for (const headers of varying) {
    assert.is((await get(path, owen, headers)).status, 200);
  }
  assert.is((await request(ctx.t.url, 'HEAD', path, { headers: { authorization: `token ${owen.token}` } })).status, 200);
  // A password session is checked by the app every time (its own cache and throttle).
  const pw = { authorization: basicAuth(`owen:${owen.password}`) };
  assert.is((await request(ctx.t.url, 'GET', path, { headers: pw })).status, 200);
  assert.is((await request(ctx.t.url, 'GET', path, { headers: pw })).status, 200);
  assert.is(served(), before);
});

test.run();
