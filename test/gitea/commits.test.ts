import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError } from '../_helpers/api-error.js';
import { git, useGitea, type Account } from '../_helpers/gitea.js';
import { commitFiles, siteRepo, type Site } from './_git-data.js';

// Commits: one commit (flags, diff and patch), the history list (paging headers, path, not), compare.
const test = suite('gitea: commits');
const ctx = useGitea(test);

let olly: Account;
let site: Site;
let api = '';
let html = '';
/** Newest first: c7 … c1, then the initial commit. */
let history: string[] = [];
/** olly's User as olly sees it (the initial commit is olly's). */
let ollyJson: unknown;
const UNSIGNED = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };

test.before(async () => {
  const { g } = ctx;
  olly = await g.user('olly');
  site = await siteRepo(g, olly, 'log');
  api = `${g.url}/api/v1/repos/olly/log`;
  html = `${g.url}/olly/log`;
  for (let i = 1; i <= 7; i++) commitFiles(site.work, i % 3 === 0 ? { 'docs/guide.md': `guide ${i}\n` } : { [`f${i}.txt`]: `${i}\nline\n` }, `c${i}`);
  commitFiles(site.work, { 'f1.txt': null, 'docs/guide.md': 'guide 9\nmore\n' }, 'c8');
  git(['branch', 'side', 'HEAD~3'], { cwd: site.work });
  await site.push('main', 'side');
  history = site.bareGit(['rev-list', 'main']).trim().split('\n');
  ollyJson = (await g.api('GET', '/api/v1/users/olly', { auth: olly.auth })).body;
});

test.after(() => rmSync(site.work, { recursive: true, force: true }));

/** The commit as the test's own git reads it, in Gitea's Commit shape (the runner's identity has no account: author/committer null). */
function expected(sha: string, parts: { stat?: boolean; files?: boolean; verification?: boolean } = {}) {
  const [parents, an, ae, ad, cn, ce, cd] = site.bareGit(['show', '-s', '--format=%P%n%an%n%ae%n%aI%n%cn%n%ce%n%cI', sha]).split('\n');
  const message = site.bareGit(['cat-file', 'commit', sha]).split('\n\n').slice(1).join('\n\n');
  const z = (d: string) => d.replace(/\+00:00$/, 'Z');
  const url = `${api}/git/commits/${sha}`;
  const numstat = site.bareGit(['show', '--numstat', '--format=', '-M', sha]).split('\n').filter(Boolean).map((l) => l.split('\t').map(Number));
  const add = numstat.reduce((s, [a]) => s + a!, 0);
  const del = numstat.reduce((s, [, d]) => s + d!, 0);
  const status = site.bareGit(['show', '--name-status', '--format=', '--no-renames', sha]).split('\n').filter(Boolean).map((l) => l.split('\t'));
  const kind = { A: 'added', D: 'removed', M: 'modified' } as Record<string, string>;
  const files = ['A', 'D', 'M'].flatMap((k) => status.filter(([s]) => s === k).map(([s, f]) => ({ filename: f, status: kind[s!] })));
  return {
    url,
    sha,
    created: z(cd!),
    html_url: `${html}/commit/${sha}`,
    commit: {
      url,
      author: { name: an, email: ae, date: z(ad!) },
      committer: { name: cn, email: ce, date: z(cd!) },
      message,
      tree: { url: `${api}/git/trees/${sha}`, sha, created: z(cd!) },
      verification: parts.verification === false ? null : UNSIGNED,
    },
    author: ae === 'olly@example.com' ? ollyJson : null,
    committer: ce === 'olly@example.com' ? ollyJson : null,
    parents: parents!.split(' ').filter(Boolean).map((p) => ({ url: `${api}/git/commits/${p}`, sha: p, created: '0001-01-01T00:00:00Z' })),
    files: parts.files === false ? null : files,
    stats: parts.stat === false ? null : { total: add + del, additions: add, deletions: del },
  };
}

