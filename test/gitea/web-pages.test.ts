import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type Account, useGitea } from '../_helpers/gitea.js';

// The pages behind the html_url links (/{owner}, /{owner}/{repo}, …/src/…, …/commit/{sha},
// …/releases/tag/{tag}, …/archive/…): every URL a repository, contents, files, commit, branch, tag or release answer holds
// answers 200 when followed with the same credentials; the pages show what is in the repository,
// escaped, under a CSP that allows no script; private repositories stay hidden.
const test = suite('gitea: web pages');
const ctx = useGitea(test);

let other: Account;
let initial = '';
let first = '';
let second = '';
let release = 0;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** A GET with the admin's token (or the given headers), redirects followed. */
async function get(url: string, headers: Record<string, string> = { authorization: `token ${ctx.g.admin.token}` }) {
  const r = await fetch(url.startsWith('http') ? url : `${ctx.g.url}${url}`, { headers });
  return { status: r.status, type: r.headers.get('content-type') ?? '', csp: r.headers.get('content-security-policy') ?? '', url: r.url, bytes: Buffer.from(await r.arrayBuffer()) };
}
const text = async (url: string, headers?: Record<string, string>) => {
  const r = await get(url, headers);
  return { ...r, text: r.bytes.toString('utf8') };
};

/** Every string in a JSON answer that is an http(s) URL of this server. */
function urlsIn(v: unknown, out = new Set<string>()): Set<string> {
  if (typeof v === 'string' && v.startsWith(ctx.g.url)) out.add(v);
  else if (Array.isArray(v)) v.forEach((x) => urlsIn(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => urlsIn(x, out));
  return out;
}

test.before(async () => {
  const g = ctx.g;
  other = await g.user('olga');
  await g.repo('site');
  first = (await g.commit('root', 'site', { 'README.md': '# Site\n\nHello <b>world</b> & co.\n', 'docs/guide.md': 'line one\n<script>alert(1)</script>\n', 'logo.png': PNG }, { message: 'first pages' })).commit.sha;
  second = (await g.commit('root', 'site', { 'docs/guide.md': 'line one\nline two\n' }, { message: 'Edit the guide\n\nWith a body.' })).commit.sha;
  const t = await g.api('POST', '/api/v1/repos/root/site/tags', { json: { tag_name: 'v1', target: second } });
  assert.is(t.status, 201, t.text);
  const rel = await g.api('POST', '/api/v1/repos/root/site/releases', { json: { tag_name: 'v1', name: 'One <i>point</i> oh', body: 'Fixed <script>alert(1)</script> & more' } });
  assert.is(rel.status, 201, rel.text);
  release = rel.body.id;
  await g.repo('secret', { private: true });
  const log = await g.api('GET', '/api/v1/repos/root/site/commits?limit=10&stat=false&files=false');
  initial = log.body.at(-1).sha;
  assert.equal(log.body.map((c: { sha: string }) => c.sha), [second, first, initial]);
});

test('every URL in repository, contents, files, commit, branch and tag answers is followed to a 200', async () => {
  const g = ctx.g;
  const answers = await Promise.all([
    g.api('GET', '/api/v1/repos/root/site'),
    g.api('GET', '/api/v1/repos/root/site/contents'),
    g.api('GET', '/api/v1/repos/root/site/contents/docs/guide.md'),
    g.api('GET', '/api/v1/repos/root/site/contents/logo.png?ref=v1'),
    g.api('GET', `/api/v1/repos/root/site/git/commits/${second}`),
    g.api('GET', '/api/v1/repos/root/site/commits?limit=2'),
    g.api('GET', '/api/v1/repos/root/site/branches/main'),
    g.api('GET', '/api/v1/repos/root/site/tags/v1'),
    g.api('GET', '/api/v1/repos/root/site/git/trees/main?recursive=1'),
    g.api('GET', `/api/v1/repos/root/site/releases/${release}`),
    g.api('GET', '/api/v1/repos/root/site/releases'),
    g.api('POST', '/api/v1/repos/root/site/contents/notes.txt', { json: { content: Buffer.from('notes\n').toString('base64') } }),
  ]);
  const urls = new Set<string>();
  for (const a of answers) {
    assert.ok(a.status === 200 || a.status === 201, a.text);
    urlsIn(a.body, urls);
  }
  // The kinds of link the walk must have met (so a shrinking answer cannot make it pass).
  for (const part of ['/root/site', '/src/branch/main/docs/guide.md', '/raw/branch/main/docs/guide.md', `/commit/${second}`, '/archive/v1.zip', '/archive/v1.tar.gz', '/root/site.git', '/src/tag/v1/logo.png', '/api/v1/repos/root/site/git/blobs/', '/root/site/releases/tag/v1', `/releases/${release}/assets`]) {
    assert.ok([...urls].some((u) => u.includes(part)), `no URL with ${part} among ${[...urls].join(' ')}`);
  }
  const failed: string[] = [];
  for (const u of urls) {
    const r = await get(u);
    if (r.status !== 200) failed.push(`${u} → ${r.status}`);
  }
  assert.equal(failed, []);
});

test('the repository page: description, the default branch\'s entries (directories first), its README escaped, no script allowed', async () => {
  const r = await text('/root/site');
  assert.is(r.status, 200);
  assert.is(r.type, 'text/html; charset=utf-8');
  assert.match(r.csp, "default-src 'none'");
  assert.not.match(r.csp, 'script-src');
  assert.not.match(r.text, '<script');
  const entries = [...r.text.matchAll(/<td><a href="([^"]+)">([^<]+)<\/a><\/td>/g)].map((m) => [m[1], m[2]]);
  assert.equal(entries, [
    ['/root/site/src/branch/main/docs', 'docs/'],
    ['/root/site/src/branch/main/logo.png', 'logo.png'],
    ['/root/site/src/branch/main/notes.txt', 'notes.txt'],
    ['/root/site/src/branch/main/README.md', 'README.md'],
  ]);
  assert.match(r.text, 'Hello &#60;b&#62;world&#60;/b&#62; &#38; co.');
  assert.match(r.text, '<h2>README.md</h2>');
});

test('a file page numbers each line and escapes it; a directory page lists its entries', async () => {
  const f = await text(`/root/site/src/commit/${first}/docs/guide.md`);
  assert.is(f.status, 200);
  assert.match(f.text, '<span id="L1"><span class="ln">1</span>line one</span>');
  assert.match(f.text, '<span id="L2"><span class="ln">2</span>&#60;script&#62;alert(1)&#60;/script&#62;</span>');
  assert.not.match(f.text, '<script>');
  assert.match(f.text, `href="/root/site/raw/commit/${first}/docs/guide.md"`);
  const d = await text('/root/site/src/tag/v1/docs');
  assert.is(d.status, 200);
  assert.match(d.text, '<a href="/root/site/src/tag/v1/docs/guide.md">guide.md</a>');
});

test('an image is shown inline from its raw URL, which serves the image', async () => {
  const p = await text('/root/site/src/branch/main/logo.png');
  assert.is(p.status, 200);
  assert.match(p.text, '<img class="shown" src="/root/site/raw/branch/main/logo.png" alt="logo.png">');
  const img = await get('/root/site/raw/branch/main/logo.png');
  assert.is(img.status, 200);
  assert.is(img.type, 'image/png');
  assert.equal(img.bytes, PNG);
});

test('a commit page: subject, body, parent link and the diff with added and removed lines marked', async () => {
  const r = await text(`/root/site/commit/${second}`);
  assert.is(r.status, 200);
  assert.match(r.text, '<h1>Edit the guide</h1>');
  assert.match(r.text, '<div class="message">With a body.</div>');
  assert.match(r.text, `<a href="/root/site/commit/${first}">${first.slice(0, 10)}</a>`);
  assert.match(r.text, '<span class="file">diff --git a/docs/guide.md b/docs/guide.md</span>');
  assert.match(r.text, '<span class="del">-&#60;script&#62;alert(1)&#60;/script&#62;</span>');
  assert.match(r.text, '<span class="add">+line two</span>');
  // The repository's first commit has no parent: its diff shows its files as added (and an abbreviated id finds it).
  const root = await text(`/root/site/commit/${initial.slice(0, 12)}`);
  assert.is(root.status, 200);
  assert.match(root.text, 'none (first commit)');
  assert.match(root.text, '<span class="file">diff --git a/README.md b/README.md</span><span>new file mode 100644</span>');
  assert.is((await text('/root/site/commit/0123456789abcdef0123456789abcdef01234567')).status, 404);
});

test('the clone URL leads to the repository page; archives at the web URL are the API\'s', async () => {
  const r = await fetch(`${ctx.g.url}/root/site.git`, { redirect: 'manual' });
  assert.is(r.status, 302);
  assert.is(r.headers.get('location'), `${ctx.g.url}/root/site`);
  const zip = await get('/root/site/archive/v1.zip');
  assert.is(zip.status, 200);
  assert.is(zip.type, 'application/zip');
  assert.equal(zip.bytes.subarray(0, 2), Buffer.from('PK'));
  const api = await get('/api/v1/repos/root/site/archive/v1.zip');
  assert.equal(zip.bytes, api.bytes);
  assert.is((await get('/root/site/archive/nope.zip')).status, 404);
});

test('release pages: the list and one release, notes escaped, a draft only for writers', async () => {
  const list = await text('/root/site/releases', {});
  assert.is(list.status, 200);
  assert.match(list.text, '<a href="/root/site/releases/tag/v1">One &#60;i&#62;point&#60;/i&#62; oh</a>');
  const one = await text('/root/site/releases/tag/v1', {});
  assert.is(one.status, 200);
  assert.match(one.csp, "default-src 'none'");
  assert.match(one.text, '<h1>One &#60;i&#62;point&#60;/i&#62; oh</h1>');
  assert.match(one.text, '<div class="message">Fixed &#60;script&#62;alert(1)&#60;/script&#62; &#38; more</div>');
  assert.match(one.text, `<a href="/root/site/src/tag/v1">v1</a> at <a href="/root/site/commit/${second}">${second.slice(0, 10)}</a>`);
  assert.not.match(one.text, '<script>');
  const draft = await ctx.g.api('POST', '/api/v1/repos/root/site/releases', { json: { tag_name: 'next/draft', draft: true } });
  assert.is(draft.status, 201, draft.text);
  const mine = await text('/root/site/releases/tag/next/draft');
  assert.is(mine.status, 200);
  assert.match(mine.text, 'next/draft <span class="muted">(no such tag yet)</span>');
  assert.match(mine.text, '<span class="muted">not yet (draft)</span>');
  assert.match((await text('/root/site/releases')).text, '<a href="/root/site/releases/tag/next/draft">next/draft</a> <span class="muted">(draft)</span>');
  assert.is((await text('/root/site/releases/tag/next/draft', {})).status, 404);
  assert.not.match((await text('/root/site/releases', {})).text, 'next/draft');
  assert.is((await text('/root/site/releases/tag/nope', {})).status, 404);
});

test('private repositories: 404 to anonymous callers and to users who may not read them, 200 to the owner; wrong credentials 401', async () => {
  assert.is((await text('/root/secret')).status, 200);
  const anon = await text('/root/secret', {});
  assert.is(anon.status, 404);
  assert.match(anon.type, 'text/html');
  assert.is((await text('/root/secret', { authorization: `token ${other.token}` })).status, 404);
  assert.is((await text('/root/secret/src/branch/main/README.md', {})).status, 404);
  assert.is((await text('/root/secret', { authorization: `Basic ${Buffer.from('root:wrong-password').toString('base64')}` })).status, 401);
  // The owner's page lists the private repository only to those who may see it.
  const mine = await text('/root');
  assert.match(mine.text, '<a href="/root/secret">secret</a>');
  const theirs = await text('/root', {});
  assert.is(theirs.status, 200);
  assert.match(theirs.text, '<a href="/root/site">site</a>');
  assert.not.match(theirs.text, 'secret');
});

test('unknown owners, repositories, refs and paths are 404 pages', async () => {
  for (const p of ['/nobody', '/root/nothing', '/root/site/src/branch/nope/README.md', '/root/site/src/branch/main/missing.md', '/root/site/src/branch/main/../../etc']) {
    const r = await text(p);
    assert.is(r.status, 404, p);
    assert.match(r.type, 'text/html', p);
  }
});

test.run();
