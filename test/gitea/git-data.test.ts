import { rmSync } from 'node:fs';
import { giteaApi } from 'gitea-js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError } from '../_helpers/api-error.js';
import { git, useGitea, type Account } from '../_helpers/gitea.js';
import { commitFiles, siteRepo, type Site } from './_git-data.js';

// The git data API: trees (every way of naming one, paging), references, annotated tags, notes.
const test = suite('gitea: git data');
const ctx = useGitea(test);

let olly: Account;
let site: Site;
let api = '';
let head = '';
let tagObject = '';

test.before(async () => {
  const { g } = ctx;
  olly = await g.user('olly');
  site = await siteRepo(g, olly, 'site');
  api = `${g.url}/api/v1/repos/olly/site`;
  commitFiles(site.work, { 'content/posts/a.md': 'A\n', 'content/posts/b.md': 'Bee\n', 'content/about.md': 'about\n', 'z.txt': 'zz\n' }, 'posts');
  git(['tag', '-a', 'v1', '-m', 'first release'], { cwd: site.work });
  git(['tag', 'light'], { cwd: site.work });
  git(['notes', 'add', '-m', 'reviewed'], { cwd: site.work });
  // A note stored under fan-out directories (as git does once there are many), for the first commit.
  const first = git(['rev-list', '--max-parents=0', 'HEAD'], { cwd: site.work }).stdout.trim();
  const blob = git(['hash-object', '-w', '--stdin'], { cwd: site.work, input: 'fanned out\n' }).stdout.trim();
  const leaf = git(['mktree'], { cwd: site.work, input: `100644 blob ${blob}\t${first.slice(4)}\n` }).stdout.trim();
  const mid = git(['mktree'], { cwd: site.work, input: `040000 tree ${leaf}\t${first.slice(2, 4)}\n` }).stdout.trim();
  const notesTree = git(['ls-tree', 'refs/notes/commits'], { cwd: site.work }).stdout;
  const top = git(['mktree'], { cwd: site.work, input: `${notesTree}040000 tree ${mid}\t${first.slice(0, 2)}\n` }).stdout.trim();
  const notesCommit = git(['commit-tree', top, '-p', 'refs/notes/commits', '-m', 'fan-out note'], { cwd: site.work }).stdout.trim();
  git(['update-ref', 'refs/notes/commits', notesCommit], { cwd: site.work });
  await site.push('main', 'v1', 'light', 'refs/notes/commits');
  head = site.bareGit(['rev-parse', 'main']).trim();
  tagObject = site.bareGit(['rev-parse', 'refs/tags/v1']).trim();
});

test.after(() => rmSync(site.work, { recursive: true, force: true }));

/** What `git ls-tree -l [-r -t]` says, as Gitea's entries. */
function expectedEntries(treeish: string, recursive: boolean) {
  const out = site.bareGit(['ls-tree', '-l', ...(recursive ? ['-r', '-t'] : []), treeish]);
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [meta, path] = line.split('\t') as [string, string];
      const [mode, type, sha, size] = meta.split(/ +/) as [string, string, string, string];
      const url = type === 'tree' ? `${api}/git/trees/${sha}` : `${api}/git/blobs/${sha}`;
      return { path, mode, type, size: size === '-' ? 0 : Number(size), sha, url };
    });
}

test('trees: a branch names its commit; the answer lists the commit\'s root tree', async () => {
  const r = await ctx.g.api('GET', `${'/api/v1/repos/olly/site'}/git/trees/main`, { auth: olly.auth });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, { sha: head, url: `${api}/git/trees/${head}`, tree: expectedEntries('main', false), truncated: false, page: 1, total_count: 3 });
  assert.is(r.headers.get('x-total-count'), '3');
  assert.equal(r.body.tree.map((e: { path: string }) => e.path), ['README.md', 'content', 'z.txt']);
});

test('trees: rev:path, rev: for the root, a tree id, a short commit id, an annotated tag', async () => {
  const { g } = ctx;
  const posts = site.bareGit(['rev-parse', 'main:content/posts']).trim();
  const root = site.bareGit(['rev-parse', 'main^{tree}']).trim();
  const cases: [string, string, string][] = [
    ['main:content/posts', posts, 'main:content/posts'],
    ['main:content%2Fposts', posts, 'main:content/posts'],
    ['main:', root, 'main'],
    [posts, posts, 'main:content/posts'],
    [head.slice(0, 10), head, 'main'],
    ['v1', tagObject, 'main'],
    ['light', head, 'main'],
  ];
  for (const [name, sha, listed] of cases) {
    const r = await g.api('GET', `/api/v1/repos/olly/site/git/trees/${name}`, { auth: olly.auth });
    assert.is(r.status, 200, `${name}: ${r.text}`);
    assert.is(r.body.sha, sha, name);
    assert.is(r.body.url, `${api}/git/trees/${sha}`, name);
    assert.equal(r.body.tree, expectedEntries(listed, false), name);
  }
});

