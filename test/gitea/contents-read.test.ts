import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError } from '../_helpers/api-error.js';
import { git, gitDirOf, giteaWorld, useGitea } from '../_helpers/gitea.js';
import { startTestServer } from '../_helpers/server.js';
import { b64, commitDates, entry, lastOf, lsTree, objectSize, rawRequest, revParse, viaWorktree } from './_contents.js';

const test = suite('contents-read');
const ctx = useGitea(test);

const R = (repo: string, rest = '') => `/api/v1/repos/root/${repo}/contents${rest}`;

/**
 * The fixture repository `tree`:
 *   c1 (auto init)  README.md
 *   c2 (API)        a.txt, docs/guide.md, a-b, a.c, a/x, a0
 *   c3 (API)        a.txt changed
 *   c4 (worktree)   link -> a.txt (symlink), run.sh (executable), libs/sub (submodule) + .gitmodules
 * Tags: v1 (lightweight, c2), v2 (annotated, c3). Branch feature/x at c2.
 */
let id = 0;
let gitDir = '';
const commits: string[] = [];

test.before(async () => {
  const { g } = ctx;
  const repo = await g.repo('tree');
  id = repo.id;
  gitDir = gitDirOf(g, id);
  commits.push(revParse(gitDir, 'main'));
  const c2 = await g.commit('root', 'tree', { 'a.txt': 'one\n', 'docs/guide.md': '# Guide\n', 'a-b': 'dash\n', 'a.c': 'dot\n', 'a/x': 'in a\n', a0: 'zero\n' });
  commits.push(c2.commit.sha);
  const c3 = await g.commit('root', 'tree', { 'a.txt': 'two\n' });
  commits.push(c3.commit.sha);
  const c4 = await viaWorktree(g, id, (dir, run) => {
    symlinkSync('a.txt', join(dir, 'link'));
    writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\necho hi\n');
    chmodSync(join(dir, 'run.sh'), 0o755);
    writeFileSync(join(dir, '.gitmodules'), '[submodule "libs/sub"]\n\tpath = libs/sub\n\turl = https://example.com/sub.git\n');
    mkdirSync(join(dir, 'libs'));
    run('add', '-A');
    run('update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},libs/sub`);
    run('commit', '--quiet', '-m', 'links and modules');
  });
  commits.push(c4);
  git(['--git-dir', gitDir, 'tag', 'v1', commits[1]!]);
  git(['--git-dir', gitDir, 'tag', '-a', 'v2', '-m', 'release two', commits[2]!]);
  git(['--git-dir', gitDir, 'branch', 'feature/x', commits[1]!]);
  g.t.server.gitea.git.invalidate(gitDir);
});

/** The expected listing entry (or single file when `content` is given) at `rev`. */
function at(path: string, opts: { ref?: string; refType?: 'branch' | 'tag' | 'commit'; refName?: string; rev?: string; content?: boolean } = {}) {
  const rev = opts.rev ?? opts.ref ?? 'main';
  const ls = lsTree(gitDir, rev, path)!;
  const type = ls.mode === '040000' ? 'dir' : ls.mode === '120000' ? 'symlink' : ls.mode === '160000' ? 'submodule' : 'file';
  const size = type === 'file' || type === 'symlink' ? objectSize(gitDir, ls.sha) : 0;
  const data = type === 'file' || type === 'symlink' ? git(['--git-dir', gitDir, 'cat-file', 'blob', ls.sha]).stdout : '';
  return entry(ctx.g, {
    owner: 'root',
    repo: 'tree',
    path,
    sha: ls.sha,
    type,
    size,
    ref: opts.ref ?? 'main',
    refType: opts.refType ?? 'branch',
    ...(opts.refName ? { refName: opts.refName } : {}),
    last: lastOf(gitDir, rev, path),
    content: opts.content && type === 'file' ? b64(data) : null,
    target: type === 'symlink' ? data : null,
    submodule: type === 'submodule' ? 'https://example.com/sub.git' : null,
  });
}

test('GET /contents lists the root in git tree order, each entry with the last commit that touched it', async () => {
  const r = await ctx.g.api('GET', R('tree'));
  assert.is(r.status, 200, r.text);
  // Git orders a directory as if its name ended in "/": a-b, a.c, a.txt, a/, a0 (a plain sort puts a first).
  assert.equal(
    r.body.map((e: any) => e.name),
    ['.gitmodules', 'README.md', 'a-b', 'a.c', 'a.txt', 'a', 'a0', 'docs', 'libs', 'link', 'run.sh'],
  );
  assert.equal(r.body, r.body.map((e: any) => at(e.path)));
  const byName = Object.fromEntries(r.body.map((e: any) => [e.name, e]));
  assert.is(byName['README.md'].last_commit_sha, commits[0]);
  assert.is(byName['docs'].last_commit_sha, commits[1]);
  assert.is(byName['a.txt'].last_commit_sha, commits[2]);
  assert.is(byName['link'].last_commit_sha, commits[3]);
  // Directory listings never carry content.
  for (const e of r.body) {
    assert.is(e.encoding, null);
    assert.is(e.content, null);
  }
  // The list endpoint and the single-path endpoint on a directory agree.
  const docs = await ctx.g.api('GET', R('tree', '/docs'));
  assert.is(docs.status, 200);
  assert.equal(docs.body, [at('docs/guide.md')]);
});

test('GET /contents/{file}: base64 content, sizes and every URL', async () => {
  const r = await ctx.g.api('GET', R('tree', '/a.txt'));
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, at('a.txt', { content: true }));
  assert.is(Buffer.from(r.body.content, 'base64').toString(), 'two\n');
  assert.is(r.body.url, `${ctx.g.url}/api/v1/repos/root/tree/contents/a.txt?ref=main`);
  assert.is(r.body.html_url, `${ctx.g.url}/root/tree/src/branch/main/a.txt`);
  assert.is(r.body.download_url, `${ctx.g.url}/root/tree/raw/branch/main/a.txt`);
  assert.is(r.body.git_url, `${ctx.g.url}/api/v1/repos/root/tree/git/blobs/${r.body.sha}`);
  assert.equal(Object.keys(r.body), [
    'name', 'path', 'sha', 'last_commit_sha', 'last_committer_date', 'last_author_date', 'type', 'size', 'encoding', 'content', 'target',
    'url', 'html_url', 'git_url', 'download_url', 'submodule_git_url', '_links',
  ]);
  const nested = await ctx.g.api('GET', R('tree', '/docs/guide.md'));
  assert.equal(nested.body, at('docs/guide.md', { content: true }));
});

