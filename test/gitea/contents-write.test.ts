import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ATTRIBUTE_STEPS } from '../../server/gitea/services/gitattributes.js';
import { RULE_CHECK_STEPS } from '../../server/gitea/services/protections.js';
import { apiError } from '../_helpers/api-error.js';
import { git, gitDirOf, sqlWrite, useGitea, type Account, type GiteaWorld } from '../_helpers/gitea.js';
import { A40, HOSTILE_GLOB, hostileWithPing } from '../_helpers/hostile.js';
import { b64, catBlob, entry, fsck, lastOf, lsTree, revParse, viaWorktree } from './_contents.js';

const test = suite('contents-write');
const ctx = useGitea(test);

const ZERO = '0001-01-01T00:00:00Z';
const UNSIGNED = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };
const gitDirs = new Set<string>();

const utc = (epoch: number) => new Date(epoch * 1000).toISOString().replace('.000Z', 'Z');

/** A commit object as git stores it. */
function readCommit(gitDir: string, sha: string) {
  const raw = git(['--git-dir', gitDir, 'cat-file', 'commit', sha]).stdout;
  const end = raw.indexOf('\n\n');
  const head = raw.slice(0, end).split('\n');
  const sig = (line: string) => {
    const m = /^\w+ (.*) <(.*)> (\d+) ([+-]\d{4})$/.exec(line)!;
    return { name: m[1]!, email: m[2]!, epoch: Number(m[3]), tz: m[4]! };
  };
  return {
    tree: head.find((l) => l.startsWith('tree '))!.slice(5),
    parents: head.filter((l) => l.startsWith('parent ')).map((l) => l.slice(7)),
    author: sig(head.find((l) => l.startsWith('author '))!),
    committer: sig(head.find((l) => l.startsWith('committer '))!),
    message: raw.slice(end + 2),
    raw,
  };
}

/** FileCommitResponse as Gitea builds it from the stored commit. */
function commitJson(g: GiteaWorld, owner: string, repo: string, gitDir: string, sha: string) {
  const c = readCommit(gitDir, sha);
  const api = `${g.url}/api/v1/repos/${owner}/${repo}`;
  return {
    url: `${api}/git/commits/${sha}`,
    sha,
    created: ZERO,
    html_url: `${g.url}/${owner}/${repo}/commit/${sha}`,
    author: { name: c.author.name, email: c.author.email, date: utc(c.author.epoch) },
    committer: { name: c.committer.name, email: c.committer.email, date: utc(c.committer.epoch) },
    parents: c.parents.map((p) => ({ url: `${api}/git/commits/${p}`, sha: p, created: ZERO })),
    message: c.message,
    tree: { url: `${api}/git/trees/${c.tree}`, sha: c.tree, created: ZERO },
  };
}

/** A file's ContentsResponse (with content) at `rev`, as a write answers it (`ref` = the branch written). */
function fileJson(g: GiteaWorld, owner: string, repo: string, gitDir: string, rev: string, path: string, ref: string) {
  const ls = lsTree(gitDir, rev, path)!;
  const buf = catBlob(gitDir, ls.sha);
  const type = ls.mode === '120000' ? 'symlink' : 'file';
  return entry(g, {
    owner,
    repo,
    path,
    sha: ls.sha,
    type,
    size: buf.length,
    ref,
    refType: 'branch',
    last: lastOf(gitDir, rev, path),
    content: type === 'file' ? buf.toString('base64') : null,
    target: type === 'symlink' ? buf.toString() : null,
  });
}

interface Repo {
  name: string;
  id: number;
  dir: string;
}

let repoCount = 0;
async function newRepo(opts: { autoInit?: boolean; owner?: Account; private?: boolean } = {}): Promise<Repo> {
  const name = `w${++repoCount}`;
  const r = await ctx.g.repo(name, opts);
  const dir = gitDirOf(ctx.g, r.id);
  gitDirs.add(dir);
  return { name, id: r.id, dir };
}

const C = (repo: Repo, path = '') => `/api/v1/repos/root/${repo.name}/contents${path ? `/${path.split('/').map(encodeURIComponent).join('/')}` : ''}`;
const blobSha = (repo: Repo, path: string, rev = 'main') => lsTree(repo.dir, rev, path)!.sha;
const show = (repo: Repo, path: string, rev = 'main') => git(['--git-dir', repo.dir, 'show', `${rev}:${path}`]).stdout;

test('create: 201 FileResponse with the file, the commit (Gitea\'s shape) and an unsigned verification', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  const before = revParse(repo.dir, 'main');
  const r = await g.api('POST', C(repo, 'docs/new file.txt'), { json: { content: b64('hello\n') } });
  assert.is(r.status, 201, r.text);
  const head = revParse(repo.dir, 'main');
  assert.is(r.body.commit.sha, head);
  assert.equal(r.body, {
    content: fileJson(g, 'root', repo.name, repo.dir, head, 'docs/new file.txt', 'main'),
    commit: commitJson(g, 'root', repo.name, repo.dir, head),
    verification: UNSIGNED,
  });
  assert.equal(Object.keys(r.body), ['content', 'commit', 'verification']);
  assert.equal(Object.keys(r.body.commit), ['url', 'sha', 'created', 'html_url', 'author', 'committer', 'parents', 'message', 'tree']);
  assert.equal(r.body.commit.parents, [{ url: `${g.url}/api/v1/repos/root/${repo.name}/git/commits/${before}`, sha: before, created: ZERO }]);
  assert.is(r.body.commit.message, 'Add docs/new file.txt\n');
  assert.is(r.body.content.last_commit_sha, head);
  assert.is(r.body.content.url, `${g.url}/api/v1/repos/root/${repo.name}/contents/docs/new%20file.txt?ref=main`);
  assert.match(r.body.commit.author.date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.is(show(repo, 'docs/new file.txt'), 'hello\n');
  assert.is(lsTree(repo.dir, 'main', 'docs/new file.txt')!.mode, '100644');
  // The doer is author and committer: root has no full name, so its user name.
  const c = readCommit(repo.dir, head);
  assert.equal([c.author.name, c.author.email, c.committer.name, c.committer.email], ['root', r.body.commit.author.email, 'root', r.body.commit.author.email]);
  // A second create of the same path is refused.
  const again = await g.api('POST', C(repo, 'docs/new file.txt'), { json: { content: b64('x') } });
  assert.is(again.status, 422);
  assert.equal(again.body, apiError(g, 'repository file already exists [path: docs/new file.txt]'));
  assert.is(revParse(repo.dir, 'main'), head, 'a refused write moves nothing');
});

