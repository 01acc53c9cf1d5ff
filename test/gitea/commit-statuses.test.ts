import { giteaApi } from 'gitea-js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError } from '../_helpers/api-error.js';
import { addCollaborator, useGitea, type Account } from '../_helpers/gitea.js';

// Commit statuses: recording them (permissions, validation), listing, and the combined state; driven
// partly through gitea-js, as bots like Renovate do.
const test = suite('gitea: commit statuses');
const ctx = useGitea(test);

let olly: Account;
let will: Account; // write collaborator
let rita: Account; // read collaborator
let head = '';
let api = '';

test.before(async () => {
  const { g } = ctx;
  [olly, will, rita] = await Promise.all(['olly', 'will', 'rita'].map((n) => g.user(n))) as [Account, Account, Account];
  await g.repo('ci', { owner: olly });
  await addCollaborator(g, olly, 'ci', will, 'write');
  await addCollaborator(g, olly, 'ci', rita, 'read');
  head = (await g.api('GET', '/api/v1/repos/olly/ci/branches/main', { auth: olly.auth })).body.commit.id;
  api = `${g.url}/api/v1/repos/olly/ci`;
});

const post = (sha: string, body: unknown, auth: Account['auth'] | null) => ctx.g.api('POST', `/api/v1/repos/olly/ci/statuses/${sha}`, { json: body, auth });

test('POST /statuses/{sha}: 201 with the CommitStatus, numbered per commit; a branch name stores it for its commit', async () => {
  const { g } = ctx;
  const will_ = (await g.api('GET', '/api/v1/users/will', { auth: will.auth })).body;
  const r = await post(head, { state: 'pending', context: 'ci/build', target_url: 'https://ci.example/1', description: 'building' }, will.auth);
  assert.is(r.status, 201, r.text);
  assert.equal(Object.keys(r.body), ['id', 'status', 'target_url', 'description', 'url', 'context', 'creator', 'created_at', 'updated_at']);
  assert.equal({ ...r.body, created_at: '', updated_at: '' }, {
    id: 1,
    status: 'pending',
    target_url: 'https://ci.example/1',
    description: 'building',
    url: `${api}/statuses/${head}`,
    context: 'ci/build',
    creator: will_,
    created_at: '',
    updated_at: '',
  });
  assert.is(r.body.created_at, r.body.updated_at);
  const byBranch = await post('main', { state: 'success', context: 'ci/build' }, will.auth);
  assert.equal([byBranch.status, byBranch.body.id, byBranch.body.url], [201, 2, `${api}/statuses/${head}`]);
});

test('POST /statuses/{sha}: read access is 403, anonymous 401, an unknown commit 404, a bad state 422', async () => {
  const { g } = ctx;
  const r = await post(head, { state: 'success' }, rita.auth);
  assert.equal([r.status, r.body], [403, apiError(g, 'user should have a permission to write to a repo')]);
  const anon = await post(head, { state: 'success' }, null);
  assert.equal([anon.status, anon.body], [401, apiError(g, 'token is required')]);
  const readToken = await g.token(will, ['read:repository']);
  const scoped = await post(head, { state: 'success' }, { token: readToken });
  assert.equal([scoped.status, scoped.body], [403, apiError(g, 'token does not have at least one of required scope(s), required=[write:repository], token scope=read:repository')]);
  const unknown = await post('0'.repeat(40), { state: 'success' }, will.auth);
  assert.equal([unknown.status, unknown.body], [404, apiError(g, `object does not exist [id: ${'0'.repeat(40)}, rel_path: ]`)]);
  const bad = await post(head, { state: 'great' }, will.auth);
  assert.equal([bad.status, bad.body], [422, apiError(g, '[State]: In')]);
  const none = await post(head, {}, will.auth);
  assert.equal([none.status, none.body], [422, apiError(g, '[State]: Required')]);
});

test('combined status: the newest per context; failure beats pending beats success; through gitea-js', async () => {
  const { g } = ctx;
  const client = giteaApi(`${g.url}/`, { token: will.token });
  await g.repo('rules', { owner: olly });
  await addCollaborator(g, olly, 'rules', will, 'write');
  const sha = (await client.repos.repoGetAllCommits('olly', 'rules', { stat: false, files: false })).data[0]!.sha!;
  const combined = async () => (await client.repos.repoGetCombinedStatusByRef('olly', 'rules', 'main')).data;

  const empty = await combined();
  assert.equal([empty.state, empty.total_count, empty.statuses, empty.sha, empty.url], ['', 0, [], sha, `${g.url}/api/v1/repos/olly/rules/commits/${sha}/status`]);
  assert.is(empty.repository?.full_name, 'olly/rules');
  const commitUrl = await g.api('GET', empty.commit_url!.slice(g.url.length), { auth: will.auth });
  assert.equal([commitUrl.status, commitUrl.body.sha], [200, sha]);

  const create = (context: string, state: 'pending' | 'success' | 'error' | 'failure' | 'warning') => client.repos.repoCreateStatus('olly', 'rules', sha, { context, state });
  await create('build', 'pending');
  assert.is((await combined()).state, 'pending');
  await create('build', 'success');
  await create('lint', 'warning');
  const ok = await combined();
  assert.equal([ok.state, ok.total_count, ok.statuses?.map((s) => [s.context, s.status, s.id])], ['success', 2, [['build', 'success', 2], ['lint', 'warning', 3]]]);
  await create('test', 'error');
  assert.is((await combined()).state, 'failure');
  await create('test', 'pending');
  assert.is((await combined()).state, 'pending');

  const list = await client.repos.repoListStatusesByRef('olly', 'rules', 'main', { limit: 2 });
  assert.equal(list.data.map((s) => s.id), [5, 4]);
  assert.is(list.headers.get('x-total-count'), '5');
  const oldest = await g.api('GET', `/api/v1/repos/olly/rules/statuses/${sha}?sort=oldest&state=success`, { auth: will.auth });
  assert.equal(oldest.body.map((s: { id: number }) => s.id), [2]);
});

test('reading statuses: anyone who can read the repository; unknown refs 404', async () => {
  const { g } = ctx;
  const r = await g.api('GET', '/api/v1/repos/olly/ci/commits/main/statuses', { auth: null });
  assert.equal([r.status, r.body.map((s: { id: number }) => s.id)], [200, [2, 1]]);
  const c = await g.api('GET', `/api/v1/repos/olly/ci/commits/${head.slice(0, 10)}/status`, { auth: rita.auth });
  assert.equal([c.status, c.body.state, c.body.total_count], [200, 'success', 1]);
  const none = await g.api('GET', '/api/v1/repos/olly/ci/commits/nope/status', { auth: rita.auth });
  assert.equal([none.status, none.body], [404, apiError(g, 'object does not exist [id: nope, rel_path: ]')]);
});

test('a private repository\'s statuses are 404 to strangers and anonymous callers, reads and writes alike', async () => {
  const { g } = ctx;
  const stan = await g.user('stan');
  await g.repo('secret', { owner: olly, private: true });
  for (const auth of [stan.auth, null]) {
    const read = await g.api('GET', '/api/v1/repos/olly/secret/commits/main/status', { auth });
    assert.equal([read.status, read.body], [404, apiError(g, 'not found')]);
    const write = await g.api('POST', '/api/v1/repos/olly/secret/statuses/main', { json: { state: 'success' }, auth });
    assert.equal([write.status, write.body], [404, apiError(g, 'not found')]);
  }
  const own = await g.api('POST', '/api/v1/repos/olly/secret/statuses/main', { json: { state: 'success' }, auth: olly.auth });
  assert.is(own.status, 201, own.text);
});

test.run();