test('GET /git/commits/{sha}: the Commit with stats and files; flags turn them off; names and short ids resolve', async () => {
  const { g } = ctx;
  const c8 = history[0]!;
  const r = await g.api('GET', `/api/v1/repos/olly/log/git/commits/${c8}`, { auth: olly.auth });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, expected(c8));
  assert.equal(r.body.files, [{ filename: 'f1.txt', status: 'removed' }, { filename: 'docs/guide.md', status: 'modified' }]);
  assert.equal(r.body.stats, { total: 5, additions: 2, deletions: 3 });
  const off = await g.api('GET', `/api/v1/repos/olly/log/git/commits/main?stat=false&files=0&verification=false`, { auth: olly.auth });
  assert.equal(off.body, expected(c8, { stat: false, files: false, verification: false }));
  const short = await g.api('GET', `/api/v1/repos/olly/log/git/commits/${c8.slice(0, 8)}?stat=`, { auth: olly.auth });
  assert.equal(short.body, expected(c8));
  const root = history[history.length - 1]!;
  const first = await g.api('GET', `/api/v1/repos/olly/log/git/commits/${root}`, { auth: olly.auth });
  assert.equal(first.body, expected(root));
  assert.equal(first.body.parents, []);
  // The url and the tree url answer.
  const self = await g.api('GET', r.body.commit.url.slice(g.url.length) + '?stat=false', { auth: olly.auth });
  assert.is(self.body.sha, c8);
  const tree = await g.api('GET', r.body.commit.tree.url.slice(g.url.length), { auth: olly.auth });
  assert.is(tree.status, 200);
});

test('GET /commits/{sha} and /commits/{sha}.diff: the same answers at GitHub\'s paths', async () => {
  const { g } = ctx;
  const [c8, c7] = history;
  const r = await g.api('GET', `/api/v1/repos/olly/log/commits/${c8}`, { auth: olly.auth });
  assert.equal([r.status, r.body], [200, expected(c8!)]);
  const d = await g.api('GET', `/api/v1/repos/olly/log/commits/${c8}.diff`, { auth: olly.auth });
  assert.equal([d.status, d.text], [200, site.bareGit(['diff', '-M', c7!, c8!])]);
  const none = await g.api('GET', '/api/v1/repos/olly/log/commits/nope', { auth: olly.auth });
  assert.equal([none.status, none.body], [404, apiError(g, 'nope')]);
});

test('GET /git/commits/{sha}: an unknown name is 404 naming it; an invalid one 422', async () => {
  const { g } = ctx;
  const r = await g.api('GET', '/api/v1/repos/olly/log/git/commits/nope', { auth: olly.auth });
  assert.equal([r.status, r.body], [404, apiError(g, 'nope')]);
  const bad = await g.api('GET', '/api/v1/repos/olly/log/git/commits/a..b', { auth: olly.auth });
  assert.equal([bad.status, bad.body], [422, apiError(g, 'no valid ref or sha: a..b')]);
});

test('GET /git/commits/{sha}.diff and .patch: what git diff and git format-patch print', async () => {
  const { g } = ctx;
  const [c8, c7] = history;
  const d = await g.api('GET', `/api/v1/repos/olly/log/git/commits/${c8}.diff`, { auth: olly.auth });
  assert.is(d.status, 200);
  assert.is(d.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.is(d.text, site.bareGit(['diff', '-M', c7!, c8!]));
  const p = await g.api('GET', `/api/v1/repos/olly/log/git/commits/${c8}.patch`, { auth: olly.auth });
  assert.is(p.text, site.bareGit(['format-patch', '--no-signature', '--stdout', `${c8}...${c7}`]));
  assert.ok(p.text.startsWith(`From ${c8} `));
  const root = history[history.length - 1]!;
  const rd = await g.api('GET', `/api/v1/repos/olly/log/git/commits/${root}.diff`, { auth: olly.auth });
  assert.is(rd.text, site.bareGit(['show', root]));
  const none = await g.api('GET', '/api/v1/repos/olly/log/git/commits/nope.diff', { auth: olly.auth });
  assert.equal([none.status, none.body], [404, apiError(g, 'nope')]);
});

test('GET /commits: pages of the history with Gitea\'s headers', async () => {
  const { g } = ctx;
  const r = await g.api('GET', '/api/v1/repos/olly/log/commits?limit=3&page=2&stat=false&files=false', { auth: olly.auth });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body.map((c: { sha: string }) => c.sha), history.slice(3, 6));
  assert.equal(r.body[0], expected(history[3]!, { stat: false, files: false }));
  const base = `${g.url}/api/v1/repos/olly/log/commits?files=false&limit=3`;
  const headers = Object.fromEntries(['link', 'x-total-count', 'x-total', 'x-hasmore', 'x-page', 'x-perpage', 'x-pagecount'].map((h) => [h, r.headers.get(h)]));
  assert.equal(headers, {
    link: `<${base}&page=3&stat=false>; rel="next",<${base}&page=3&stat=false>; rel="last",<${base}&page=1&stat=false>; rel="first",<${base}&page=1&stat=false>; rel="prev"`,
    'x-total-count': '9',
    'x-total': '9',
    'x-hasmore': 'true',
    'x-page': '2',
    'x-perpage': '3',
    'x-pagecount': '3',
  });
  const last = await g.api('GET', '/api/v1/repos/olly/log/commits?limit=3&page=3&stat=false', { auth: olly.auth });
  assert.equal([last.body.length, last.headers.get('x-hasmore')], [3, 'false']);
  // Default and largest page sizes: 30 and 50.
  const all = await g.api('GET', '/api/v1/repos/olly/log/commits?limit=500', { auth: olly.auth });
  assert.equal([all.body.length, all.headers.get('x-perpage')], [9, '50']);
  assert.equal(all.body, history.map((s) => expected(s)));
});

