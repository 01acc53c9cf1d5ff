import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError } from '../_helpers/api-error.js';
import { git, gitDirOf, giteaWorld, useGitea, type Account, type GiteaWorld } from '../_helpers/gitea.js';
import { startTestServer } from '../_helpers/server.js';

// Pull mirrors and plain migrations for real: a repository of this server cloned (with
// credentials) into another, kept in step by mirror-sync through the queue.
const test = suite('gitea: migrate and pull mirrors');
const ctx = useGitea(test, { MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });

let g: GiteaWorld;
let alice: Account; // owns the private alice/upstream
let bob: Account; // migrates it
const refsOf = (dir: string) => git(['--git-dir', dir, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags']).stdout;
let upstreamDir = '';

const migrate = (body: object, auth = bob.auth) => g.api('POST', '/api/v1/repos/migrate', { json: body, auth });

test.before(async () => {
  g = ctx.g;
  [alice, bob] = [await g.user('alice'), await g.user('bob')];
  const up = await g.repo('upstream', { owner: alice, private: true });
  upstreamDir = gitDirOf(g, up.id);
  await g.commit('alice', 'upstream', { 'a.txt': 'a\n' }, { auth: alice.auth });
  await g.commit('alice', 'upstream', { 'f.txt': 'f\n' }, { newBranch: 'feature', auth: alice.auth });
  git(['--git-dir', upstreamDir, 'tag', 'v1', 'main']);
  g.t.server.gitea.git.invalidate(upstreamDir);
});

test('migrate with mirror: 201 Repository (mirror, interval), every branch and tag fetched, credentials sealed and out of git config', async () => {
  const r = await migrate({ clone_addr: `${g.url}/alice/upstream.git`, auth_username: 'alice', auth_password: alice.token, repo_name: 'copy', mirror: true });
  assert.is(r.status, 201, r.text);
  assert.is(r.body.full_name, 'bob/copy');
  assert.is(r.body.mirror, true);
  assert.is(r.body.mirror_interval, '8h0m0s');
  assert.is(r.body.default_branch, 'main');
  assert.is(r.body.empty, false);
  const dir = gitDirOf(g, r.body.id);
  assert.is(refsOf(dir), refsOf(upstreamDir));
  const config = readFileSync(join(dir, 'config'), 'utf8');
  assert.ok(config.includes(`url = ${g.url}/alice/upstream.git`), config);
  assert.not.ok(config.includes(alice.token));
  assert.not.ok(r.text.includes(alice.token));
  const row = g.t.server.db.prepare('SELECT credentials FROM pull_mirrors WHERE repo_id = ?').get(r.body.id) as { credentials: string };
  assert.match(row.credentials, /^v1:/);
  // An interval mirror has its next sync queued.
  assert.is((g.t.server.db.prepare("SELECT count(*) AS n FROM mirror_jobs WHERE kind = 'pull' AND target_id = ?").get(r.body.id) as { n: number }).n, 1);
});

test('mirror-sync: 200 at once, the queued fetch brings new commits and removes deleted branches', async () => {
  const made = await g.commit('alice', 'upstream', { 'b.txt': 'b\n' }, { auth: alice.auth });
  git(['--git-dir', upstreamDir, 'branch', '-D', 'feature']);
  g.t.server.gitea.git.invalidate(upstreamDir);
  const events: { type: string; branch?: string; mirror?: unknown }[] = [];
  const off = g.t.server.gitea.events.subscribe((e) => {
    if (e.repository.full_name === 'bob/copy') events.push({ type: e.type, ...('branch' in e ? { branch: e.branch } : {}), ...('mirror' in e ? { mirror: e.mirror } : {}) });
  });
  const r = await g.api('POST', '/api/v1/repos/bob/copy/mirror-sync', { auth: bob.auth });
  assert.is(r.status, 200, r.text);
  assert.is(r.text, '');
  await g.t.server.gitea.mirrorQueue.idle();
  off();
  const mirror = { kind: 'pull', remote_name: 'origin', remote_address: `${g.url}/alice/upstream.git` };
  assert.equal(events, [{ type: 'mirror_sync_started', mirror }, { type: 'commit', branch: 'main' }, { type: 'mirror_sync_finished', mirror }]);
  const copy = (await g.api('GET', '/api/v1/repos/bob/copy', { auth: bob.auth })).body;
  assert.is(refsOf(gitDirOf(g, copy.id)), refsOf(upstreamDir));
  const branch = await g.api('GET', '/api/v1/repos/bob/copy/branches/main', { auth: bob.auth });
  assert.is(branch.body.commit.id, made.commit.sha);
  assert.is((await g.api('GET', '/api/v1/repos/bob/copy/branches/feature', { auth: bob.auth })).status, 404);
});

test('a mirror refuses content writes (403) and mirror-sync needs write access', async () => {
  const w = await g.api('POST', '/api/v1/repos/bob/copy/contents/x.txt', { json: { content: Buffer.from('x').toString('base64') }, auth: bob.auth });
  assert.is(w.status, 403);
  assert.equal(w.body, apiError(g, 'repo is not allowed to edit'));
  const carol = await g.user('carol');
  assert.is((await g.api('PUT', '/api/v1/repos/bob/copy/collaborators/carol', { json: { permission: 'read' }, auth: bob.auth })).status, 204);
  const denied = await g.api('POST', '/api/v1/repos/bob/copy/mirror-sync', { auth: carol.auth });
  assert.is(denied.status, 403);
  assert.is((await g.api('POST', '/api/v1/repos/bob/copy/mirror-sync', { auth: null })).status, 401);
});

test('migrate without mirror: a plain copy with no remote left; mirror-sync then 400', async () => {
  const r = await migrate({ clone_addr: `${g.url}/alice/upstream.git`, auth_username: 'alice', auth_token: alice.token, repo_name: 'plain' });
  assert.is(r.status, 201, r.text);
  assert.is(r.body.mirror, false);
  assert.is(r.body.mirror_interval, '');
  assert.is(refsOf(gitDirOf(g, r.body.id)), refsOf(upstreamDir));
  assert.not.ok(readFileSync(join(gitDirOf(g, r.body.id), 'config'), 'utf8').includes('[remote'));
  const sync = await g.api('POST', '/api/v1/repos/bob/plain/mirror-sync', { auth: bob.auth });
  assert.is(sync.status, 400);
  assert.equal(sync.body, apiError(g, 'Repository is not a mirror'));
  // It takes writes like any repository.
  assert.is((await g.commit('bob', 'plain', { 'mine.txt': 'mine\n' }, { auth: bob.auth })).commit.sha.length, 40);
});

test('errors: wrong credentials 422 (masked, nothing kept), ssh 400, duplicate name 409, another owner 403, bad interval 400', async () => {
  const bad = await migrate({ clone_addr: `${g.url}/alice/upstream.git`, auth_username: 'alice', auth_password: 'wrong-password-77', repo_name: 'nope', mirror: true });
  assert.is(bad.status, 422, bad.text);
  assert.ok(bad.body.message.startsWith('Migration failed: '), bad.body.message);
  assert.not.ok(bad.text.includes('wrong-password-77'));
  assert.is((await g.api('GET', '/api/v1/repos/bob/nope', { auth: bob.auth })).status, 404);
  for (const line of g.t.logs) assert.not.ok(line.includes('wrong-password-77') || line.includes(alice.token), line);

  const ssh = await migrate({ clone_addr: 'ssh://git@127.0.0.1/alice/upstream.git', repo_name: 'ssh', mirror: true });
  assert.is(ssh.status, 400);
  assert.equal(ssh.body, apiError(g, 'Invalid mirror protocol'));
  const dup = await migrate({ clone_addr: `${g.url}/alice/upstream.git`, auth_username: 'alice', auth_password: alice.token, repo_name: 'copy' });
  assert.is(dup.status, 409);
  assert.equal(dup.body, apiError(g, 'The repository with the same name already exists.'));
  const other = await migrate({ clone_addr: `${g.url}/alice/upstream.git`, repo_name: 'theirs', repo_owner: 'alice' });
  assert.is(other.status, 403);
  assert.equal(other.body, apiError(g, 'Given user is not an organization.'));
  const interval = await migrate({ clone_addr: `${g.url}/alice/upstream.git`, repo_name: 'iv', mirror: true, mirror_interval: 'soon' });
  assert.is(interval.status, 400);
  assert.equal(interval.body, apiError(g, 'invalid interval: time: invalid duration "soon"'));
  const missing = await migrate({ repo_name: 'x' });
  assert.is(missing.status, 422);
});

test('by default, addresses on local networks are 401 Permission denied; MIRROR_ENABLED=false refuses mirrors (403)', async () => {
  const t = await startTestServer({ MIRROR_ENABLED: 'false' });
  try {
    const w = await giteaWorld(t);
    const local = await w.api('POST', '/api/v1/repos/migrate', { json: { clone_addr: 'http://127.0.0.1:1/x.git', repo_name: 'x' } });
    assert.is(local.status, 401);
    assert.equal(local.body, { message: 'Permission denied', url: `${w.url}/api/swagger` });
    const off = await w.api('POST', '/api/v1/repos/migrate', { json: { clone_addr: 'https://example.com/x.git', repo_name: 'x', mirror: true } });
    assert.is(off.status, 403);
    assert.equal(off.body, { message: 'the site administrator has disabled the creation of new pull mirrors', url: `${w.url}/api/swagger` });
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test.run();