test('symlinks carry their target, executables are files, submodules their URL and no web links', async () => {
  const link = await ctx.g.api('GET', R('tree', '/link'));
  assert.is(link.status, 200);
  assert.equal(link.body, at('link'));
  assert.is(link.body.type, 'symlink');
  assert.is(link.body.target, 'a.txt');
  assert.is(link.body.size, 5);
  assert.is(link.body.content, null);

  const exe = await ctx.g.api('GET', R('tree', '/run.sh'));
  assert.is(exe.status, 200);
  assert.is(lsTree(gitDir, 'main', 'run.sh')!.mode, '100755');
  assert.equal(exe.body, at('run.sh', { content: true }));
  assert.is(exe.body.type, 'file');

  const sub = await ctx.g.api('GET', R('tree', '/libs/sub'));
  assert.is(sub.status, 200);
  assert.equal(sub.body, at('libs/sub'));
  assert.equal(
    { type: sub.body.type, sha: sub.body.sha, size: sub.body.size, submodule_git_url: sub.body.submodule_git_url, html_url: sub.body.html_url, git_url: sub.body.git_url, download_url: sub.body.download_url, _links: sub.body._links },
    { type: 'submodule', sha: '1'.repeat(40), size: 0, submodule_git_url: 'https://example.com/sub.git', html_url: null, git_url: null, download_url: null, _links: { self: `${ctx.g.url}/api/v1/repos/root/tree/contents/libs/sub?ref=main`, git: null, html: null } },
  );
  // Listed, the submodule keeps its URL.
  const libs = await ctx.g.api('GET', R('tree', '/libs'));
  assert.equal(libs.body, [at('libs/sub')]);
});