test('trees: recursive listings page by per_page; truncated says whether more follow', async () => {
  const { g } = ctx;
  const all = expectedEntries('main', true);
  assert.equal(all.map((e) => e.path), ['README.md', 'content', 'content/about.md', 'content/posts', 'content/posts/a.md', 'content/posts/b.md', 'z.txt']);
  const pages = [];
  for (let page = 1; page <= 4; page++) {
    const r = await g.api('GET', `/api/v1/repos/olly/site/git/trees/main?recursive=1&per_page=3&page=${page}`, { auth: olly.auth });
    assert.is(r.status, 200, r.text);
    pages.push(r.body);
  }
  assert.equal(pages.map((p) => [p.page, p.truncated, p.total_count, p.tree?.length ?? null]), [
    [1, true, 7, 3],
    [2, true, 7, 3],
    [3, false, 7, 1],
    [4, false, 7, null],
  ]);
  assert.equal([...pages[0].tree, ...pages[1].tree, ...pages[2].tree], all);
  // per_page 0, negative or above 1000 is 1000; page 0 is 1.
  for (const q of ['per_page=0', 'per_page=-4', 'per_page=5000&page=0']) {
    const r = await g.api('GET', `/api/v1/repos/olly/site/git/trees/main?recursive=true&${q}`, { auth: olly.auth });
    assert.equal([r.status, r.body.page, r.body.truncated, r.body.tree], [200, 1, false, all], q);
  }
});

test('trees through gitea-js: a CMS-style listing of one folder, recursively', async () => {
  const api = giteaApi(`${ctx.g.url}/`, { token: olly.token });
  const r = await api.repos.getTree('olly', 'site', 'main:content', { recursive: true, per_page: 100 });
  assert.is(r.status, 200);
  assert.equal(r.data.tree?.map((e) => [e.path, e.type]), [['about.md', 'blob'], ['posts', 'tree'], ['posts/a.md', 'blob'], ['posts/b.md', 'blob']]);
  assert.equal([r.data.total_count, r.data.truncated, r.data.sha], [4, false, site.bareGit(['rev-parse', 'main:content']).trim()]);
});

test('trees: a name that resolves to nothing, or to a blob, is 400 sha not found', async () => {
  const { g } = ctx;
  const blob = site.bareGit(['rev-parse', 'main:z.txt']).trim();
  for (const name of ['nope', blob, 'main:z.txt', 'nope:content', '0'.repeat(40)]) {
    const r = await g.api('GET', `/api/v1/repos/olly/site/git/trees/${name}`, { auth: olly.auth });
    assert.is(r.status, 400, name);
    assert.equal(r.body, apiError(g, `sha not found [${name}]`));
  }
});

test('trees: a path missing from an existing revision is 404 (Decap CMS reads it as an empty folder; Gitea says 400)', async () => {
  const { g } = ctx;
  for (const name of ['main:missing', 'main:content/missing', `${head}:missing`]) {
    const r = await g.api('GET', `/api/v1/repos/olly/site/git/trees/${name}`, { auth: olly.auth });
    assert.is(r.status, 404, name);
    assert.equal(r.body, apiError(g, `sha not found [${name}]`));
  }
});

test('refs: all of them in name order; a prefix filters; one exact match is an object', async () => {
  const { g } = ctx;
  const notes = site.bareGit(['rev-parse', 'refs/notes/commits']).trim();
  const ref = (name: string, type: string, sha: string) => ({ ref: name, url: `${api}/git/${name}`, object: { type, sha, url: `${api}/git/${type}s/${sha}` } });
  const all = [ref('refs/heads/main', 'commit', head), ref('refs/notes/commits', 'commit', notes), ref('refs/tags/light', 'commit', head), ref('refs/tags/v1', 'tag', tagObject)];
  const r = await g.api('GET', '/api/v1/repos/olly/site/git/refs', { auth: olly.auth });
  assert.equal([r.status, r.body], [200, all]);
  const cases: [string, unknown][] = [
    ['heads', [all[0]]],
    ['heads/main', all[0]],
    ['heads/ma', [all[0]]],
    ['tags', [all[2], all[3]]],
    ['tags/v1', all[3]],
  ];
  for (const [filter, body] of cases) {
    const x = await g.api('GET', `/api/v1/repos/olly/site/git/refs/${filter}`, { auth: olly.auth });
    assert.equal([x.status, x.body], [200, body], filter);
  }
  // Every ref url answers through this endpoint.
  const self = await g.api('GET', all[3]!.url.slice(g.url.length), { auth: olly.auth });
  assert.equal(self.body, all[3]);
  const none = await g.api('GET', '/api/v1/repos/olly/site/git/refs/heads/nope', { auth: olly.auth });
  assert.equal([none.status, none.body], [404, apiError(g, 'not found')]);
});

