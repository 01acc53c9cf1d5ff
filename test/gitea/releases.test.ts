import { giteaApi } from 'gitea-js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GO_TIME } from '../../protocol/gitea/schema.js';
import { expectJsonError } from '../_helpers/api-error.js';
import { type Account, addCollaborator, cloneUrl, git, gitAsync, gitDirOf, sqlWrite, useGitea } from '../_helpers/gitea.js';
import { tempDirs } from '../_helpers/temp-dir.js';

// /repos/{o}/{r}/releases: Gitea's Release JSON and order, drafts for writers only, the tag a
// published release makes (and a draft does not), removal that keeps the tag, the tags API's
// refusal to drop a tag a release is attached to, releases following git (a tag removed by a push
// leaves its release a draft), and Gitea's refusals with their texts.
const test = suite('gitea: releases');
const ctx = useGitea(test);
const freshDir = tempDirs(test, 'releases');

let writer: Account;
let reader: Account;
let dir = '';
let head = '';
let older = '';

const base = '/api/v1/repos/root/rel';
const api = () => `${ctx.g.url}${base}`;
const html = () => `${ctx.g.url}/root/rel`;
const post = (json: unknown, auth?: Account['auth']) => ctx.g.api('POST', `${base}/releases`, { json, ...(auth === undefined ? {} : { auth }) });
const revParse = (ref: string) => git(['--git-dir', dir, 'rev-parse', '--verify', '--quiet', ref], { allowFail: true }).stdout.trim();
const goNow = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000', '');

/** A commit with fixed dates through the contents API (so times do not depend on the clock). */
async function commitAt(path: string, date: string): Promise<string> {
  const r = await ctx.g.api('POST', `${base}/contents`, {
    json: { files: [{ operation: 'create', path, content: Buffer.from(path).toString('base64') }], message: `add ${path}`, dates: { author: date, committer: date } },
  });
  assert.is(r.status, 201, r.text);
  return r.body.commit.sha;
}

/** The admin as anonymous callers see it: how Gitea shows a release's author to everyone. */
const me = async () => (await ctx.g.api('GET', '/api/v1/users/root', { auth: null })).body;

test.before(async () => {
  const g = ctx.g;
  [writer, reader] = [await g.user('wendy'), await g.user('rita')];
  const repo = await g.repo('rel');
  dir = gitDirOf(g, repo.id);
  older = await commitAt('old.txt', '2020-01-02T03:04:05Z');
  head = await commitAt('new.txt', '2021-01-02T03:04:05Z');
  await addCollaborator(g, g.admin, 'rel', writer, 'write');
  await addCollaborator(g, g.admin, 'rel', reader, 'read');
});

test('no releases: an empty list, latest 404, and the repository says it has releases (none counted)', async () => {
  const r = await ctx.g.api('GET', `${base}/releases`);
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, []);
  assert.is(r.headers.get('x-total-count'), '0');
  await expectJsonError(ctx.g, ctx.g.api('GET', `${base}/releases/latest`), 404, 'not found');
  const repo = (await ctx.g.api('GET', base)).body;
  assert.is(repo.has_releases, true);
  assert.is(repo.release_counter, 0);
});