test('ref: a branch (with a slash), a lightweight tag, an annotated tag, a full commit id', async () => {
  const branch = await ctx.g.api('GET', R('tree', '/a.txt?ref=feature/x'));
  assert.is(branch.status, 200, branch.text);
  assert.equal(branch.body, at('a.txt', { ref: 'feature/x', content: true }));
  assert.is(branch.body.url, `${ctx.g.url}/api/v1/repos/root/tree/contents/a.txt?ref=feature%2Fx`);
  assert.is(branch.body.html_url, `${ctx.g.url}/root/tree/src/branch/feature/x/a.txt`);
  assert.is(Buffer.from(branch.body.content, 'base64').toString(), 'one\n');

  const light = await ctx.g.api('GET', R('tree', '/a.txt?ref=v1'));
  assert.is(light.status, 200);
  assert.equal(light.body, at('a.txt', { ref: 'v1', refType: 'tag', content: true }));
  assert.is(light.body.download_url, `${ctx.g.url}/root/tree/raw/tag/v1/a.txt`);

  const annotated = await ctx.g.api('GET', R('tree', '?ref=v2'));
  assert.is(annotated.status, 200);
  assert.equal(annotated.body, annotated.body.map((e: any) => at(e.path, { ref: 'v2', refType: 'tag', rev: commits[2] })));
  assert.not.ok(annotated.body.some((e: any) => e.name === 'link'), 'v2 predates the symlink');

  const sha = commits[1]!;
  const full = await ctx.g.api('GET', R('tree', `/a.txt?ref=${sha}`));
  assert.is(full.status, 200);
  assert.equal(full.body, at('a.txt', { ref: sha, refType: 'commit', content: true }));
  assert.is(full.body.html_url, `${ctx.g.url}/root/tree/src/commit/${sha}/a.txt`);
  assert.is(full.body.url, `${ctx.g.url}/api/v1/repos/root/tree/contents/a.txt?ref=${sha}`);
  // The id of an annotated tag object is peeled to its commit (Gitea's GetCommit); links keep the id given.
  const tagObject = revParse(gitDir, 'refs/tags/v2');
  assert.is.not(tagObject, commits[2]);
  const peeled = await ctx.g.api('GET', R('tree', `/a.txt?ref=${tagObject}`));
  assert.is(peeled.status, 200, peeled.text);
  assert.equal(peeled.body, at('a.txt', { ref: tagObject, refType: 'commit', rev: commits[2], content: true }));
  // Every entry of an older commit reports the last commit as of that commit.
  const list = await ctx.g.api('GET', R('tree', `?ref=${sha}`));
  assert.equal(list.body, list.body.map((e: any) => at(e.path, { ref: sha, refType: 'commit' })));
});

test('a short commit id, an unknown ref or a tag-like name that does not exist is 404 with Gitea\'s text', async () => {
  const { g } = ctx;
  for (const ref of [commits[1]!.slice(0, 7), commits[1]!.slice(0, 39), 'no-such-branch', 'f'.repeat(40), commits[1]!.toUpperCase()]) {
    const r = await g.api('GET', R('tree', `/a.txt?ref=${ref}`));
    assert.is(r.status, 404, ref);
    assert.equal(r.body, apiError(g, `object does not exist [id: ${ref}, rel_path: ]`), ref);
  }
  // A full id that names a tree, not a commit.
  const tree = revParse(gitDir, 'main^{tree}');
  const t = await g.api('GET', R('tree', `?ref=${tree}`));
  assert.is(t.status, 404);
  assert.equal(t.body, apiError(g, `object does not exist [id: ${tree}, rel_path: ]`));
});

test('a missing path is 404 naming the first missing component (or the whole path when only the last is missing)', async () => {
  const { g } = ctx;
  const cases: [string, string][] = [
    ['nope', 'nope'],
    ['docs/nope.md', 'docs/nope.md'],
    ['nodir/x/y', 'nodir'],
    ['docs/sub/x', 'sub'],
    ['docs/sub/deeper/x', 'sub'],
  ];
  for (const [path, rel] of cases) {
    const r = await g.api('GET', R('tree', `/${path}`));
    assert.is(r.status, 404, path);
    assert.equal(r.body, apiError(g, `object does not exist [id: , rel_path: ${rel}]`), path);
  }
  // Through a file or a submodule: the object that is not a tree is named.
  const blob = lsTree(gitDir, 'main', 'a.txt')!.sha;
  const f = await g.api('GET', R('tree', '/a.txt/x'));
  assert.is(f.status, 404);
  assert.equal(f.body, apiError(g, `object does not exist [id: ${blob}, rel_path: ]`));
  const s = await g.api('GET', R('tree', '/libs/sub/x'));
  assert.is(s.status, 404);
  assert.equal(s.body, apiError(g, `object does not exist [id: ${'1'.repeat(40)}, rel_path: ]`));
});

