import { giteaApi } from 'gitea-js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expectJsonError } from '../_helpers/api-error.js';
import { type Account, addCollaborator, sqlWrite, useGitea } from '../_helpers/gitea.js';

// GET /repos/search, /user/repos and /users/{u}/repos: only what the caller may read, Gitea's
// filters, orders and paging headers, and the `{ok, data}` wrapper of the search.
const test = suite('gitea: repository search and lists');
const ctx = useGitea(test);

let alice: Account;
let bob: Account;
const ids: Record<string, number> = {};

const names = (r: { body: any }) => (Array.isArray(r.body) ? r.body : r.body.data).map((x: any) => x.full_name);
const search = (query: string, auth?: Account['auth']) => ctx.g.api('GET', `/api/v1/repos/search${query ? `?${query}` : ''}`, auth === undefined ? {} : { auth });

test.before(async () => {
  const g = ctx.g;
  alice = await g.user('alice');
  bob = await g.user('bob');
  // Made in this order, so ids ascend: root/zeta, root/beta-priv, alice/gamma, alice/delta, bob/epsilon, bob/Alpha.
  for (const [name, owner, priv] of [['zeta', g.admin, false], ['beta-priv', g.admin, true], ['gamma', alice, false], ['delta', alice, true], ['epsilon', bob, false], ['Alpha', bob, false]] as const) {
    const r = await g.repo(name, { owner, private: priv });
    ids[`${owner.name}/${name}`] = r.id;
  }
  const d = await g.api('PATCH', '/api/v1/repos/alice/gamma', { json: { description: 'The Docs site' }, auth: alice.auth });
  assert.is(d.status, 200, d.text);
  await addCollaborator(g, alice, 'delta', bob, 'read');
});

test('anonymous: public repositories only, alphabetical by owner then name, wrapped in {ok, data} with paging headers', async () => {
  const r = await search('', null);
  assert.is(r.status, 200, r.text);
  assert.equal(Object.keys(r.body), ['ok', 'data']);
  assert.is(r.body.ok, true);
  assert.equal(names(r), ['alice/gamma', 'bob/Alpha', 'bob/epsilon', 'root/zeta']);
  assert.is(r.headers.get('x-total-count'), '4');
  assert.is(r.headers.get('link'), null);
  // Each entry is the full Repository, as GET /repos/{o}/{r} answers it to this caller.
  const one = await ctx.g.api('GET', '/api/v1/repos/alice/gamma', { auth: null });
  assert.equal(r.body.data[0], one.body);
});

test('signed in: private repositories the caller may read are included unless private=false; an admin sees all', async () => {
  assert.equal(names(await search('', bob.auth)), ['alice/delta', 'alice/gamma', 'bob/Alpha', 'bob/epsilon', 'root/zeta']);
  assert.equal(names(await search('private=false', bob.auth)), ['alice/gamma', 'bob/Alpha', 'bob/epsilon', 'root/zeta']);
  assert.equal(names(await search('')), ['alice/delta', 'alice/gamma', 'bob/Alpha', 'bob/epsilon', 'root/beta-priv', 'root/zeta']);
  assert.equal(names(await search('is_private=true')), ['alice/delta', 'root/beta-priv']);
  assert.equal(names(await search('is_private=false&q=a')), ['alice/gamma', 'bob/Alpha', 'root/zeta']);
  // A public-only token finds public repositories only, whatever its owner may read.
  const pub = await ctx.g.token(bob, ['public-only', 'read:repository']);
  assert.equal(names(await search('', { token: pub })), ['alice/gamma', 'bob/Alpha', 'bob/epsilon', 'root/zeta']);
});