test('publishing makes a lightweight tag at the default branch\'s head; Gitea\'s Release JSON', async () => {
  const before = goNow();
  const r = await post({ tag_name: 'v1.0.0', name: 'First', body: 'Notes <b>one</b>' });
  assert.is(r.status, 201, r.text);
  const id = r.body.id;
  assert.match(r.body.created_at, GO_TIME);
  assert.ok(r.body.created_at >= before, `${r.body.created_at} >= ${before}`);
  assert.equal(r.body, {
    id,
    tag_name: 'v1.0.0',
    target_commitish: 'main',
    name: 'First',
    body: 'Notes <b>one</b>',
    url: `${api()}/releases/${id}`,
    html_url: `${html()}/releases/tag/v1.0.0`,
    tarball_url: `${html()}/archive/v1.0.0.tar.gz`,
    zipball_url: `${html()}/archive/v1.0.0.zip`,
    upload_url: `${api()}/releases/${id}/assets`,
    draft: false,
    prerelease: false,
    created_at: r.body.created_at,
    published_at: r.body.created_at,
    author: await me(),
    assets: [],
  });
  assert.is(r.body.author.email, `root@noreply.${new URL(ctx.g.url).hostname}`, 'the author as anonymous callers see it');
  assert.is(git(['--git-dir', dir, 'cat-file', '-t', 'refs/tags/v1.0.0']).stdout.trim(), 'commit');
  assert.is(revParse('refs/tags/v1.0.0'), head);
  // The same release by id, by tag (any case), as the newest, and in the list.
  for (const path of [`/releases/${id}`, '/releases/tags/v1.0.0', '/releases/tags/V1.0.0', '/releases/latest']) {
    const got = await ctx.g.api('GET', `${base}${path}`);
    assert.is(got.status, 200, `${path}: ${got.text}`);
    assert.equal(got.body, r.body, path);
  }
  assert.equal((await ctx.g.api('GET', `${base}/releases`)).body, [r.body]);
  assert.equal((await ctx.g.api('GET', `${base}/releases/${id}/assets`)).body, []);
  assert.is((await ctx.g.api('GET', base)).body.release_counter, 1);
  // The tag is an ordinary tag of the tags API.
  assert.is((await ctx.g.api('GET', `${base}/tags/v1.0.0`)).body.id, head);
});

test('tag_message makes an annotated tag of target_commitish, tagged by the caller', async () => {
  const r = await post({ tag_name: 'v0.9', target_commitish: older, tag_message: 'Nine\n', prerelease: true }, writer.auth);
  assert.is(r.status, 201, r.text);
  assert.is(r.body.target_commitish, older);
  assert.is(r.body.prerelease, true);
  assert.is(r.body.author.login, 'wendy');
  const id = revParse('refs/tags/v0.9');
  assert.is(git(['--git-dir', dir, 'cat-file', '-t', id]).stdout.trim(), 'tag');
  assert.match(git(['--git-dir', dir, 'cat-file', '-p', id]).stdout, new RegExp(`^object ${older}\ntype commit\ntag v0.9\ntagger wendy <wendy@example.com> \\d+ \\+0000\n\nNine\n$`));
  // A pre-release is counted but never the latest.
  assert.is((await ctx.g.api('GET', base)).body.release_counter, 2);
  assert.is((await ctx.g.api('GET', `${base}/releases/latest`)).body.tag_name, 'v1.0.0');
});

test('a release for a tag that exists takes the tag as it is: target as given, created at the tag\'s time', async () => {
  const t = await ctx.g.api('POST', `${base}/tags`, { json: { tag_name: 'old-tag', target: older } });
  assert.is(t.status, 201, t.text);
  const before = goNow();
  const r = await post({ tag_name: 'old-tag', name: 'From an old tag' });
  assert.is(r.status, 201, r.text);
  assert.is(r.body.target_commitish, '');
  assert.is(r.body.created_at, '2020-01-02T03:04:05Z');
  assert.ok(r.body.published_at >= before, `${r.body.published_at} >= ${before}`);
  assert.is(revParse('refs/tags/old-tag'), older);
  // Ordered by creation: the old tag's release is last.
  const list = (await ctx.g.api('GET', `${base}/releases`)).body.map((x: { tag_name: string }) => x.tag_name);
  assert.equal(list.at(-1), 'old-tag');
});