test('a .git component (any case) is 400; paths are cleaned (dots, duplicate slashes) before lookup', async () => {
  const { g } = ctx;
  for (const path of ['.git', '.git/config', 'docs/.GIT/x', '.Git']) {
    const r = await g.api('GET', R('tree', `/${path}`));
    assert.is(r.status, 400, path);
    assert.equal(r.body, apiError(g, `path contains a malformed path component [path: ${path}]`), path);
  }
  // `..` cannot climb out of the repository, `.` and empty segments vanish. The slashes are sent
  // encoded: the HTTP layer resolves literal (and %2E) dot segments before routing, as fetch would.
  const clean: [string, string][] = [
    ['docs%2F..%2Fa.txt', 'a.txt'],
    ['docs%2F..%2F..%2F..%2Fa.txt', 'a.txt'],
    ['.%2Fa.txt', 'a.txt'],
    ['docs%2F.%2Fguide.md', 'docs/guide.md'],
    ['docs%2F%2Fguide.md', 'docs/guide.md'],
  ];
  for (const [path, to] of clean) {
    const r = await rawRequest(g, 'GET', R('tree', `/${path}`));
    assert.is(r.status, 200, `${path}: ${r.text}`);
    assert.equal(r.body, at(to, { content: true }), path);
  }
  // A path that cleans to nothing is malformed.
  for (const [path, shown] of [['docs%2F..', 'docs/..'], ['.%2F', './'], ['..%2F..', '../..']] as const) {
    const none = await rawRequest(g, 'GET', R('tree', `/${path}`));
    assert.is(none.status, 400, path);
    assert.equal(none.body, apiError(g, `path contains a malformed path component [path: ${shown}]`), path);
  }
});

test('URLs escape spaces, unicode, # and ? in paths (path segments) and refs (query)', async () => {
  const { g } = ctx;
  await g.repo('escapes');
  const names = ['with space.txt', 'ünï cödé.txt', 'a#b.txt', 'q?.txt', 'dir one/x+y=z@w.txt', "it's (1) & $;,.txt"];
  const res = await g.commit('root', 'escapes', Object.fromEntries(names.map((n) => [n, n])));
  assert.is(res.files.length, names.length);
  const dir = gitDirOf(g, (await g.api('GET', '/api/v1/repos/root/escapes')).body.id);
  for (const name of names) {
    const r = await g.api('GET', `/api/v1/repos/root/escapes/contents/${name.split('/').map(encodeURIComponent).join('/')}`);
    assert.is(r.status, 200, name);
    const ls = lsTree(dir, 'main', name)!;
    assert.equal(r.body, entry(g, { owner: 'root', repo: 'escapes', path: name, sha: ls.sha, type: 'file', size: Buffer.byteLength(name), ref: 'main', refType: 'branch', last: lastOf(dir, 'main', name), content: b64(name) }), name);
  }
  const one = await g.api('GET', '/api/v1/repos/root/escapes/contents/a%23b.txt');
  assert.is(one.body.url, `${g.url}/api/v1/repos/root/escapes/contents/a%23b.txt?ref=main`);
  const sp = await g.api('GET', '/api/v1/repos/root/escapes/contents/with%20space.txt');
  assert.is(sp.body.html_url, `${g.url}/root/escapes/src/branch/main/with%20space.txt`);
  const uni = await g.api('GET', '/api/v1/repos/root/escapes/contents/%C3%BCn%C3%AF%20c%C3%B6d%C3%A9.txt');
  assert.is(uni.body.download_url, `${g.url}/root/escapes/raw/branch/main/%C3%BCn%C3%AF%20c%C3%B6d%C3%A9.txt`);
  const q = await g.api('GET', '/api/v1/repos/root/escapes/contents/q%3F.txt');
  assert.is(q.body.download_url, `${g.url}/root/escapes/raw/branch/main/q%3F.txt`);
  const misc = await g.api('GET', `/api/v1/repos/root/escapes/contents/${encodeURIComponent("it's (1) & $;,.txt")}`);
  assert.is(misc.body.html_url, `${g.url}/root/escapes/src/branch/main/it%27s%20%281%29%20&%20$%3B%2C.txt`);
  // A ref with characters that need query escaping is echoed escaped.
  const br = await g.api('GET', '/api/v1/repos/root/escapes/contents/b.txt?ref=feat%2Bplus');
  assert.is(br.status, 404);
  assert.equal(br.body, apiError(g, 'object does not exist [id: feat+plus, rel_path: ]'));
  await g.commit('root', 'escapes', { 'b.txt': 'b' }, { newBranch: 'feat+plus' });
  const ok = await g.api('GET', '/api/v1/repos/root/escapes/contents/b.txt?ref=feat%2Bplus');
  assert.is(ok.status, 200, ok.text);
  assert.is(ok.body.url, `${g.url}/api/v1/repos/root/escapes/contents/b.txt?ref=feat%2Bplus`);
  assert.is(ok.body.html_url, `${g.url}/root/escapes/src/branch/feat+plus/b.txt`);
});