test('update: 200 with the right sha; a wrong sha is 422 naming both; without sha the file is written (201)', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  await g.commit('root', repo.name, { 'a.txt': 'one\n' });
  const old = blobSha(repo, 'a.txt');
  const wrong = await g.api('PUT', C(repo, 'a.txt'), { json: { content: b64('two\n'), sha: 'f'.repeat(40) } });
  assert.is(wrong.status, 422);
  assert.equal(wrong.body, apiError(g, `sha does not match [given: ${'f'.repeat(40)}, expected: ${old}]`));

  const r = await g.api('PUT', C(repo, 'a.txt'), { json: { content: b64('two\n'), sha: old } });
  assert.is(r.status, 200, r.text);
  const head = revParse(repo.dir, 'main');
  assert.equal(r.body, { content: fileJson(g, 'root', repo.name, repo.dir, head, 'a.txt', 'main'), commit: commitJson(g, 'root', repo.name, repo.dir, head), verification: UNSIGNED });
  assert.is(r.body.commit.message, 'Update a.txt\n');
  assert.is(show(repo, 'a.txt'), 'two\n');

  // The sha is of the file being replaced: the old one no longer matches.
  const stale = await g.api('PUT', C(repo, 'a.txt'), { json: { content: b64('three\n'), sha: old } });
  assert.is(stale.status, 422);
  assert.equal(stale.body, apiError(g, `sha does not match [given: ${old}, expected: ${blobSha(repo, 'a.txt')}]`));

  // Current Gitea: an update without sha writes the file (existing or not) and answers 201.
  const blind = await g.api('PUT', C(repo, 'a.txt'), { json: { content: b64('blind\n') } });
  assert.is(blind.status, 201, blind.text);
  assert.is(show(repo, 'a.txt'), 'blind\n');
  assert.is(blind.body.commit.message, 'Update a.txt\n');
  const fresh = await g.api('PUT', C(repo, 'sub/fresh.txt'), { json: { content: b64('fresh\n') } });
  assert.is(fresh.status, 201);
  assert.equal(fresh.body.content, fileJson(g, 'root', repo.name, repo.dir, 'main', 'sub/fresh.txt', 'main'));

  // Updating a file that does not exist (with a sha) is 404 with Gitea's lookup text.
  const missing = await g.api('PUT', C(repo, 'nope/x.txt'), { json: { content: b64('x'), sha: old } });
  assert.is(missing.status, 404);
  assert.equal(missing.body, apiError(g, 'object does not exist [id: , rel_path: nope]'));
  const missing2 = await g.api('PUT', C(repo, 'sub/none.txt'), { json: { content: b64('x'), sha: old } });
  assert.is(missing2.status, 404);
  assert.equal(missing2.body, apiError(g, 'object does not exist [id: , rel_path: sub/none.txt]'));

  // Rewriting identical content still commits; the file's last commit stays the one that changed it.
  const same = blobSha(repo, 'sub/fresh.txt');
  const noop = await g.api('PUT', C(repo, 'sub/fresh.txt'), { json: { content: b64('fresh\n'), sha: same } });
  assert.is(noop.status, 200);
  assert.is.not(noop.body.commit.sha, fresh.body.commit.sha);
  assert.is(noop.body.content.last_commit_sha, fresh.body.commit.sha);
});

test('rename through from_path: the old path goes, the new one holds the new content', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  await g.commit('root', repo.name, { 'old/name.txt': 'v1\n', 'taken.txt': 't\n' });
  const sha = blobSha(repo, 'old/name.txt');
  const r = await g.api('PUT', C(repo, 'new/name.txt'), { json: { content: b64('v2\n'), sha, from_path: 'old/name.txt' } });
  assert.is(r.status, 200, r.text);
  assert.is(lsTree(repo.dir, 'main', 'old/name.txt'), undefined);
  assert.is(lsTree(repo.dir, 'main', 'old'), undefined, 'the emptied directory is gone');
  assert.is(show(repo, 'new/name.txt'), 'v2\n');
  assert.equal(r.body.content, fileJson(g, 'root', repo.name, repo.dir, 'main', 'new/name.txt', 'main'));
  assert.is(r.body.commit.message, 'Update new/name.txt\n');
  // Onto an existing file: refused.
  const onto = await g.api('PUT', C(repo, 'taken.txt'), { json: { content: b64('x'), sha: blobSha(repo, 'new/name.txt'), from_path: 'new/name.txt' } });
  assert.is(onto.status, 422);
  assert.equal(onto.body, apiError(g, 'repository file already exists [path: taken.txt]'));
  // From a path that does not exist: 404.
  const gone = await g.api('PUT', C(repo, 'x.txt'), { json: { content: b64('x'), sha, from_path: 'old/name.txt' } });
  assert.is(gone.status, 404);
  assert.equal(gone.body, apiError(g, 'object does not exist [id: , rel_path: old]'));
  // Without a sha a move is still a move (201, as an update without sha).
  const blind = await g.api('PUT', C(repo, 'moved.txt'), { json: { content: b64('moved\n'), from_path: 'taken.txt' } });
  assert.is(blind.status, 201, blind.text);
  assert.is(lsTree(repo.dir, 'main', 'taken.txt'), undefined);
  assert.is(show(repo, 'moved.txt'), 'moved\n');
  // from_path cannot name anything outside the repository's tree.
  // `..` is cleaned away (Gitea's CleanUploadFileName), so ../../outside.txt is the tree's outside.txt.
  const cases: [string, number, string][] = [
    ['.git/config', 422, 'path contains a malformed path component [path: .git/config]'],
    ['a/.GIT/hooks', 422, 'path contains a malformed path component [path: a/.GIT/hooks]'],
    ['../../outside.txt', 404, 'object does not exist [id: , rel_path: outside.txt]'],
  ];
  for (const [from, status, message] of cases) {
    const r = await g.api('PUT', C(repo, 'stolen.txt'), { json: { content: b64('x'), from_path: from } });
    assert.is(r.status, status, from);
    assert.equal(r.body, apiError(g, message));
  }
  assert.is(lsTree(repo.dir, 'main', 'stolen.txt'), undefined);
});

test('delete: 200 FileDeleteResponse; sha required and checked (400), missing file or branch 404', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  await g.commit('root', repo.name, { 'd/x.txt': 'x\n', 'd/y.txt': 'y\n' });
  const sha = blobSha(repo, 'd/x.txt');
  const noSha = await g.api('DELETE', C(repo, 'd/x.txt'), { json: {} });
  assert.is(noSha.status, 400);
  assert.equal(noSha.body, apiError(g, 'a SHA or commit ID must be proved when updating a file'));
  const wrong = await g.api('DELETE', C(repo, 'd/x.txt'), { json: { sha: 'a'.repeat(40) } });
  assert.is(wrong.status, 400);
  assert.equal(wrong.body, apiError(g, `sha does not match [given: ${'a'.repeat(40)}, expected: ${sha}]`));
  const missing = await g.api('DELETE', C(repo, 'd/none.txt'), { json: { sha } });
  assert.is(missing.status, 404);
  assert.equal(missing.body, apiError(g, 'repository file does not exist [path: d/none.txt]'));
  const dir = await g.api('DELETE', C(repo, 'd'), { json: { sha } });
  assert.is(dir.status, 404);
  assert.equal(dir.body, apiError(g, 'repository file does not exist [path: d]'));
  const noBranch = await g.api('DELETE', C(repo, 'd/x.txt'), { json: { sha, branch: 'nope' } });
  assert.is(noBranch.status, 404);
  assert.equal(noBranch.body, apiError(g, `branch does not exist [repo_id: ${repo.id} name: nope]`));
  const bad = await g.api('DELETE', C(repo, '.git/x'), { json: { sha } });
  assert.is(bad.status, 400);
  assert.equal(bad.body, apiError(g, 'path contains a malformed path component [path: .git/x]'));

  const r = await g.api('DELETE', C(repo, 'd/x.txt'), { json: { sha } });
  assert.is(r.status, 200, r.text);
  const head = revParse(repo.dir, 'main');
  assert.equal(r.body, { content: null, commit: commitJson(g, 'root', repo.name, repo.dir, head), verification: UNSIGNED });
  assert.is(r.body.commit.message, 'Delete d/x.txt\n');
  assert.is(lsTree(repo.dir, 'main', 'd/x.txt'), undefined);
  assert.is(show(repo, 'd/y.txt'), 'y\n');
  // Deleting the last file of a directory removes the directory.
  await g.api('DELETE', C(repo, 'd/y.txt'), { json: { sha: blobSha(repo, 'd/y.txt') } });
  assert.is(lsTree(repo.dir, 'main', 'd'), undefined);
});