test('q: case-insensitive substrings of the name, comma-separated alternatives, owner/name, descriptions with includeDesc', async () => {
  assert.equal(names(await search('q=ALPHA', null)), ['bob/Alpha']);
  assert.equal(names(await search('q=eta,amm', null)), ['alice/gamma', 'root/zeta']);
  assert.equal(names(await search('q=bo/eps', null)), ['bob/epsilon']);
  assert.equal(names(await search('q=docs', null)), []);
  assert.equal(names(await search('q=docs&includeDesc=true', null)), ['alice/gamma']);
  // Topics: none here, so a topic search finds nothing.
  assert.equal(names(await search('q=gamma&topic=true', null)), []);
  const many = Array.from({ length: 33 }, (_, i) => `t${i}`).join(',');
  await expectJsonError(ctx.g, search(`q=${many}`, null), 422, 'q holds 33 comma-separated terms; at most 32 are searched');
});

test('uid, exclusive and mode: owned and shared, owned only, shared only; sources, mirrors and forks', async () => {
  const bobId = (await ctx.g.api('GET', '/api/v1/users/bob', { auth: null })).body.id;
  assert.equal(names(await search(`uid=${bobId}`, bob.auth)), ['alice/delta', 'bob/Alpha', 'bob/epsilon']);
  assert.equal(names(await search(`uid=${bobId}&exclusive=true`, bob.auth)), ['bob/Alpha', 'bob/epsilon']);
  assert.equal(names(await search(`uid=${bobId}&mode=collaborative`, bob.auth)), ['alice/delta']);
  // Someone else asking about bob sees only what they may read themselves.
  assert.equal(names(await search(`uid=${bobId}`, null)), ['bob/Alpha', 'bob/epsilon']);
  sqlWrite(ctx.g, 'UPDATE repositories SET is_mirror = 1 WHERE id = ?', ids['bob/epsilon']);
  try {
    assert.equal(names(await search('mode=mirror', null)), ['bob/epsilon']);
    assert.equal(names(await search('mode=source', null)), ['alice/gamma', 'bob/Alpha', 'root/zeta']);
  } finally {
    sqlWrite(ctx.g, 'UPDATE repositories SET is_mirror = 0 WHERE id = ?', ids['bob/epsilon']);
  }
  assert.equal(names(await search('mode=fork', null)), []);
  await expectJsonError(ctx.g, search('mode=forks', null), 422, 'Invalid search mode: "forks"');
});

test('archived and template filters', async () => {
  const r = await ctx.g.api('PATCH', '/api/v1/repos/bob/Alpha', { json: { archived: true, template: true }, auth: bob.auth });
  assert.is(r.status, 200, r.text);
  try {
    assert.equal(names(await search('archived=true', null)), ['bob/Alpha']);
    assert.equal(names(await search('archived=false', null)), ['alice/gamma', 'bob/epsilon', 'root/zeta']);
    assert.equal(names(await search('template=true', null)), ['bob/Alpha']);
    assert.equal(names(await search('template=false&archived=false', null)), ['alice/gamma', 'bob/epsilon', 'root/zeta']);
  } finally {
    await ctx.g.api('PATCH', '/api/v1/repos/bob/Alpha', { json: { archived: false, template: false }, auth: bob.auth });
  }
});

test('sort and order: id, created, alpha desc, priority owner first; bad values are 422 with Gitea\'s texts', async () => {
  assert.equal(names(await search('sort=id', null)), ['root/zeta', 'alice/gamma', 'bob/epsilon', 'bob/Alpha']);
  assert.equal(names(await search('sort=id&order=desc', null)), ['bob/Alpha', 'bob/epsilon', 'alice/gamma', 'root/zeta']);
  assert.equal(names(await search('sort=alpha&order=desc', null)), ['root/zeta', 'bob/epsilon', 'bob/Alpha', 'alice/gamma']);
  // order without sort is ignored.
  assert.equal(names(await search('order=desc', null)), ['alice/gamma', 'bob/Alpha', 'bob/epsilon', 'root/zeta']);
  // Equal stars (none here) keep id order.
  assert.equal(names(await search('sort=stars', null)), ['root/zeta', 'alice/gamma', 'bob/epsilon', 'bob/Alpha']);
  const bobId = (await ctx.g.api('GET', '/api/v1/users/bob', { auth: null })).body.id;
  // The priority owner first, then the others grouped by owner id (root 1, alice 2), each group in the requested order.
  assert.equal(names(await search(`priority_owner_id=${bobId}`, null)), ['bob/Alpha', 'bob/epsilon', 'root/zeta', 'alice/gamma']);
  await expectJsonError(ctx.g, search('sort=name', null), 422, 'Invalid sort mode: "name"');
  await expectJsonError(ctx.g, search('sort=id&order=up', null), 422, 'Invalid sort order: "up"');
});