test('a file above API_MAX_BLOB_SIZE is listed without content (encoding and content null)', async () => {
  const t = await startTestServer({ API_MAX_BLOB_SIZE: '16' });
  try {
    const w = await giteaWorld(t);
    const repo = await w.repo('big');
    await w.commit('root', 'big', { 'small.txt': '0123456789abcdef', 'big.txt': '0123456789abcdefg' });
    const dir = gitDirOf(w, repo.id);
    const small = await w.api('GET', '/api/v1/repos/root/big/contents/small.txt');
    assert.is(small.status, 200);
    assert.is(small.body.encoding, 'base64');
    assert.is(small.body.content, b64('0123456789abcdef'));
    const big = await w.api('GET', '/api/v1/repos/root/big/contents/big.txt');
    assert.is(big.status, 200);
    assert.equal(big.body, entry(w, { owner: 'root', repo: 'big', path: 'big.txt', sha: lsTree(dir, 'main', 'big.txt')!.sha, type: 'file', size: 17, ref: 'main', refType: 'branch', last: lastOf(dir, 'main', 'big.txt'), content: null }));
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test('an LFS pointer blob (1..1023 bytes, valid) gets lfs_oid and lfs_size; other blobs do not', async () => {
  const { g } = ctx;
  const repo = await g.repo('pointers');
  const dir = gitDirOf(g, repo.id);
  const oid = 'a'.repeat(64);
  const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 12345\n`;
  const badOid = `version https://git-lfs.github.com/spec/v1\noid sha256:${'g'.repeat(64)}\nsize 1\n`;
  const tooBig = `${pointer}${'x'.repeat(1024 - pointer.length)}`;
  // Gitea reads the oid and size lines by position: an extension line first hides them; a signed size is still a size.
  const withExt = `version https://git-lfs.github.com/spec/v1\next-0-foo sha256:${'b'.repeat(64)}\noid sha256:${oid}\nsize 3\n`;
  const signed = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize +12\n`;
  const negative = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize -1\n`;
  await g.commit('root', 'pointers', { 'p.bin': pointer, 'bad.bin': badOid, 'big.bin': tooBig, 'ext.bin': withExt, 'signed.bin': signed, 'neg.bin': negative });
  const sg = await g.api('GET', '/api/v1/repos/root/pointers/contents/signed.bin');
  assert.equal([sg.body.lfs_oid, sg.body.lfs_size], [oid, 12]);
  const p = await g.api('GET', '/api/v1/repos/root/pointers/contents/p.bin');
  assert.is(p.status, 200);
  assert.equal(
    p.body,
    entry(g, { owner: 'root', repo: 'pointers', path: 'p.bin', sha: lsTree(dir, 'main', 'p.bin')!.sha, type: 'file', size: pointer.length, ref: 'main', refType: 'branch', last: lastOf(dir, 'main', 'p.bin'), content: b64(pointer), lfs: { oid, size: 12345 } }),
  );
  assert.equal(Object.keys(p.body).slice(-2), ['lfs_oid', 'lfs_size']);
  for (const name of ['bad.bin', 'big.bin', 'ext.bin', 'neg.bin']) {
    const r = await g.api('GET', `/api/v1/repos/root/pointers/contents/${name}`);
    assert.is(r.status, 200);
    assert.not.ok('lfs_oid' in r.body, name);
    assert.not.ok('lfs_size' in r.body, name);
  }
  // Listings carry no LFS metadata (Gitea reads blobs only for a single file).
  const list = await g.api('GET', '/api/v1/repos/root/pointers/contents');
  assert.not.ok(list.body.some((e: any) => 'lfs_oid' in e));
});

test('an empty repository: /contents and /contents/{path} are 404', async () => {
  const { g } = ctx;
  await g.repo('void', { autoInit: false });
  for (const path of ['', '/README.md']) {
    const r = await g.api('GET', `/api/v1/repos/root/void/contents${path}`);
    assert.is(r.status, 404, path);
    assert.equal(r.body, apiError(g, 'object does not exist [id: main, rel_path: ]'), path);
  }
});

test('a private repository is invisible (404) to strangers and anonymous callers; its owner reads it', async () => {
  const { g } = ctx;
  const alice = await g.user('alice');
  const bob = await g.user('bob');
  await g.repo('secret', { owner: alice, private: true });
  for (const auth of [bob.auth, null, { basic: `${bob.name}:${bob.password}` }]) {
    for (const path of ['', '/README.md', '/nope']) {
      const r = await g.api('GET', `/api/v1/repos/alice/secret/contents${path}`, { auth });
      assert.is(r.status, 404, `${JSON.stringify(auth)} ${path}`);
      assert.equal(r.body, apiError(g, 'not found'));
    }
  }
  const own = await g.api('GET', '/api/v1/repos/alice/secret/contents/README.md', { auth: alice.auth });
  assert.is(own.status, 200);
  // A site admin sees it too.
  assert.is((await g.api('GET', '/api/v1/repos/alice/secret/contents')).status, 200);
  // A public repository is readable anonymously.
  await g.repo('open', { owner: alice });
  const anon = await g.api('GET', '/api/v1/repos/alice/open/contents/README.md', { auth: null });
  assert.is(anon.status, 200);
  assert.is(Buffer.from(anon.body.content, 'base64').toString(), '# open\n');
});

test('token scopes: no repository scope is 403 before the lookup; public-only tokens cannot read private repositories', async () => {
  const { g } = ctx;
  const carol = await g.user('carol');
  await g.repo('mine', { owner: carol, private: true });
  await g.repo('ours', { owner: carol });
  const userOnly = await g.token(carol, ['read:user']);
  for (const path of ['/api/v1/repos/carol/mine/contents', '/api/v1/repos/carol/ours/contents/README.md', '/api/v1/repos/nobody/nothing/contents']) {
    const r = await g.api('GET', path, { auth: { token: userOnly } });
    assert.is(r.status, 403, path);
    assert.equal(r.body, apiError(g, 'token does not have at least one of required scope(s), required=[read:repository], token scope=read:user'), path);
  }
  const publicOnly = await g.token(carol, ['public-only', 'read:repository']);
  const priv = await g.api('GET', '/api/v1/repos/carol/mine/contents', { auth: { token: publicOnly } });
  assert.is(priv.status, 403);
  assert.equal(priv.body, apiError(g, 'token scope is limited to public repos'));
  const pub = await g.api('GET', '/api/v1/repos/carol/ours/contents', { auth: { token: publicOnly } });
  assert.is(pub.status, 200);
  // read:repository is enough to read; a query token works as well.
  const reader = await g.token(carol, ['read:repository']);
  assert.is((await g.api('GET', '/api/v1/repos/carol/mine/contents/README.md', { auth: { token: reader } })).status, 200);
  assert.is((await g.api('GET', '/api/v1/repos/carol/mine/contents/README.md', { auth: { query: reader } })).status, 200);
  // Wrong credentials are 401 whatever the repository.
  const bad = await g.api('GET', '/api/v1/repos/carol/ours/contents', { auth: { token: 'f'.repeat(40) } });
  assert.is(bad.status, 401);
  assert.equal(bad.body, apiError(g, 'invalid username, password or token'));
});

test('last commit metadata keeps the commit\'s own time zone offsets', async () => {
  const { g } = ctx;
  await g.repo('zones');
  const r = await g.api('POST', '/api/v1/repos/root/zones/contents/z.txt', {
    json: { content: b64('z'), dates: { author: '2021-03-04T05:06:07+05:30', committer: '2022-01-02T03:04:05-08:00' } },
  });
  assert.is(r.status, 201, r.text);
  const got = await g.api('GET', '/api/v1/repos/root/zones/contents/z.txt');
  assert.is(got.body.last_commit_sha, r.body.commit.sha);
  assert.is(got.body.last_author_date, '2021-03-04T05:06:07+05:30');
  assert.is(got.body.last_committer_date, '2022-01-02T03:04:05-08:00');
  const dir = gitDirOf(g, (await g.api('GET', '/api/v1/repos/root/zones')).body.id);
  assert.equal(commitDates(dir, r.body.commit.sha), { author: '2021-03-04T05:06:07+05:30', committer: '2022-01-02T03:04:05-08:00' });
});

test.run();