test('a draft makes no tag, has no published_at, and is seen by writers and its publisher only', async () => {
  const r = await post({ tag_name: 'v2-draft', name: 'Soon', draft: true }, writer.auth);
  assert.is(r.status, 201, r.text);
  assert.is(r.body.draft, true);
  assert.is(r.body.published_at, null);
  assert.match(r.text, '"published_at":null');
  assert.is(revParse('refs/tags/v2-draft'), '');
  const id = r.body.id;
  for (const auth of [reader.auth, null]) {
    await expectJsonError(ctx.g, ctx.g.api('GET', `${base}/releases/${id}`, { auth }), 404, 'not found');
    await expectJsonError(ctx.g, ctx.g.api('GET', `${base}/releases/tags/v2-draft`, { auth }), 404, 'not found');
    await expectJsonError(ctx.g, ctx.g.api('GET', `${base}/releases/${id}/assets`, { auth }), 404, 'not found');
    const list = await ctx.g.api('GET', `${base}/releases?draft=true`, { auth });
    assert.equal(list.body, []);
    assert.is(list.headers.get('x-total-count'), '0');
  }
  assert.is((await ctx.g.api('GET', `${base}/releases/${id}`)).status, 200);
  assert.is((await ctx.g.api('GET', `${base}/releases/${id}`, { auth: writer.auth })).status, 200);
  const drafts = await ctx.g.api('GET', `${base}/releases?draft=true`, { auth: writer.auth });
  assert.equal(drafts.body.map((x: { id: number }) => x.id), [id]);
  // A writer's read-only token lists no drafts (as Gitea), yet may still open one.
  const readOnly = await ctx.g.token(writer, ['read:repository']);
  assert.equal((await ctx.g.api('GET', `${base}/releases?draft=true`, { auth: { token: readOnly } })).body, []);
  assert.is((await ctx.g.api('GET', `${base}/releases/${id}`, { auth: { token: readOnly } })).status, 200);
  // Drafts are not counted and never the latest.
  assert.is((await ctx.g.api('GET', base)).body.release_counter, 3);
  assert.is((await ctx.g.api('GET', `${base}/releases/latest`)).body.tag_name, 'v1.0.0');
});

test('filters and pages: draft, pre-release, limit and page with X-Total-Count and Link', async () => {
  const names = async (q: string) => (await ctx.g.api('GET', `${base}/releases${q}`)).body.map((x: { tag_name: string }) => x.tag_name);
  assert.equal(await names(''), ['v2-draft', 'v0.9', 'v1.0.0', 'old-tag']);
  assert.equal(await names('?draft=false'), ['v0.9', 'v1.0.0', 'old-tag']);
  assert.equal(await names('?pre-release=true'), ['v0.9']);
  assert.equal(await names('?draft=false&pre-release=false'), ['v1.0.0', 'old-tag']);
  assert.equal(await names('?draft=true&pre-release=true'), []);
  const p = await ctx.g.api('GET', `${base}/releases?limit=2&page=2`);
  assert.equal(p.body.map((x: { tag_name: string }) => x.tag_name), ['v1.0.0', 'old-tag']);
  assert.is(p.headers.get('x-total-count'), '4');
  assert.is(p.headers.get('link'), `<${api()}/releases?limit=2&page=1>; rel="first",<${api()}/releases?limit=2&page=1>; rel="prev"`);
  assert.equal((await ctx.g.api('GET', `${base}/releases?limit=2&page=99999999999999999999`)).body, []);
});

test('refusals: Gitea\'s statuses and texts, and nothing written', async () => {
  const g = ctx.g;
  const count = () => (g.t.server.db.prepare('SELECT count(*) AS n FROM releases').get() as { n: number }).n;
  const before = count();
  await expectJsonError(g, post({}), 422, '[TagName]: Required');
  await expectJsonError(g, post({ tag_name: 'v1.0.0' }), 409, 'Release is has no Tag');
  await expectJsonError(g, post({ tag_name: 'V1.0.0' }), 409, 'Release is has no Tag');
  await expectJsonError(g, post({ tag_name: 'bad..name' }), 422, 'release tag name is not valid [tag_name: bad..name]');
  await expectJsonError(g, post({ tag_name: 'x'.repeat(256) }), 422, `release tag name is not valid [tag_name: ${'x'.repeat(256)}]`);
  await expectJsonError(g, post({ tag_name: 'nowhere', target_commitish: 'no-such-branch' }), 404, 'target "no-such-branch" not found: object does not exist [id: no-such-branch, rel_path: ]');
  await expectJsonError(g, post({ tag_name: 'big', body: 'x'.repeat(1024 * 1024 + 1) }), 422, '[Note]: MaxSize');
  await expectJsonError(g, post({ tag_name: 'v9' }, reader.auth), 403, 'user should have a permission to write to a repo');
  await expectJsonError(g, post({ tag_name: 'v9' }, null), 401, 'token is required');
  await expectJsonError(g, g.api('GET', `${base}/releases/999999`), 404, 'not found');
  await expectJsonError(g, g.api('GET', `${base}/releases/abc`), 404, 'not found');
  await expectJsonError(g, g.api('PATCH', `${base}/releases/999999`, { json: { name: 'x' } }), 404, 'not found');
  await expectJsonError(g, g.api('DELETE', `${base}/releases/999999`), 404, 'not found');
  await expectJsonError(g, g.api('DELETE', `${base}/releases/tags/nope`), 404, 'not found');
  assert.is(revParse('refs/tags/nowhere'), '');
  // An empty repository has nothing to tag.
  await g.repo('bare', { autoInit: false });
  await expectJsonError(g, g.api('POST', '/api/v1/repos/root/bare/releases', { json: { tag_name: 'v1' } }), 422, 'repo is empty');
  assert.is(count(), before);
});