test('paging: limit and page, X-Total-Count and Gitea\'s Link header', async () => {
  const g = ctx.g;
  const r = await search('limit=1&page=2&sort=id', null);
  assert.equal(names(r), ['alice/gamma']);
  assert.is(r.headers.get('x-total-count'), '4');
  const base = `${g.url}/api/v1/repos/search?limit=1`;
  assert.is(r.headers.get('link'), `<${base}&page=3&sort=id>; rel="next",<${base}&page=4&sort=id>; rel="last",<${base}&page=1&sort=id>; rel="first",<${base}&page=1&sort=id>; rel="prev"`);
  assert.is(r.headers.get('access-control-expose-headers'), 'Link, X-Total-Count');
});

test('GET /user/repos: what the signed-in user owns and collaborates on; needs a signed-in caller', async () => {
  const r = await ctx.g.api('GET', '/api/v1/user/repos', { auth: bob.auth });
  assert.is(r.status, 200, r.text);
  assert.equal(names(r), ['alice/delta', 'bob/Alpha', 'bob/epsilon']);
  assert.is(r.headers.get('x-total-count'), '3');
  assert.equal(r.body[0].permissions, { admin: false, push: false, pull: true });
  const p = await ctx.g.api('GET', '/api/v1/user/repos?limit=2&page=2', { auth: bob.auth });
  assert.equal(names(p), ['bob/epsilon']);
  await expectJsonError(ctx.g, ctx.g.api('GET', '/api/v1/user/repos', { auth: null }), 401, 'token is required');
});

test('GET /users/{u}/repos: the user\'s own repositories the caller may read, oldest first', async () => {
  const g = ctx.g;
  assert.equal(names(await g.api('GET', '/api/v1/users/alice/repos', { auth: null })), ['alice/gamma']);
  assert.equal(names(await g.api('GET', '/api/v1/users/alice/repos', { auth: bob.auth })), ['alice/gamma', 'alice/delta']);
  const own = await g.api('GET', '/api/v1/users/alice/repos', { auth: alice.auth });
  assert.equal(names(own), ['alice/gamma', 'alice/delta']);
  assert.is(own.headers.get('x-total-count'), '2');
  const strangers = await g.api('GET', '/api/v1/users/root/repos', { auth: bob.auth });
  assert.equal(names(strangers), ['root/zeta']);
  assert.is(strangers.headers.get('x-total-count'), '1');
  assert.equal(names(await g.api('GET', '/api/v1/users/root/repos')), ['root/zeta', 'root/beta-priv']);
  await expectJsonError(g, g.api('GET', '/api/v1/users/nobody/repos', { auth: null }), 404, 'user does not exist [uid: 0, name: nobody]');
});

test('gitea-js: repoSearch, userCurrentListRepos and userListRepos', async () => {
  const api = giteaApi(`${ctx.g.url}/`, { token: bob.token });
  const s = await api.repos.repoSearch({ q: 'a', sort: 'id', limit: 2 });
  assert.is(s.status, 200);
  assert.is(s.data.ok, true);
  assert.equal(s.data.data!.map((x) => x.full_name), ['root/zeta', 'alice/gamma']);
  assert.is(s.headers.get('x-total-count'), '4');
  const mine = await api.user.userCurrentListRepos();
  assert.equal(mine.data.map((x) => x.full_name), ['alice/delta', 'bob/Alpha', 'bob/epsilon']);
  const hers = await api.users.userListRepos('alice');
  assert.equal(hers.data.map((x) => x.full_name), ['alice/gamma', 'alice/delta']);
});

test.run();