test('ChangeFiles: create, update, upload, rename and delete in one commit; files in request order, null for deletes', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  await g.commit('root', repo.name, { 'b.txt': 'b1\n', 'd.txt': 'd1\n', 'e.txt': 'e1\n', 'g.txt': 'g1\n' });
  const before = revParse(repo.dir, 'main');
  const r = await g.api('POST', C(repo), {
    json: {
      files: [
        { operation: 'create', path: 'a.txt', content: b64('a\n') },
        { operation: 'update', path: 'b.txt', content: b64('b2\n'), sha: blobSha(repo, 'b.txt') },
        { operation: 'upload', path: 'c.txt', content: b64('c\n') },
        { operation: 'upload', path: 'd.txt', content: b64('d2\n') },
        { operation: 'rename', path: 'dir/f.txt', from_path: 'e.txt' },
        { operation: 'delete', path: 'g.txt', sha: blobSha(repo, 'g.txt') },
      ],
    },
  });
  assert.is(r.status, 201, r.text);
  const head = revParse(repo.dir, 'main');
  assert.equal(readCommit(repo.dir, head).parents, [before], 'one commit on top of the old head');
  const file = (p: string) => fileJson(g, 'root', repo.name, repo.dir, head, p, 'main');
  assert.equal(r.body, {
    files: [file('a.txt'), file('b.txt'), file('c.txt'), file('d.txt'), file('dir/f.txt'), null],
    commit: commitJson(g, 'root', repo.name, repo.dir, head),
    verification: UNSIGNED,
  });
  assert.is(r.body.commit.message, 'Add a.txt\nUpdate b.txt, c.txt, d.txt, dir/f.txt\nDelete g.txt\n');
  assert.equal(
    git(['--git-dir', repo.dir, 'ls-tree', '-r', '--name-only', 'main']).stdout.trim().split('\n'),
    ['README.md', 'a.txt', 'b.txt', 'c.txt', 'd.txt', 'dir/f.txt'],
  );
  assert.equal(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'dir/f.txt'].map((p) => show(repo, p)), ['a\n', 'b2\n', 'c\n', 'd2\n', 'e1\n']);
  // The rename kept the object.
  assert.is(blobSha(repo, 'dir/f.txt'), blobSha(repo, 'e.txt', before));
  // Every written file's last commit is this one.
  for (const f of r.body.files.slice(0, 5)) assert.is(f.last_commit_sha, head);
});

test('ChangeFiles applies operations in order: later ones see earlier ones', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  const created = b64('first\n');
  const sha1 = git(['hash-object', '--stdin'], { input: 'first\n' }).stdout.trim();
  const r = await g.api('POST', C(repo), {
    json: {
      message: 'in order',
      files: [
        { operation: 'create', path: 'x.txt', content: created },
        { operation: 'update', path: 'x.txt', content: b64('second\n'), sha: sha1 },
        { operation: 'rename', path: 'y.txt', from_path: 'x.txt' },
        { operation: 'create', path: 'tmp.txt', content: b64('tmp') },
        { operation: 'delete', path: 'tmp.txt' },
      ],
    },
  });
  assert.is(r.status, 201, r.text);
  const head = revParse(repo.dir, 'main');
  // x.txt and tmp.txt are gone by the end: their entries are null, as Gitea reads every path back from the new commit.
  assert.equal(r.body.files, [null, null, fileJson(g, 'root', repo.name, repo.dir, head, 'y.txt', 'main'), null, null]);
  assert.is(show(repo, 'y.txt'), 'second\n');
  assert.is(r.body.commit.message, 'in order\n');
  // A file changed and put back within one request is not changed by the commit: its last commit stays the old one.
  const yBefore = r.body.commit.sha;
  const back = await g.api('POST', C(repo), {
    json: {
      files: [
        { operation: 'update', path: 'y.txt', content: b64('changed\n'), sha: blobSha(repo, 'y.txt') },
        { operation: 'upload', path: 'y.txt', content: b64('second\n') },
        { operation: 'create', path: 'w.txt', content: b64('w') },
      ],
    },
  });
  assert.is(back.status, 201, back.text);
  assert.is(back.body.files[0].last_commit_sha, yBefore);
  assert.is(back.body.files[2].last_commit_sha, back.body.commit.sha);
  const listed = await g.api('GET', C(repo));
  assert.equal(listed.body.filter((e: any) => e.name !== 'README.md').map((e: any) => [e.name, e.last_commit_sha]), [['w.txt', back.body.commit.sha], ['y.txt', yBefore]]);
  const head2 = revParse(repo.dir, 'main');
  // A bad operation anywhere refuses the whole request.
  const bad = await g.api('POST', C(repo), {
    json: { files: [{ operation: 'create', path: 'z.txt', content: b64('z') }, { operation: 'create', path: 'y.txt', content: b64('dup') }] },
  });
  assert.is(bad.status, 422);
  assert.equal(bad.body, apiError(g, 'repository file already exists [path: y.txt]'));
  assert.is(revParse(repo.dir, 'main'), head2);
  assert.is(lsTree(repo.dir, 'main', 'z.txt'), undefined);
});

test('commit messages: default per operation group, custom trimmed, every one ending in a newline; sign-off trailer', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  const msg = async (json: object) => {
    const r = await g.api('POST', C(repo), { json });
    assert.is(r.status, 201, r.text);
    return readCommit(repo.dir, r.body.commit.sha).message;
  };
  assert.is(await msg({ files: [{ operation: 'create', path: 'a', content: b64('a') }, { operation: 'create', path: 'b', content: b64('b') }] }), 'Add a, b\n');
  assert.is(
    await msg({
      files: [
        { operation: 'create', path: 'c', content: b64('c') },
        { operation: 'update', path: 'a', content: b64('a2'), sha: blobSha(repo, 'a') },
        { operation: 'delete', path: 'b', sha: blobSha(repo, 'b') },
        { operation: 'upload', path: 'd', content: b64('d') },
      ],
    }),
    'Add c\nUpdate a, d\nDelete b\n',
  );
  assert.is(await msg({ files: [{ operation: 'delete', path: 'c', sha: blobSha(repo, 'c') }] }), 'Delete c\n');
  assert.is(await msg({ message: '  Subject line\n\nBody text.  \n\n\n', files: [{ operation: 'upload', path: 'a', content: b64('a3') }] }), 'Subject line\n\nBody text.\n');
  assert.is(await msg({ message: 'no newline', files: [{ operation: 'upload', path: 'a', content: b64('a4') }] }), 'no newline\n');
  // Only white space: Gitea trims it to nothing (the message is not empty, so no default).
  assert.is(await msg({ message: ' \n\t ', files: [{ operation: 'upload', path: 'a', content: b64('a5') }] }), '\n');
  // Sign-off by the committer; Gitea writes the trailer without a final newline.
  assert.is(
    await msg({ message: 'signed', signoff: true, committer: { name: 'Cee Committer', email: 'cee@example.com' }, files: [{ operation: 'upload', path: 'a', content: b64('a6') }] }),
    'signed\n\nSigned-off-by: Cee Committer <cee@example.com>',
  );
  assert.is(await msg({ signoff: true, files: [{ operation: 'upload', path: 'a', content: b64('a7') }] }), `Update a\n\nSigned-off-by: root <${readCommit(repo.dir, 'main').committer.email}>`);
  // The single-file endpoints too.
  const one = await g.api('POST', C(repo, 'e'), { json: { content: b64('e'), message: 'Create e', signoff: true, author: { name: 'Ann', email: 'ann@example.com' } } });
  assert.is(one.body.commit.message, 'Create e\n\nSigned-off-by: Ann <ann@example.com>');
  assert.is(readCommit(repo.dir, one.body.commit.sha).message, one.body.commit.message);
});