test('the tags API keeps a release\'s tag: deleting it is 409, and a draft\'s name cannot be taken by a new tag', async () => {
  await expectJsonError(ctx.g, ctx.g.api('DELETE', `${base}/tags/v1.0.0`), 409, 'a tag attached to a release cannot be deleted directly');
  assert.is(revParse('refs/tags/v1.0.0'), head);
  await expectJsonError(ctx.g, ctx.g.api('POST', `${base}/tags`, { json: { tag_name: 'v2-draft' } }), 409, 'tag already exists [name: v2-draft]');
  assert.is(revParse('refs/tags/v2-draft'), '');
});

test('edit: fields given replace, empty ones stay; publishing a draft makes its tag and sets published_at; an edit keeps it', async () => {
  const g = ctx.g;
  const draft = (await g.api('GET', `${base}/releases/tags/v2-draft`)).body;
  const before = goNow();
  const pub = await g.api('PATCH', `${base}/releases/${draft.id}`, { json: { draft: false, target_commitish: older, name: '', body: 'Now out' }, auth: writer.auth });
  assert.is(pub.status, 200, pub.text);
  assert.is(pub.body.draft, false);
  assert.is(pub.body.name, 'Soon');
  assert.is(pub.body.body, 'Now out');
  assert.is(pub.body.target_commitish, older);
  assert.ok(pub.body.published_at >= before);
  assert.is(revParse('refs/tags/v2-draft'), older);
  const edited = await g.api('PATCH', `${base}/releases/${draft.id}`, { json: { name: 'Out', prerelease: true } });
  assert.is(edited.status, 200, edited.text);
  assert.is(edited.body.name, 'Out');
  assert.is(edited.body.prerelease, true);
  assert.is(edited.body.published_at, pub.body.published_at);
  assert.is(edited.body.author.login, 'wendy', 'an edit keeps the publisher');
  // Another release's tag name is taken; a long title is cut to 255 characters.
  await expectJsonError(g, g.api('PATCH', `${base}/releases/${draft.id}`, { json: { tag_name: 'V1.0.0' } }), 409, 'release tag already exist [tag_name: V1.0.0]');
  const long = await g.api('PATCH', `${base}/releases/${draft.id}`, { json: { name: 'n'.repeat(300) } });
  assert.is(long.body.name, `${'n'.repeat(254)}…`);
  assert.is(edited.body.created_at, pub.body.created_at);
});

test('delete by id or by tag: the release goes, its tag stays (and can then be deleted)', async () => {
  const g = ctx.g;
  const rel = (await g.api('GET', `${base}/releases/tags/old-tag`)).body;
  const r = await g.api('DELETE', `${base}/releases/${rel.id}`, { auth: writer.auth });
  assert.is(r.status, 204, r.text);
  assert.is(r.text, '');
  await expectJsonError(g, g.api('GET', `${base}/releases/${rel.id}`), 404, 'not found');
  assert.is(revParse('refs/tags/old-tag'), older);
  assert.is((await g.api('DELETE', `${base}/releases/tags/V0.9`)).status, 204);
  await expectJsonError(g, g.api('DELETE', `${base}/releases/tags/v0.9`), 404, 'not found');
  assert.ok(revParse('refs/tags/v0.9'));
  assert.is((await g.api('DELETE', `${base}/tags/v0.9`)).status, 204);
});