test('GET /commits: sha picks the start; path keeps the commits touching it; not leaves out what it reaches', async () => {
  const { g } = ctx;
  const sha = (r: { body: { sha: string }[] }) => r.body.map((c) => c.sha);
  const side = await g.api('GET', '/api/v1/repos/olly/log/commits?sha=side&stat=false', { auth: olly.auth });
  assert.equal(sha(side), history.slice(3));
  const docs = await g.api('GET', '/api/v1/repos/olly/log/commits?path=docs&limit=1&stat=false', { auth: olly.auth });
  assert.equal(sha(docs), site.bareGit(['rev-list', 'main', '--', 'docs']).trim().split('\n'));
  assert.equal([docs.headers.get('x-total-count'), docs.headers.get('x-hasmore')], ['3', 'true']);
  const file = await g.api('GET', '/api/v1/repos/olly/log/commits?path=docs/guide.md&sha=side&stat=false', { auth: olly.auth });
  assert.equal(sha(file), site.bareGit(['rev-list', 'side', '--', 'docs/guide.md']).trim().split('\n'));
  const not = await g.api('GET', '/api/v1/repos/olly/log/commits?not=side&stat=false', { auth: olly.auth });
  assert.equal([sha(not), not.headers.get('x-total-count')], [history.slice(0, 3), '3']);
  const none = await g.api('GET', '/api/v1/repos/olly/log/commits?path=nowhere', { auth: olly.auth });
  assert.equal([none.status, none.body], [404, apiError(g, 'FileCommitsCount')]);
  const unknown = await g.api('GET', '/api/v1/repos/olly/log/commits?sha=nope', { auth: olly.auth });
  assert.equal([unknown.status, unknown.body], [404, apiError(g, 'not found')]);
});

test('the API addresses a file write answers with (commit, parents, tree) all answer', async () => {
  const { g } = ctx;
  const w = await g.commit('olly', 'log', { 'written.txt': 'via the contents API\n' }, { newBranch: 'written', auth: olly.auth });
  const urls: string[] = [w.commit.url, w.commit.tree.url, ...w.commit.parents.map((p: { url: string }) => p.url)];
  assert.is(urls.length, 3);
  for (const url of urls) {
    const r = await g.api('GET', url.slice(g.url.length), { auth: olly.auth });
    assert.is(r.status, 200, `${url}: ${r.text}`);
  }
  const tree = await g.api('GET', w.commit.tree.url.slice(g.url.length), { auth: olly.auth });
  assert.ok(tree.body.tree.some((e: { path: string }) => e.path === 'written.txt'));
});

test('GET /commits on an empty repository is 409', async () => {
  const { g } = ctx;
  await g.repo('empty', { owner: olly, autoInit: false });
  const r = await g.api('GET', '/api/v1/repos/olly/empty/commits', { auth: olly.auth });
  assert.equal([r.status, r.body], [409, apiError(g, 'Git Repository is empty.')]);
});

test('GET /compare/{base...head}: the commits head has and base lacks, newest first', async () => {
  const { g } = ctx;
  const r = await g.api('GET', '/api/v1/repos/olly/log/compare/side...main', { auth: olly.auth });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, { total_commits: 3, commits: history.slice(0, 3).map((s) => expected(s)) });
  const two = await g.api('GET', `/api/v1/repos/olly/log/compare/${history[2]}..main?files=false`, { auth: olly.auth });
  assert.equal(two.body.commits.map((c: { sha: string; files: unknown }) => [c.sha, c.files]), [[history[0], null], [history[1], null]]);
  const same = await g.api('GET', '/api/v1/repos/olly/log/compare/main...side', { auth: olly.auth });
  assert.equal(same.body, { total_commits: 0, commits: [] });
  const bad = await g.api('GET', '/api/v1/repos/olly/log/compare/nope...main', { auth: olly.auth });
  assert.equal([bad.status, bad.body], [404, apiError(g, 'BaseNotExist')]);
});

test.run();