test('author and committer: one given fills the other, field by field; none is the doer; git\'s identity cleaning', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  let n = 0;
  const write = async (json: object) => {
    const r = await g.api('POST', C(repo, `f${++n}`), { json: { content: b64(String(n)), ...json } });
    assert.is(r.status, 201, r.text);
    const c = readCommit(repo.dir, r.body.commit.sha);
    assert.equal(r.body.commit.author, { name: c.author.name, email: c.author.email, date: utc(c.author.epoch) });
    assert.equal(r.body.commit.committer, { name: c.committer.name, email: c.committer.email, date: utc(c.committer.epoch) });
    return [c.author.name, c.author.email, c.committer.name, c.committer.email];
  };
  const ann = { name: 'Ann Author', email: 'ann@example.com' };
  const cee = { name: 'Cee Committer', email: 'cee@example.com' };
  assert.equal(await write({ author: ann, committer: cee }), [ann.name, ann.email, cee.name, cee.email]);
  assert.equal(await write({ author: ann }), [ann.name, ann.email, ann.name, ann.email]);
  assert.equal(await write({ committer: cee }), [cee.name, cee.email, cee.name, cee.email]);
  const doerEmail = readCommit(repo.dir, 'main~3').author.email;
  assert.equal(await write({}), ['root', doerEmail, 'root', doerEmail]);
  // Field by field (Gitea's makeGitUserSignature): a missing email comes from the other identity, then the doer.
  assert.equal(await write({ author: { name: 'Only Name' }, committer: cee }), ['Only Name', cee.email, cee.name, cee.email]);
  assert.equal(await write({ author: { email: 'only@example.com' } }), ['root', 'only@example.com', 'root', 'only@example.com']);
  // A user with a full name commits under it.
  const eve = await g.user('eve');
  const id = (await g.api('GET', '/api/v1/users/eve')).body.id;
  sqlWrite(g, "UPDATE users SET full_name = ' Eve Example ' WHERE id = ?", id);
  await g.api('PUT', `/api/v1/repos/root/${repo.name}/collaborators/eve`, { json: { permission: 'write' } });
  const byEve = await g.api('POST', C(repo, 'eve.txt'), { json: { content: b64('eve') }, auth: eve.auth });
  assert.is(byEve.status, 201, byEve.text);
  assert.equal([byEve.body.commit.author.name, byEve.body.commit.author.email], ['Eve Example', 'eve@example.com']);
  // Git strips crud (white space, `.,:;<>"\'`) from the ends and drops `<`, `>` and line feeds; the answer shows what git stored.
  assert.equal(await write({ author: { name: ' "Dr. <Who>". ', email: '<who@example.com>' } }), ['Dr. Who', 'who@example.com', 'Dr. Who', 'who@example.com']);
});

test('dates keep their offsets in git; CommitUser dates are UTC; an unset date is now', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  const r = await g.api('POST', C(repo, 'dated.txt'), {
    json: { content: b64('d'), dates: { author: '2020-01-02T03:04:05+05:30', committer: '2021-02-03T04:05:06-07:00' } },
  });
  assert.is(r.status, 201, r.text);
  const c = readCommit(repo.dir, r.body.commit.sha);
  assert.equal([c.author.epoch, c.author.tz], [Date.parse('2020-01-02T03:04:05+05:30') / 1000, '+0530']);
  assert.equal([c.committer.epoch, c.committer.tz], [Date.parse('2021-02-03T04:05:06-07:00') / 1000, '-0700']);
  assert.is(r.body.commit.author.date, '2020-01-01T21:34:05Z');
  assert.is(r.body.commit.committer.date, '2021-02-03T11:05:06Z');
  // The file's last-commit dates keep the offsets (time.Time as stored).
  assert.is(r.body.content.last_author_date, '2020-01-02T03:04:05+05:30');
  assert.is(r.body.content.last_committer_date, '2021-02-03T04:05:06-07:00');
  // Only the author date given: the committer date is now; Go's zero time counts as unset.
  const t0 = Math.floor(Date.now() / 1000);
  const one = await g.api('POST', C(repo, 'one.txt'), { json: { content: b64('1'), dates: { author: '2019-05-06T07:08:09Z', committer: ZERO } } });
  assert.is(one.status, 201, one.text);
  const c1 = readCommit(repo.dir, one.body.commit.sha);
  assert.is(c1.author.epoch, Date.parse('2019-05-06T07:08:09Z') / 1000);
  assert.ok(c1.committer.epoch >= t0 && c1.committer.epoch <= Math.floor(Date.now() / 1000) + 1, 'committer date is now');
  assert.is(c1.committer.tz, '+0000', 'now, in the server\'s zone (TZ=UTC in tests)');
  // Fractional seconds are dropped, as RFC 3339 formatting does.
  const frac = await g.api('POST', C(repo, 'frac.txt'), { json: { content: b64('f'), dates: { author: '2018-01-01T00:00:00.999+01:00', committer: '2018-01-01T00:00:00.5Z' } } });
  assert.is(frac.status, 201);
  assert.is(frac.body.commit.author.date, '2017-12-31T23:00:00Z');
  assert.is(frac.body.commit.committer.date, '2018-01-01T00:00:00Z');
  // A date that is not RFC 3339 is a bind error.
  const bad = await g.api('POST', C(repo, 'bad.txt'), { json: { content: b64('b'), dates: { author: 'yesterday' } } });
  assert.is(bad.status, 422);
  assert.equal(bad.body, apiError(g, '[]: parsing time "\\"yesterday\\"" as "\\"2006-01-02T15:04:05Z07:00\\"": cannot parse "yesterday" as RFC 3339'));
});

