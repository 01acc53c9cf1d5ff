import { giteaApi } from 'gitea-js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expectJsonError } from '../_helpers/api-error.js';
import { openEventLog } from '../_helpers/events.js';
import { type Account, addCollaborator, git, gitDirOf, sqlWrite, useGitea } from '../_helpers/gitea.js';

// POST /repos/{o}/{r}/branches and DELETE …/branches/{b}: where a branch starts, Gitea's
// conflicts and refusals with its texts, protection rules applied as to a push, and the change
// announced on the repository event stream as API commits are.
const test = suite('gitea: creating and deleting branches');
const ctx = useGitea(test);

const ZERO = '0'.repeat(40);
let writer: Account;
let reader: Account;
let dir = '';
let first = '';
let second = '';

const create = (repo: string, json: unknown, auth?: Account['auth']) => ctx.g.api('POST', `/api/v1/repos/root/${repo}/branches`, { json, ...(auth === undefined ? {} : { auth }) });
const remove = (repo: string, branch: string, auth?: Account['auth']) => ctx.g.api('DELETE', `/api/v1/repos/root/${repo}/branches/${branch}`, auth === undefined ? {} : { auth });
const revParse = (ref: string) => git(['--git-dir', dir, 'rev-parse', '--verify', '--quiet', ref], { allowFail: true }).stdout.trim();

test.before(async () => {
  const g = ctx.g;
  writer = await g.user('wendy');
  reader = await g.user('rita');
  const repo = await g.repo('tree');
  dir = gitDirOf(g, repo.id);
  first = revParse('refs/heads/main');
  second = (await g.commit('root', 'tree', { 'a.txt': 'a\n' })).commit.sha;
  await addCollaborator(g, g.admin, 'tree', writer, 'write');
  await addCollaborator(g, g.admin, 'tree', reader, 'read');
});

test('from the default branch: 201 with the branch as GET answers it, and the ref in git', async () => {
  const r = await create('tree', { new_branch_name: 'feature/one' }, writer.auth);
  assert.is(r.status, 201, r.text);
  const got = await ctx.g.api('GET', '/api/v1/repos/root/tree/branches/feature/one', { auth: writer.auth });
  assert.is(got.status, 200);
  assert.equal(r.body, got.body);
  assert.is(r.body.name, 'feature/one');
  assert.is(r.body.commit.id, second);
  assert.is(r.body.user_can_push, true);
  assert.is(revParse('refs/heads/feature/one'), second);
});

test('from old_branch_name, from old_ref_name (a commit id or a branch)', async () => {
  const r1 = await create('tree', { new_branch_name: 'from-branch', old_branch_name: 'feature/one' });
  assert.is(r1.status, 201, r1.text);
  assert.is(r1.body.commit.id, second);
  const r2 = await create('tree', { new_branch_name: 'from-commit', old_ref_name: first });
  assert.is(r2.status, 201, r2.text);
  assert.is(r2.body.commit.id, first);
  assert.is(revParse('refs/heads/from-commit'), first);
  const r3 = await create('tree', { new_branch_name: 'from-ref', old_ref_name: 'from-commit' });
  assert.is(r3.body.commit.id, first);
  // An abbreviated commit id names its commit too.
  const r4 = await create('tree', { new_branch_name: 'from-short', old_ref_name: second.slice(0, 10) });
  assert.is(r4.status, 201, r4.text);
  assert.is(r4.body.commit.id, second);
});

test('a missing start point is 404; an empty repository has nothing to branch from', async () => {
  const g = ctx.g;
  await expectJsonError(g, create('tree', { new_branch_name: 'x', old_branch_name: 'nope' }), 404, 'The old branch does not exist');
  await expectJsonError(g, create('tree', { new_branch_name: 'x', old_ref_name: 'nope' }), 404, 'object does not exist [id: nope, rel_path: ]');
  await g.repo('empty', { autoInit: false });
  await expectJsonError(g, create('empty', { new_branch_name: 'x' }), 404, 'Git Repository is empty.');
  await expectJsonError(g, remove('empty', 'main'), 404, 'Git Repository is empty.');
  assert.is(revParse('refs/heads/x'), '');
});

test('name conflicts are 409 with Gitea\'s texts; two creates of one name: one 201, one 409', async () => {
  const g = ctx.g;
  await expectJsonError(g, create('tree', { new_branch_name: 'main' }), 409, 'The branch already exists.');
  await expectJsonError(g, create('tree', { new_branch_name: 'feature' }), 409, 'The branch with the same name already exists.');
  await expectJsonError(g, create('tree', { new_branch_name: 'feature/one/deeper' }), 409, 'The branch with the same name already exists.');
  const [a, b] = await Promise.all([create('tree', { new_branch_name: 'twice' }), create('tree', { new_branch_name: 'twice' })]);
  assert.equal([a.status, b.status].sort(), [201, 409]);
});