test('a tag removed by a push leaves its release a draft; pushed back, the release can be published again', async () => {
  const g = ctx.g;
  const made = await post({ tag_name: 'pushy', name: 'Pushy' });
  assert.is(made.status, 201, made.text);
  const work = freshDir();
  await gitAsync(['clone', '-q', cloneUrl(g, 'root', 'rel', g.admin), work]);
  await gitAsync(['push', '-q', 'origin', ':refs/tags/pushy'], { cwd: work });
  assert.is(revParse('refs/tags/pushy'), '');
  const after = (await g.api('GET', `${base}/releases/${made.body.id}`)).body;
  assert.is(after.draft, true);
  assert.is(after.published_at, null);
  assert.is((await g.api('GET', `${base}/releases/${made.body.id}`, { auth: reader.auth })).status, 404);
  const sha1 = () => (g.t.server.db.prepare('SELECT sha1 FROM releases WHERE id = ?').get(made.body.id) as { sha1: string }).sha1;
  assert.is(sha1(), '');
  // The tag comes back at another commit: the release records it, and publishing does not move it.
  git(['tag', '-f', 'pushy', older], { cwd: work });
  await gitAsync(['push', '-q', 'origin', 'refs/tags/pushy'], { cwd: work });
  assert.is(sha1(), older);
  const pub = await g.api('PATCH', `${base}/releases/${made.body.id}`, { json: { draft: false } });
  assert.is(pub.status, 200, pub.text);
  assert.is(revParse('refs/tags/pushy'), older);
});

test('guards: an archived repository refuses release writes (423); a pull mirror refuses a new tag (403)', async () => {
  const g = ctx.g;
  await g.repo('frozen');
  assert.is((await g.api('PATCH', '/api/v1/repos/root/frozen', { json: { archived: true } })).status, 200);
  await expectJsonError(g, g.api('POST', '/api/v1/repos/root/frozen/releases', { json: { tag_name: 'v1' } }), 423, 'repo is archived');
  const m = await g.repo('mirrored');
  sqlWrite(g, 'UPDATE repositories SET is_mirror = 1 WHERE id = ?', m.id);
  await expectJsonError(g, g.api('POST', '/api/v1/repos/root/mirrored/releases', { json: { tag_name: 'v1' } }), 403, 'Git Repository is a mirror.');
  // A draft needs no tag, so a mirror takes it.
  assert.is((await g.api('POST', '/api/v1/repos/root/mirrored/releases', { json: { tag_name: 'v1', draft: true } })).status, 201);
  // A repository's releases go with it.
  const rowsOf = (id: number) => (g.t.server.db.prepare('SELECT count(*) AS n FROM releases WHERE repo_id = ?').get(id) as { n: number }).n;
  assert.is(rowsOf(m.id), 1);
  assert.is((await g.api('DELETE', '/api/v1/repos/root/mirrored')).status, 204);
  assert.is(rowsOf(m.id), 0);
});

test('racing creations of one tag\'s release: one 201, the rest 409, one row and one tag', async () => {
  const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post({ tag_name: 'race', name: `racer ${i}` }, i % 2 ? writer.auth : undefined)));
  assert.equal(answers.map((a) => a.status).sort(), [201, 409, 409, 409, 409, 409]);
  for (const a of answers.filter((x) => x.status === 409)) assert.ok(['Release is has no Tag', 'release tag already exist [tag_name: race]'].includes(a.body.message), a.text);
  assert.is((ctx.g.t.server.db.prepare("SELECT count(*) AS n FROM releases WHERE tag_name = 'race'").get() as { n: number }).n, 1);
  assert.is(revParse('refs/tags/race'), head);
});

test('gitea-js: create, list, get by tag and the latest release through the real client', async () => {
  const client = giteaApi(`${ctx.g.url}/`, { token: ctx.g.admin.token });
  const made = await client.repos.repoCreateRelease('root', 'rel', { tag_name: 'js-1', name: 'From gitea-js', body: 'hello', target_commitish: 'main' });
  assert.is(made.status, 201);
  assert.is(made.data.tag_name, 'js-1');
  assert.is(revParse('refs/tags/js-1'), head);
  const list = await client.repos.repoListReleases('root', 'rel', { limit: 1 });
  assert.equal(list.data.map((r) => r.tag_name), ['js-1']);
  assert.equal((await client.repos.repoGetReleaseByTag('root', 'rel', 'js-1')).data, made.data);
  assert.equal((await client.repos.repoGetLatestRelease('root', 'rel')).data, made.data);
  assert.is((await client.repos.repoDeleteRelease('root', 'rel', made.data.id!)).status, 204);
});

test.run();
