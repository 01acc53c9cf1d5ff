import { giteaApi } from 'gitea-js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expectJsonError } from '../_helpers/api-error.js';
import { type Account, addCollaborator, git, gitDirOf, sqlWrite, useGitea } from '../_helpers/gitea.js';

// GET/POST /repos/{o}/{r}/tags and GET/DELETE …/tags/{tag}: annotated tags when a message is
// given, lightweight otherwise; Gitea's Tag JSON, its order (newest tagger time first) and its
// paging (all tags unless a page is asked for); its refusals with their texts.
const test = suite('gitea: tags');
const ctx = useGitea(test);

let reader: Account;
let dir = '';
let head = '';
let older = '';

const api = () => `${ctx.g.url}/api/v1/repos/root/tagged`;
const html = () => `${ctx.g.url}/root/tagged`;
const create = (json: unknown, auth?: Account['auth']) => ctx.g.api('POST', '/api/v1/repos/root/tagged/tags', { json, ...(auth === undefined ? {} : { auth }) });
const revParse = (ref: string) => git(['--git-dir', dir, 'rev-parse', '--verify', '--quiet', ref], { allowFail: true }).stdout.trim();
/** The committer time of a commit as Go renders it (`Z` for UTC). */
const committed = (sha: string) => git(['--git-dir', dir, 'log', '-1', '--format=%cI', sha]).stdout.trim().replace(/\+00:00$/, 'Z');

/** A commit with fixed dates through the contents API (so tag order does not depend on the clock). */
async function commitAt(path: string, date: string): Promise<string> {
  const r = await ctx.g.api('POST', '/api/v1/repos/root/tagged/contents', {
    json: { files: [{ operation: 'create', path, content: Buffer.from(path).toString('base64') }], message: `add ${path}\n\nbody\n`, dates: { author: date, committer: date } },
  });
  assert.is(r.status, 201, r.text);
  return r.body.commit.sha;
}

test.before(async () => {
  const g = ctx.g;
  reader = await g.user('rita');
  const repo = await g.repo('tagged');
  dir = gitDirOf(g, repo.id);
  older = await commitAt('old.txt', '2020-01-02T03:04:05Z');
  head = await commitAt('new.txt', '2021-01-02T03:04:05Z');
  await addCollaborator(g, g.admin, 'tagged', reader, 'read');
});

test('no tags: an empty list with X-Total-Count 0', async () => {
  const r = await ctx.g.api('GET', '/api/v1/repos/root/tagged/tags');
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, []);
  assert.is(r.headers.get('x-total-count'), '0');
  assert.is(r.headers.get('link'), null);
});

test('lightweight: no message tags the default branch head; the commit\'s id, message and time', async () => {
  const r = await create({ tag_name: 'v1' });
  assert.is(r.status, 201, r.text);
  assert.equal(r.body, {
    name: 'v1',
    message: 'add new.txt\n\nbody',
    id: head,
    commit: { url: `${api()}/git/commits/${head}`, sha: head, created: '2021-01-02T03:04:05Z' },
    zipball_url: `${html()}/archive/v1.zip`,
    tarball_url: `${html()}/archive/v1.tar.gz`,
  });
  assert.is(git(['--git-dir', dir, 'cat-file', '-t', 'refs/tags/v1']).stdout.trim(), 'commit');
  assert.is(revParse('refs/tags/v1'), head);
});

test('annotated: a message makes a tag object, tagged by the caller, with the message as git tag -m keeps it', async () => {
  const r = await create({ tag_name: 'release/2', target: older, message: '\nRelease two  \n\n\n# a comment line\nnotes\n\n' });
  assert.is(r.status, 201, r.text);
  const id = revParse('refs/tags/release/2');
  assert.is.not(id, older);
  assert.is(git(['--git-dir', dir, 'cat-file', '-t', id]).stdout.trim(), 'tag');
  const raw = git(['--git-dir', dir, 'cat-file', '-p', id]).stdout;
  const email: string = (await ctx.g.api('GET', '/api/v1/user')).body.email;
  assert.match(raw, new RegExp(`^object ${older}\ntype commit\ntag release/2\ntagger root <${email.replace('.', '\\.')}> \\d+ \\+0000\n\nRelease two\n\nnotes\n$`));
  const tagger = Number(/> (\d+) \+0000/.exec(raw)![1]);
  assert.equal(r.body, {
    name: 'release/2',
    message: 'Release two\n\nnotes',
    id,
    // Gitea puts the tag's own id in this URL.
    commit: { url: `${api()}/git/commits/${id}`, sha: older, created: new Date(tagger * 1000).toISOString().replace('.000Z', 'Z') },
    zipball_url: `${html()}/archive/release/2.zip`,
    tarball_url: `${html()}/archive/release/2.tar.gz`,
  });
  const got = await ctx.g.api('GET', '/api/v1/repos/root/tagged/tags/release/2');
  assert.is(got.status, 200);
  assert.equal(got.body, r.body);
});