test('new_branch: created from branch; an existing one is 422 unless force_push, which moves it', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  await g.commit('root', repo.name, { 'base.txt': 'base\n' });
  const main = revParse(repo.dir, 'main');
  const r = await g.api('POST', C(repo, 'feature.txt'), { json: { content: b64('f\n'), new_branch: 'feature/one' } });
  assert.is(r.status, 201, r.text);
  const head = revParse(repo.dir, 'feature/one');
  assert.is(r.body.commit.sha, head);
  assert.is(revParse(repo.dir, 'main'), main, 'the base branch does not move');
  assert.equal(readCommit(repo.dir, head).parents, [main]);
  assert.equal(r.body.content, fileJson(g, 'root', repo.name, repo.dir, head, 'feature.txt', 'feature/one'));
  assert.is(r.body.content.url, `${g.url}/api/v1/repos/root/${repo.name}/contents/feature.txt?ref=feature%2Fone`);
  assert.is(r.body.content.html_url, `${g.url}/root/${repo.name}/src/branch/feature/one/feature.txt`);

  const exists = await g.api('POST', C(repo, 'other.txt'), { json: { content: b64('o'), new_branch: 'feature/one' } });
  assert.is(exists.status, 422);
  assert.equal(exists.body, apiError(g, 'branch already exists [name: feature/one]'));
  // The base branch must exist.
  const noBase = await g.api('POST', C(repo, 'other.txt'), { json: { content: b64('o'), branch: 'ghost', new_branch: 'x' } });
  assert.is(noBase.status, 404);
  assert.equal(noBase.body, apiError(g, `branch does not exist [repo_id: ${repo.id} name: ghost]`));

  // force_push: the branch is rewritten to a commit on top of `branch` (main), dropping feature.txt.
  const forced = await g.api('POST', C(repo, 'other.txt'), { json: { content: b64('o\n'), branch: 'main', new_branch: 'feature/one', force_push: true } });
  assert.is(forced.status, 201, forced.text);
  const after = revParse(repo.dir, 'feature/one');
  assert.is(forced.body.commit.sha, after);
  assert.equal(readCommit(repo.dir, after).parents, [main]);
  assert.is(lsTree(repo.dir, 'feature/one', 'feature.txt'), undefined);
  // Writing to a non-default existing branch.
  const onBranch = await g.api('PUT', C(repo, 'other.txt'), { json: { content: b64('o2\n'), sha: blobSha(repo, 'other.txt', 'feature/one'), branch: 'feature/one' } });
  assert.is(onBranch.status, 200, onBranch.text);
  assert.is(onBranch.body.content.url, `${g.url}/api/v1/repos/root/${repo.name}/contents/other.txt?ref=feature%2Fone`);
  assert.is(revParse(repo.dir, 'main'), main);
  // Branch names are git ref names.
  const badName = await g.api('POST', C(repo, 'x.txt'), { json: { content: b64('x'), new_branch: 'bad..name' } });
  assert.is(badName.status, 422);
  assert.equal(badName.body, apiError(g, '[NewBranchName]: GitRefName'));
});

test('an empty repository: the first write creates the branch (and makes it the default); update is 422', async () => {
  const { g } = ctx;
  const repo = await newRepo({ autoInit: false });
  const upd = await g.api('PUT', C(repo, 'a.txt'), { json: { content: b64('a'), sha: 'a'.repeat(40) } });
  assert.is(upd.status, 422);
  assert.equal(upd.body, apiError(g, 'repo is empty'));
  const del = await g.api('DELETE', C(repo, 'a.txt'), { json: { sha: 'a'.repeat(40) } });
  assert.is(del.status, 404);
  assert.equal(del.body, apiError(g, 'branch does not exist [name: main]'));
  const r = await g.api('POST', C(repo, 'first.txt'), { json: { content: b64('first\n') } });
  assert.is(r.status, 201, r.text);
  const head = revParse(repo.dir, 'main');
  assert.equal(r.body, { content: fileJson(g, 'root', repo.name, repo.dir, head, 'first.txt', 'main'), commit: commitJson(g, 'root', repo.name, repo.dir, head), verification: UNSIGNED });
  assert.equal(r.body.commit.parents, []);
  const info = await g.api('GET', `/api/v1/repos/root/${repo.name}`);
  assert.is(info.body.empty, false);
  assert.is(info.body.default_branch, 'main');

  // Another empty repository, first written on `dev`: dev becomes the default branch (and HEAD).
  const other = await newRepo({ autoInit: false });
  const dev = await g.api('POST', C(other), { json: { branch: 'dev', files: [{ operation: 'create', path: 'x.txt', content: b64('x') }] } });
  assert.is(dev.status, 201, dev.text);
  assert.is(dev.body.files[0].url, `${g.url}/api/v1/repos/root/${other.name}/contents/x.txt?ref=dev`);
  assert.is((await g.api('GET', `/api/v1/repos/root/${other.name}`)).body.default_branch, 'dev');
  assert.is(git(['--git-dir', other.dir, 'symbolic-ref', 'HEAD']).stdout.trim(), 'refs/heads/dev');
  assert.is((await g.api('GET', `/api/v1/repos/root/${other.name}/contents/x.txt`)).status, 200);
});

test('invalid base64 is 422 with Go\'s decoder text and offset', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  const cases: [string, number][] = [
    ['!!!!', 0],
    ['abc', 0],
    ['abcde', 4],
    ['ab=c', 2],
    ['YQ=', 3],
    ['YQ==YQ==', 4],
    ['YW\nJj!', 5],
  ];
  for (const [content, at] of cases) {
    const r = await g.api('POST', C(repo, 'x.txt'), { json: { content } });
    assert.is(r.status, 422, content);
    assert.equal(r.body, apiError(g, `illegal base64 data at input byte ${at}`), content);
  }
  // Line breaks are skipped, as Go's decoder does.
  const wrapped = await g.api('POST', C(repo, 'wrapped.txt'), { json: { content: 'aGVs\nbG8=\r\n' } });
  assert.is(wrapped.status, 201, wrapped.text);
  assert.is(show(repo, 'wrapped.txt'), 'hello');
  // Every ChangeFiles entry is decoded, a delete's too.
  const ch = await g.api('POST', C(repo), { json: { files: [{ operation: 'delete', path: 'wrapped.txt', content: 'a' }] } });
  assert.is(ch.status, 422);
  assert.equal(ch.body, apiError(g, 'illegal base64 data at input byte 0'));
  const up = await g.api('PUT', C(repo, 'wrapped.txt'), { json: { content: '***' } });
  assert.is(up.status, 422);
  assert.equal(up.body, apiError(g, 'illegal base64 data at input byte 0'));
  // An empty file is fine.
  const empty = await g.api('POST', C(repo, 'empty.txt'), { json: { content: '' } });
  assert.is(empty.status, 422, 'content is Required (an empty string is Go\'s zero value)');
  assert.equal(empty.body, apiError(g, '[ContentBase64]: Required'));
});