test('tags: an annotated tag object; a commit id or a short id is 400', async () => {
  const { g } = ctx;
  const [taggerName, taggerEmail, taggerDate] = site.bareGit(['for-each-ref', '--format=%(taggername)%00%(taggeremail:trim)%00%(taggerdate:unix)', 'refs/tags/v1']).trim().split('\0');
  const r = await g.api('GET', `/api/v1/repos/olly/site/git/tags/${tagObject}`, { auth: olly.auth });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, {
    tag: 'v1',
    sha: tagObject,
    url: `${api}/git/tags/${tagObject}`,
    message: 'first release\n',
    tagger: { name: taggerName, email: taggerEmail, date: new Date(Number(taggerDate) * 1000).toISOString().replace('.000Z', 'Z') },
    object: { type: 'commit', url: `${api}/git/commits/${head}`, sha: head },
    verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' },
    archive_download_count: { zip: 0, tar_gz: 0 },
  });
  for (const sha of [head, tagObject.slice(0, 10)]) {
    const x = await g.api('GET', `/api/v1/repos/olly/site/git/tags/${sha}`, { auth: olly.auth });
    assert.equal([x.status, x.body], [400, apiError(g, `object does not exist [id: ${sha}, rel_path: ]`)]);
  }
});

test('notes: the note on a commit, with the notes commit that wrote it; none is 404', async () => {
  const { g } = ctx;
  const notes = site.bareGit(['rev-parse', 'refs/notes/commits']).trim();
  const r = await g.api('GET', `/api/v1/repos/olly/site/git/notes/${head}`, { auth: olly.auth });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.message, 'reviewed\n');
  // The notes commit that last changed this note: the one `git notes add` made.
  const written = site.bareGit(['rev-parse', 'refs/notes/commits~1']).trim();
  assert.is(r.body.commit.sha, written);
  assert.equal(r.body.commit.files, [{ filename: head, status: 'added' }]);
  const first = site.bareGit(['rev-list', '--max-parents=0', 'main']).trim();
  const fanned = await g.api('GET', `/api/v1/repos/olly/site/git/notes/${first}`, { auth: olly.auth });
  assert.equal([fanned.status, fanned.body.message, fanned.body.commit.sha], [200, 'fanned out\n', notes]);
  assert.equal(fanned.body.commit.files, [{ filename: `${first.slice(0, 2)}/${first.slice(2, 4)}/${first.slice(4)}`, status: 'added' }]);
  const byBranch = await g.api('GET', '/api/v1/repos/olly/site/git/notes/main?files=false', { auth: olly.auth });
  assert.equal([byBranch.status, byBranch.body.message, byBranch.body.commit.files], [200, 'reviewed\n', null]);
  const plain = (await g.commit('olly', 'site', { 'plain.txt': 'no note\n' }, { newBranch: 'plain', auth: olly.auth })).commit.sha;
  const none = await g.api('GET', `/api/v1/repos/olly/site/git/notes/${plain}`, { auth: olly.auth });
  assert.equal([none.status, none.body], [404, apiError(g, plain)]);
  const bad = await g.api('GET', '/api/v1/repos/olly/site/git/notes/a..b', { auth: olly.auth });
  assert.equal([bad.status, bad.body], [422, apiError(g, 'no valid ref or sha: a..b')]);
});

test('a private repository is 404 to strangers and anonymous callers; a read token without repository scope is 403', async () => {
  const { g } = ctx;
  const stan = await g.user('stan');
  const priv = await siteRepo(g, olly, 'hidden', { private: true });
  rmSync(priv.work, { recursive: true, force: true });
  for (const path of ['git/trees/main', 'git/refs', `git/commits/main`]) {
    for (const auth of [stan.auth, null]) {
      const r = await g.api('GET', `/api/v1/repos/olly/hidden/${path}`, { auth });
      assert.equal([r.status, r.body], [404, apiError(g, 'not found')], path);
    }
  }
  const userOnly = await g.token(olly, ['read:user']);
  const r = await g.api('GET', '/api/v1/repos/olly/hidden/git/trees/main', { auth: { token: userOnly } });
  assert.equal([r.status, r.body], [403, apiError(g, 'token does not have at least one of required scope(s), required=[read:repository], token scope=read:user')]);
});

test.run();