test('bad bodies are 422 with the binding texts', async () => {
  const g = ctx.g;
  await expectJsonError(g, create('tree', {}), 422, '[BranchName]: Required');
  await expectJsonError(g, create('tree', { new_branch_name: 'a..b' }), 422, '[BranchName]: GitRefName');
  await expectJsonError(g, create('tree', { new_branch_name: 'x'.repeat(101) }), 422, '[BranchName]: MaxSize');
  await expectJsonError(g, create('tree', { new_branch_name: 'ok', old_ref_name: 'bad ref' }), 422, '[OldRefName]: GitRefName');
});

test('who may: readers 403, anonymous 401; archived 423; a pull mirror 403', async () => {
  const g = ctx.g;
  await expectJsonError(g, create('tree', { new_branch_name: 'r' }, reader.auth), 403, 'user should have a permission to write to a repo');
  await expectJsonError(g, remove('tree', 'from-ref', reader.auth), 403, 'user should have a permission to write to a repo');
  await expectJsonError(g, create('tree', { new_branch_name: 'r' }, null), 401, 'token is required');
  await g.repo('old');
  assert.is((await g.api('PATCH', '/api/v1/repos/root/old', { json: { archived: true } })).status, 200);
  await expectJsonError(g, create('old', { new_branch_name: 'r' }), 423, 'repo is archived');
  await expectJsonError(g, remove('old', 'main'), 423, 'repo is archived');
  const m = await g.repo('mirrored');
  sqlWrite(g, 'UPDATE repositories SET is_mirror = 1 WHERE id = ?', m.id);
  await expectJsonError(g, create('mirrored', { new_branch_name: 'r' }), 403, 'Git Repository is a mirror.');
  await expectJsonError(g, remove('mirrored', 'main'), 403, 'Git Repository is a mirror.');
});

test('protection rules: creating a branch a rule forbids pushing to is 403; a protected branch cannot be deleted', async () => {
  const g = ctx.g;
  const rule = await g.api('POST', '/api/v1/repos/root/tree/branch_protections', { json: { rule_name: 'release/*', enable_push: false } });
  assert.is(rule.status, 201, rule.text);
  await expectJsonError(g, create('tree', { new_branch_name: 'release/1' }, writer.auth), 403, 'Not allowed to push to protected branch release/1');
  assert.is(revParse('refs/heads/release/1'), '');
  // A rule that lets this writer push lets it create the branch too; deleting it is still refused.
  const allow = await g.api('PATCH', '/api/v1/repos/root/tree/branch_protections/release%2F*', { json: { enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['wendy'] } });
  assert.is(allow.status, 200, allow.text);
  assert.is((await create('tree', { new_branch_name: 'release/1' }, writer.auth)).status, 201);
  await expectJsonError(g, create('tree', { new_branch_name: 'release/2' }, g.admin.auth), 403, 'Not allowed to push to protected branch release/2');
  await expectJsonError(g, remove('tree', 'release/1', writer.auth), 403, 'branch protected');
  assert.is(revParse('refs/heads/release/1'), second);
});

test('delete: 204 and the ref is gone; again 404; the default branch 403', async () => {
  const g = ctx.g;
  const r = await remove('tree', 'from-branch', writer.auth);
  assert.is(r.status, 204, r.text);
  assert.is(r.text, '');
  assert.is(revParse('refs/heads/from-branch'), '');
  await expectJsonError(g, g.api('GET', '/api/v1/repos/root/tree/branches/from-branch'), 404, 'not found');
  await expectJsonError(g, remove('tree', 'from-branch'), 404, 'not found');
  await expectJsonError(g, remove('tree', 'main'), 403, 'can not delete default branch');
  assert.is(revParse('refs/heads/main'), second);
});

test('the event stream sees a created branch at its head and a deleted one at the zero id', async () => {
  const g = ctx.g;
  const log = await openEventLog<any>(`${g.url.replace('http', 'ws')}/api/v1/events?repo=root/tree`, { headers: { authorization: `token ${g.admin.token}` } });
  try {
    assert.is((await create('tree', { new_branch_name: 'evented', old_ref_name: first })).status, 201);
    assert.is((await remove('tree', 'evented')).status, 204);
    await log.waitFor((e) => e.branch === 'evented' && e.sha === ZERO);
    const seen = log.events.filter((e) => e.branch === 'evented').map((e) => [e.type, e.sha]);
    assert.equal(seen, [['commit', first], ['commit', ZERO]]);
  } finally {
    await log.close();
  }
});

test('gitea-js: repoCreateBranch and repoDeleteBranch', async () => {
  const api = giteaApi(`${ctx.g.url}/`, { token: writer.token });
  const made = await api.repos.repoCreateBranch('root', 'tree', { new_branch_name: 'js-branch', old_ref_name: 'main' });
  assert.is(made.status, 201);
  assert.is(made.data.commit!.id, second);
  const gone = await api.repos.repoDeleteBranch('root', 'tree', 'js-branch');
  assert.is(gone.status, 204);
  assert.is(revParse('refs/heads/js-branch'), '');
});

test.run();