test('path errors: malformed paths, a file or symlink in the way, a directory in place, an existing file', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  await g.commit('root', repo.name, { 'file.txt': 'f', 'dir/inner.txt': 'i' });
  await viaWorktree(g, repo.id, (dir, run) => {
    symlinkSync('dir', join(dir, 'link'));
    run('add', 'link');
    run('commit', '--quiet', '-m', 'link');
  });
  const post = (path: string) => g.api('POST', C(repo), { json: { files: [{ operation: 'create', path, content: b64('x') }] } });
  const expect = async (path: string, status: number, message: string) => {
    const r = await post(path);
    assert.is(r.status, status, `${path}: ${r.text}`);
    assert.equal(r.body, apiError(g, message), path);
  };
  for (const path of ['.git/config', 'a/.GIT/b', '..', './', '../..', '']) {
    if (path === '') continue; // empty is a bind error, below
    await expect(path, 422, `path contains a malformed path component [path: ${path}]`);
  }
  await expect('file.txt/sub.txt', 422, 'a file exists where you’re trying to create a subdirectory [path: file.txt]');
  await expect('file.txt/a/b.txt', 422, 'a file exists where you’re trying to create a subdirectory [path: file.txt]');
  // A symbolic link on the way is a file to Gitea; at the end of the path it has its own text.
  await expect('link/x.txt', 422, 'a file exists where you’re trying to create a subdirectory [path: link]');
  await expect('link', 422, 'a symbolic link exists where you’re trying to create a subdirectory [path: link]');
  const upl = await g.api('PUT', C(repo, 'link'), { json: { content: b64('x') } });
  assert.is(upl.status, 422);
  assert.equal(upl.body, apiError(g, 'a symbolic link exists where you’re trying to create a subdirectory [path: link]'));
  await expect('dir', 422, 'a directory exists where you’re trying to create a file [path: dir]');
  const upDir = await g.api('PUT', C(repo, 'dir'), { json: { content: b64('x') } });
  assert.is(upDir.status, 422);
  assert.equal(upDir.body, apiError(g, 'a directory exists where you’re trying to create a file [path: dir]'));
  await expect('file.txt', 422, 'repository file already exists [path: file.txt]');
  await expect('dir/inner.txt', 422, 'repository file already exists [path: dir/inner.txt]');
  // Paths are cleaned before use: dir/../new.txt is new.txt.
  const cleaned = await post('dir/../new.txt');
  assert.is(cleaned.status, 201, cleaned.text);
  assert.is(cleaned.body.files[0].path, 'new.txt');
  assert.is(show(repo, 'new.txt'), 'x');
  // The single-file endpoint with a .git path.
  const single = await g.api('POST', C(repo, '.git/hooks/x'), { json: { content: b64('x') } });
  assert.is(single.status, 422);
  assert.equal(single.body, apiError(g, 'path contains a malformed path component [path: .git/hooks/x]'));
  // A path error comes after the branch check (Gitea's order).
  const order = await g.api('POST', C(repo), { json: { branch: 'ghost', files: [{ operation: 'create', path: '.git/x', content: b64('x') }] } });
  assert.is(order.status, 404);
  assert.equal(order.body, apiError(g, `branch does not exist [repo_id: ${repo.id} name: ghost]`));
});

test('bind errors: Gitea\'s [GoField]: Rule texts, malformed JSON, wrong JSON types', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  const cases: [string, string, unknown, string][] = [
    ['POST', C(repo, 'x.txt'), {}, '[ContentBase64]: Required'],
    ['PUT', C(repo, 'x.txt'), { sha: 'abc' }, '[ContentBase64]: Required'],
    ['POST', C(repo), {}, '[Files]: Required'],
    ['POST', C(repo), { files: [] }, '[Files]: Required'],
    ['POST', C(repo), { files: [{ operation: 'move', path: 'x' }] }, '[Operation]: In'],
    ['POST', C(repo), { files: [{ path: 'x' }] }, '[Operation]: Required'],
    ['POST', C(repo), { files: [{ operation: 'create' }] }, '[Path]: Required'],
    ['POST', C(repo), { files: [{ operation: 'create', path: 'x'.repeat(501) }] }, '[Path]: MaxSize'],
    ['POST', C(repo, 'x.txt'), { content: 'eA==', branch: 'x'.repeat(101) }, '[BranchName]: MaxSize'],
    ['POST', C(repo, 'x.txt'), { content: 'eA==', author: { name: 'n'.repeat(101) } }, '[Name]: MaxSize'],
    ['POST', C(repo, 'x.txt'), { content: 5 }, '[]: json: cannot unmarshal number into Go struct field CreateFileOptions.content of type string'],
    ['POST', C(repo, 'x.txt'), { content: 'eA==', signoff: 'yes' }, '[]: json: cannot unmarshal string into Go struct field CreateFileOptions.signoff of type bool'],
    ['POST', C(repo), { files: {} }, '[]: json: cannot unmarshal object into Go struct field ChangeFilesOptions.files of type []*structs.ChangeFileOperation'],
    ['POST', C(repo, 'x.txt'), [], '[]: json: cannot unmarshal array into Go value of type structs.CreateFileOptions'],
  ];
  for (const [method, path, json, message] of cases) {
    const r = await g.api(method, path, { json });
    assert.is(r.status, 422, `${JSON.stringify(json)}: ${r.text}`);
    assert.equal(r.body, apiError(g, message), JSON.stringify(json));
  }
  const raw = async (body: string, message: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
    const r = await g.api('POST', C(repo, 'x.txt'), { body, headers });
    assert.is(r.status, 422, body);
    assert.equal(r.body, apiError(g, message), body);
  };
  await raw('{x', "[]: invalid character 'x' looking for beginning of object key string");
  await raw('{"content": ', '[]: unexpected end of JSON input');
  // No content type at all (a Buffer body: fetch adds none).
  const none = await g.api('POST', C(repo, 'x.txt'), { body: Buffer.from('{"content": "eA=="}') });
  assert.is(none.status, 422);
  assert.equal(none.body, apiError(g, '[]: Empty Content-Type'));
  await raw('{"content": "eA=="}', '[]: Unsupported Content-Type', { 'content-type': 'text/plain' });
  // Nothing was written by any of them.
  assert.equal(git(['--git-dir', repo.dir, 'rev-list', '--count', 'main']).stdout.trim(), '1');
});