test('the list: newest tagger time first; all tags without page, a page of limit with it; no Link header', async () => {
  const g = ctx.g;
  // An abbreviated commit id is a target too.
  assert.is((await create({ tag_name: 'v0', target: older.slice(0, 8) })).status, 201);
  const all = await g.api('GET', '/api/v1/repos/root/tagged/tags?limit=1');
  assert.is(all.status, 200);
  // release/2 was tagged now; v1 tags a 2021 commit, v0 a 2020 one.
  assert.equal(all.body.map((t: any) => t.name), ['release/2', 'v1', 'v0']);
  assert.is(all.headers.get('x-total-count'), '3');
  assert.equal(all.body[2].commit, { url: `${api()}/git/commits/${older}`, sha: older, created: committed(older) });
  const p2 = await g.api('GET', '/api/v1/repos/root/tagged/tags?page=2&limit=2');
  assert.equal(p2.body.map((t: any) => t.name), ['v0']);
  assert.is(p2.headers.get('x-total-count'), '3');
  assert.is(p2.headers.get('link'), null);
  assert.is(p2.headers.get('access-control-expose-headers'), 'X-Total-Count');
});

test('refusals: an existing name 409, an unknown target 404, bad names 422, unknown tags 404', async () => {
  const g = ctx.g;
  await expectJsonError(g, create({ tag_name: 'v1', target: older }), 409, 'tag already exists [name: v1]');
  await expectJsonError(g, create({ tag_name: 'v9', target: 'nope' }), 404, 'target not found: object does not exist [id: nope, rel_path: ]');
  await expectJsonError(g, create({ tag_name: 'v9', target: 'abcdef12' }), 404, 'target not found: object does not exist [id: abcdef12, rel_path: ]');
  await expectJsonError(g, create({ message: 'x' }), 422, '[TagName]: Required');
  await expectJsonError(g, create({ tag_name: 'bad..name' }), 422, '[TagName]: GitRefName');
  await expectJsonError(g, g.api('GET', '/api/v1/repos/root/tagged/tags/nope'), 404, 'nope');
  await expectJsonError(g, g.api('GET', '/api/v1/repos/root/tagged/tags/bad..name'), 404, 'bad..name');
  // A branch cannot take a tag's name either.
  await expectJsonError(g, g.api('POST', '/api/v1/repos/root/tagged/branches', { json: { new_branch_name: 'v1' } }), 409, 'The branch with the same tag already exists.');
  assert.is(revParse('refs/tags/v9'), '');
});

test('who may: readers read but cannot write (403), anonymous writes 401, archived 423, a pull mirror 403', async () => {
  const g = ctx.g;
  assert.is((await g.api('GET', '/api/v1/repos/root/tagged/tags/v1', { auth: reader.auth })).status, 200);
  await expectJsonError(g, create({ tag_name: 'r1' }, reader.auth), 403, 'user should have a permission to write to a repo');
  await expectJsonError(g, g.api('DELETE', '/api/v1/repos/root/tagged/tags/v1', { auth: reader.auth }), 403, 'user should have a permission to write to a repo');
  await expectJsonError(g, create({ tag_name: 'r1' }, null), 401, 'token is required');
  const old = await g.repo('old-tags');
  assert.is((await g.api('PATCH', '/api/v1/repos/root/old-tags', { json: { archived: true } })).status, 200);
  await expectJsonError(g, g.api('POST', '/api/v1/repos/root/old-tags/tags', { json: { tag_name: 'a' } }), 423, 'repo is archived');
  await expectJsonError(g, g.api('DELETE', '/api/v1/repos/root/old-tags/tags/a'), 423, 'repo is archived');
  assert.ok(old.id);
  const m = await g.repo('mirror-tags');
  sqlWrite(g, 'UPDATE repositories SET is_mirror = 1 WHERE id = ?', m.id);
  await expectJsonError(g, g.api('POST', '/api/v1/repos/root/mirror-tags/tags', { json: { tag_name: 'a' } }), 403, 'Git Repository is a mirror.');
});

test('delete: 204 and the ref is gone (lightweight and annotated); again 404', async () => {
  const g = ctx.g;
  for (const name of ['v0', 'release/2']) {
    const r = await g.api('DELETE', `/api/v1/repos/root/tagged/tags/${name}`);
    assert.is(r.status, 204, r.text);
    assert.is(revParse(`refs/tags/${name}`), '');
    await expectJsonError(g, g.api('GET', `/api/v1/repos/root/tagged/tags/${name}`), 404, name);
  }
  await expectJsonError(g, g.api('DELETE', '/api/v1/repos/root/tagged/tags/v0'), 404, 'not found');
  assert.equal((await g.api('GET', '/api/v1/repos/root/tagged/tags')).body.map((t: any) => t.name), ['v1']);
});

test('gitea-js: repoCreateTag, repoGetTag, repoListTags, repoDeleteTag', async () => {
  const js = giteaApi(`${ctx.g.url}/`, { token: ctx.g.admin.token });
  const made = await js.repos.repoCreateTag('root', 'tagged', { tag_name: 'js-1', message: 'from js', target: 'main' });
  assert.is(made.status, 201);
  assert.is(made.data.message, 'from js');
  assert.is(made.data.commit!.sha, head);
  assert.equal((await js.repos.repoGetTag('root', 'tagged', 'js-1')).data, made.data);
  assert.equal((await js.repos.repoListTags('root', 'tagged')).data.map((t) => t.name), ['js-1', 'v1']);
  assert.is((await js.repos.repoDeleteTag('root', 'tagged', 'js-1')).status, 204);
});

test.run();