test('protected branch: push disabled, protected and unprotected file patterns, push whitelist, signed commits', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  await g.commit('root', repo.name, { 'secret/key.txt': 'k', 'docs/a.md': 'a', 'src/x.ts': 'x' });
  const bob = await g.user('bob');
  const carol = await g.user('carol');
  for (const u of ['bob', 'carol']) await g.api('PUT', `/api/v1/repos/root/${repo.name}/collaborators/${u}`, { json: { permission: 'write' } });
  const rules = `/api/v1/repos/root/${repo.name}/branch_protections`;
  const protect = async (body: object) => {
    await g.api('DELETE', `${rules}/main`);
    const r = await g.api('POST', rules, { json: { rule_name: 'main', ...body } });
    assert.is(r.status, 201, r.text);
  };
  const write = (path: string, auth = g.admin.auth, extra: object = {}) => g.api('POST', C(repo), { json: { files: [{ operation: 'upload', path, content: b64(`${path} ${Date.now()}`) }], ...extra }, auth });
  const expect403 = async (p: Promise<any>, message: string) => {
    const r = await p;
    assert.is(r.status, 403, r.text);
    assert.equal(r.body, apiError(g, message));
  };

  // Push disabled: nobody commits, not even the owner (Gitea's CanUserPush).
  await protect({ enable_push: false });
  await expect403(write('src/x.ts'), 'user cannot commit to repo [user: root]');
  await expect403(write('src/x.ts', bob.auth), 'user cannot commit to repo [user: bob]');
  await expect403(g.api('DELETE', C(repo, 'src/x.ts'), { json: { sha: blobSha(repo, 'src/x.ts') } }), 'user cannot commit to repo [user: root]');
  // ... but a new branch is not protected.
  const side = await write('src/x.ts', bob.auth, { new_branch: 'bob-side' });
  assert.is(side.status, 201, side.text);

  // Unprotected file patterns let anyone with write access change those paths.
  await protect({ enable_push: false, unprotected_file_patterns: 'docs/**;*.txt' });
  assert.is((await write('docs/a.md', bob.auth)).status, 201);
  assert.is((await write('docs/deep/new.md', bob.auth)).status, 201);
  assert.is((await write('notes.txt', bob.auth)).status, 201);
  await expect403(write('src/x.ts', bob.auth), 'user cannot commit to repo [user: bob]');
  // One protected path in the change refuses all of it.
  await expect403(
    g.api('POST', C(repo), { json: { files: [{ operation: 'upload', path: 'docs/b.md', content: b64('b') }, { operation: 'upload', path: 'src/y.ts', content: b64('y') }] }, auth: bob.auth }),
    'user cannot commit to repo [user: bob]',
  );

  // Protected file patterns (case-insensitive globs, `;`-separated, `.` and `/` both separators) refuse those paths even to pushers.
  await protect({ enable_push: true, protected_file_patterns: 'secret/**;*.LOCK;conf/*' });
  // `*` stops at a dot: conf/* covers conf/app but not conf/app.ini.
  await expect403(write('conf/app'), 'path is protected and can not be changed [path: conf/app]');
  assert.is((await write('conf/app.ini')).status, 201);
  await expect403(write('secret/key.txt'), 'path is protected and can not be changed [path: secret/key.txt]');
  await expect403(write('Secret/Other.txt', bob.auth), 'path is protected and can not be changed [path: Secret/Other.txt]');
  await expect403(write('yarn.lock', bob.auth), 'path is protected and can not be changed [path: yarn.lock]');
  await expect403(g.api('DELETE', C(repo, 'secret/key.txt'), { json: { sha: blobSha(repo, 'secret/key.txt') } }), 'path is protected and can not be changed [path: secret/key.txt]');
  // Moving a protected file away changes it too.
  await expect403(
    g.api('POST', C(repo), { json: { files: [{ operation: 'rename', from_path: 'secret/key.txt', path: 'public/key.txt' }] } }),
    'path is protected and can not be changed [path: secret/key.txt]',
  );
  assert.is((await write('src/x.ts', bob.auth)).status, 201);

  // Push whitelist: only the listed users.
  await protect({ enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['bob'] });
  assert.is((await write('src/x.ts', bob.auth)).status, 201);
  await expect403(write('src/x.ts', carol.auth), 'user cannot commit to repo [user: carol]');
  await expect403(write('src/x.ts'), 'user cannot commit to repo [user: root]');

  // Signed commits required: we never sign, so API commits are refused.
  await protect({ enable_push: true, require_signed_commits: true });
  await expect403(write('src/x.ts'), 'user cannot commit to repo [user: root]');
  await g.api('DELETE', `${rules}/main`);
  assert.is((await write('src/x.ts')).status, 201);
});

test('protected branches as new_branch targets: creation needs push rights, force_push needs force-push rights', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  await g.commit('root', repo.name, { 'a.txt': 'a' });
  await g.commit('root', repo.name, { 'b.txt': 'b' }, { newBranch: 'release/1' });
  await g.commit('root', repo.name, { 'c.txt': 'c' }); // main moves on: release/1 is no ancestor of it
  const rules = `/api/v1/repos/root/${repo.name}/branch_protections`;
  const create = (body: object) => g.api('POST', rules, { json: body });
  assert.is((await create({ rule_name: 'release/*', enable_push: true })).status, 201);
  const release = revParse(repo.dir, 'release/1');
  // Rewriting release/1 from main is a force push: refused.
  const forced = await g.api('POST', C(repo, 'd.txt'), { json: { content: b64('d'), branch: 'main', new_branch: 'release/1', force_push: true } });
  assert.is(forced.status, 403, forced.text);
  assert.equal(forced.body, apiError(g, 'branch release/1 is protected from force push'));
  assert.is(revParse(repo.dir, 'release/1'), release);
  // From release/1 itself onto a new branch it is no force push... but pushing to release/2 (protected, push disabled) is refused.
  assert.is((await g.api('PATCH', `${rules}/release%2F*`, { json: { enable_push: false } })).status, 200);
  const create2 = await g.api('POST', C(repo, 'e.txt'), { json: { content: b64('e'), branch: 'release/1', new_branch: 'release/2' } });
  assert.is(create2.status, 403, create2.text);
  assert.equal(create2.body, apiError(g, 'Not allowed to push to protected branch release/2'));
  assert.is(git(['--git-dir', repo.dir, 'rev-parse', '--verify', '--quiet', 'refs/heads/release/2'], { allowFail: true }).status, 1);
  // With force pushes allowed, the rewrite goes through.
  assert.is((await g.api('PATCH', `${rules}/release%2F*`, { json: { enable_push: true, enable_force_push: true } })).status, 200);
  const ok = await g.api('POST', C(repo, 'd.txt'), { json: { content: b64('d'), branch: 'main', new_branch: 'release/1', force_push: true } });
  assert.is(ok.status, 201, ok.text);
  assert.is(revParse(repo.dir, 'release/1'), ok.body.commit.sha);
});

test('LFS: filter=lfs paths get a pointer committed, the content stored and linked to the repository', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  await g.commit('root', repo.name, { '.gitattributes': '*.bin filter=lfs diff=lfs merge=lfs -text\nassets/** filter=lfs\nassets/keep.txt -filter\n' });
  const data = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
  const oid = createHash('sha256').update(data).digest('hex');
  const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${data.length}\n`;
  const r = await g.api('POST', C(repo, 'data/blob.bin'), { json: { content: b64(data) } });
  assert.is(r.status, 201, r.text);
  assert.is(show(repo, 'data/blob.bin'), pointer, 'git holds the pointer');
  const head = revParse(repo.dir, 'main');
  assert.equal(r.body.content, {
    ...entry(g, { owner: 'root', repo: repo.name, path: 'data/blob.bin', sha: blobSha(repo, 'data/blob.bin'), type: 'file', size: pointer.length, ref: 'main', refType: 'branch', last: lastOf(repo.dir, head, 'data/blob.bin'), content: b64(pointer), lfs: { oid, size: data.length } }),
  });
  const stored = join(g.t.dataDir, 'lfs', oid.slice(0, 2), oid.slice(2, 4), oid.slice(4));
  assert.ok(existsSync(stored));
  assert.ok(readFileSync(stored).equals(data));
  const link = g.t.server.db.prepare('SELECT repo_id, oid FROM lfs_repo_objects WHERE repo_id = ? AND oid = ?').get(repo.id, oid);
  assert.equal(link, { repo_id: repo.id, oid });
  // A pattern with ** and a later -filter.
  const many = await g.api('POST', C(repo), { json: { files: [{ operation: 'create', path: 'assets/img/logo.png', content: b64('png') }, { operation: 'create', path: 'assets/keep.txt', content: b64('plain') }] } });
  assert.is(many.status, 201, many.text);
  assert.ok(show(repo, 'assets/img/logo.png').startsWith('version https://git-lfs.github.com/spec/v1\n'));
  assert.is(show(repo, 'assets/keep.txt'), 'plain');
  assert.ok('lfs_oid' in many.body.files[0]);
  assert.not.ok('lfs_oid' in many.body.files[1]);
  // .gitattributes written in the same request counts for the files after it.
  const other = await newRepo();
  const same = await g.api('POST', C(other), { json: { files: [{ operation: 'create', path: '.gitattributes', content: b64('*.dat filter=lfs\n') }, { operation: 'create', path: 'x.dat', content: b64('payload') }] } });
  assert.is(same.status, 201, same.text);
  assert.ok(show(other, 'x.dat').startsWith('version https://git-lfs.github.com/spec/v1\n'));
  assert.is(same.body.files[1].lfs_size, 7);
  // Renaming out of LFS brings the content back into git; into LFS stores it.
  const out = await g.api('POST', C(repo), { json: { files: [{ operation: 'rename', from_path: 'data/blob.bin', path: 'data/blob.raw' }] } });
  assert.is(out.status, 201, out.text);
  assert.ok(catBlob(repo.dir, blobSha(repo, 'data/blob.raw')).equals(data));
  const back = await g.api('POST', C(repo), { json: { files: [{ operation: 'rename', from_path: 'data/blob.raw', path: 'data/again.bin' }] } });
  assert.is(back.status, 201, back.text);
  assert.is(show(repo, 'data/again.bin'), pointer);
});

test('hostile globs in .gitattributes and in protected file patterns: writes answer correctly in bounded work while a ping is served', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  // In .gitattributes a `**` inside a name is a plain `*` (git's wildmatch): `*a*a…*b`, exponential as a regular expression.
  await g.commit('root', repo.name, { '.gitattributes': `${HOSTILE_GLOB} filter=lfs\n` });
  const write = (path: string, extra: object = {}) => g.api('POST', C(repo, path), { json: { content: b64(path), ...extra } });
  const plain = await hostileWithPing(g, () => write(A40));
  assert.is(plain.reply.status, 201, plain.reply.text);
  assert.is(show(repo, A40), A40, 'not matched: stored in git');
  assert.ok(plain.steps <= ATTRIBUTE_STEPS, `${plain.steps} steps`);
  const lfs = await hostileWithPing(g, () => write(`${A40}b`));
  assert.is(lfs.reply.status, 201, lfs.reply.text);
  assert.ok(show(repo, `${A40}b`).startsWith('version https://git-lfs.github.com/spec/v1\n'), 'matched: an LFS pointer');

  // Protected file patterns (Gitea's globs, `.` and `/` separators; `**` crosses both).
  const rules = `/api/v1/repos/root/${repo.name}/branch_protections`;
  assert.is((await g.api('POST', rules, { json: { rule_name: 'main', enable_push: true, protected_file_patterns: HOSTILE_GLOB } })).status, 201);
  const bound = ATTRIBUTE_STEPS + 2 * RULE_CHECK_STEPS;
  const free = await hostileWithPing(g, () => write(`x/${A40}`));
  assert.is(free.reply.status, 201, free.reply.text);
  assert.ok(free.steps <= bound, `${free.steps} steps`);
  const refused = await hostileWithPing(g, () => write(`x.y/${A40}b`));
  assert.is(refused.reply.status, 403, refused.reply.text);
  assert.equal(refused.reply.body, apiError(g, `path is protected and can not be changed [path: x.y/${A40}b]`));
  assert.ok(refused.steps <= bound, `${refused.steps} steps`);

  // Unprotected file patterns: only matching paths may change when pushing is off.
  assert.is((await g.api('PATCH', `${rules}/main`, { json: { enable_push: false, protected_file_patterns: '', unprotected_file_patterns: HOSTILE_GLOB } })).status, 200);
  const open = await hostileWithPing(g, () => write(`u/${A40}b`));
  assert.is(open.reply.status, 201, open.reply.text);
  const closed = await hostileWithPing(g, () => write(`u/${A40}`));
  assert.is(closed.reply.status, 403, closed.reply.text);
  assert.equal(closed.reply.body, apiError(g, 'user cannot commit to repo [user: root]'));
  assert.ok(closed.steps <= bound, `${closed.steps} steps`);
});

test('the executable bit survives updates, uploads and renames', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  await viaWorktree(g, repo.id, (dir, run) => {
    writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\n');
    chmodSync(join(dir, 'run.sh'), 0o755);
    run('add', 'run.sh');
    run('commit', '--quiet', '-m', 'script');
  });
  assert.is(lsTree(repo.dir, 'main', 'run.sh')!.mode, '100755');
  const upd = await g.api('PUT', C(repo, 'run.sh'), { json: { content: b64('#!/bin/sh\necho 1\n'), sha: blobSha(repo, 'run.sh') } });
  assert.is(upd.status, 200, upd.text);
  assert.is(lsTree(repo.dir, 'main', 'run.sh')!.mode, '100755');
  assert.is(upd.body.content.type, 'file');
  const up = await g.api('PUT', C(repo, 'run.sh'), { json: { content: b64('#!/bin/sh\necho 2\n') } });
  assert.is(up.status, 201);
  assert.is(lsTree(repo.dir, 'main', 'run.sh')!.mode, '100755');
  const mv = await g.api('PUT', C(repo, 'bin/run.sh'), { json: { content: b64('#!/bin/sh\necho 3\n'), sha: blobSha(repo, 'run.sh'), from_path: 'run.sh' } });
  assert.is(mv.status, 200);
  assert.is(lsTree(repo.dir, 'main', 'bin/run.sh')!.mode, '100755');
  const rn = await g.api('POST', C(repo), { json: { files: [{ operation: 'rename', from_path: 'bin/run.sh', path: 'run2.sh' }] } });
  assert.is(rn.status, 201);
  assert.is(lsTree(repo.dir, 'main', 'run2.sh')!.mode, '100755');
  // A new file is never executable.
  await g.commit('root', repo.name, { 'new.sh': 'x' });
  assert.is(lsTree(repo.dir, 'main', 'new.sh')!.mode, '100644');
});

test('writes keep working after git gc packed the objects and pruned the emptied object directories', async () => {
  const { g } = ctx;
  const repo = await newRepo();
  const first = await g.api('POST', C(repo, 'x.txt'), { json: { content: b64('same content\n') } });
  assert.is(first.status, 201);
  const blob = first.body.content.sha as string;
  await g.api('DELETE', C(repo, 'x.txt'), { json: { sha: blob } });
  git(['--git-dir', repo.dir, 'gc', '--quiet', '--prune=now']);
  assert.not.ok(existsSync(join(repo.dir, 'objects', blob.slice(0, 2))), 'gc removed the loose object and its directory');
  // The same blob again (its directory was known to the server), then more writes.
  const again = await g.api('POST', C(repo, 'y.txt'), { json: { content: b64('same content\n') } });
  assert.is(again.status, 201, again.text);
  assert.is(again.body.content.sha, blob);
  const more = await g.commit('root', repo.name, Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`m${i}.txt`, `m${i}`])));
  assert.is(more.files.length, 20);
  assert.is(show(repo, 'y.txt'), 'same content\n');
});

test('git fsck --strict finds nothing wrong in any repository written by this suite', async () => {
  assert.ok(gitDirs.size > 10);
  for (const dir of gitDirs) assert.is(fsck(dir), '', dir);
});

test.run();
