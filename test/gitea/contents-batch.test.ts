import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expectJsonError } from '../_helpers/api-error.js';
import { type Account, useGitea } from '../_helpers/gitea.js';

// POST/GET …/file-contents (several files with their contents in one answer) and
// GET …/contents-ext/{path} (a file or a directory with only the fields `includes` asks for).
const test = suite('gitea: file-contents and contents-ext');
const ctx = useGitea(test);

let readOnly = '';
let reader: Account;
let head = '';
let older = '';
const POINTER = 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n';
const b64 = (s: string) => Buffer.from(s).toString('base64');

test.before(async () => {
  const g = ctx.g;
  reader = await g.user('reed');
  readOnly = await g.token({ name: reader.name, password: reader.password }, ['read:repository']);
  await g.repo('batch');
  await g.api('PUT', `/api/v1/repos/root/batch/collaborators/${reader.name}`, { json: { permission: 'read' } });
  older = (await g.commit('root', 'batch', { 'a.md': 'alpha\n', 'docs/b.md': 'bravo\n' }, { message: 'first files\n\nwith a body' })).commit.sha;
  head = (await g.commit('root', 'batch', { 'c.md': 'charlie\n', 'big.bin': POINTER }, { message: 'more files' })).commit.sha;
});

test('file-contents: each path in order with its content, null where nothing is; a directory is listed as an entry', async () => {
  const r = await ctx.g.api('POST', '/api/v1/repos/root/batch/file-contents', { json: { files: ['c.md', 'missing.md', 'docs', 'docs/b.md', '../etc/passwd'] } });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.length, 5);
  assert.equal(r.body.map((e: { path: string; type: string; content: string | null } | null) => e && [e.path, e.type, e.content]), [
    ['c.md', 'file', b64('charlie\n')],
    null,
    ['docs', 'dir', null],
    ['docs/b.md', 'file', b64('bravo\n')],
    null,
  ]);
  // Each entry is the single-file contents answer for that path.
  const one = await ctx.g.api('GET', '/api/v1/repos/root/batch/contents/docs/b.md');
  assert.equal(r.body[3], one.body);
  assert.is(r.body[3].last_commit_sha, older);
});

test('file-contents: at a ref; an unknown ref is 404; no files is an empty list; at most 30 entries', async () => {
  const r = await ctx.g.api('POST', `/api/v1/repos/root/batch/file-contents?ref=${older}`, { json: { files: ['c.md', 'a.md'] } });
  assert.is(r.status, 200, r.text);
  assert.is(r.body[0], null);
  assert.is(r.body[1].content, b64('alpha\n'));
  assert.is((await ctx.g.api('POST', '/api/v1/repos/root/batch/file-contents?ref=nope', { json: { files: ['a.md'] } })).status, 404);
  const empty = await ctx.g.api('POST', '/api/v1/repos/root/batch/file-contents', { json: {} });
  assert.is(empty.status, 200);
  assert.equal(empty.body, []);
  const many = await ctx.g.api('POST', '/api/v1/repos/root/batch/file-contents', { json: { files: Array.from({ length: 35 }, (_, i) => (i === 34 ? 'a.md' : `m${i}.md`)) } });
  assert.is(many.status, 200);
  assert.is(many.body.length, 30);
});

test('file-contents as GET: the body as JSON in ?body=, open to read-only tokens (the POST needs write:repository)', async () => {
  const q = encodeURIComponent(JSON.stringify({ files: ['a.md'] }));
  const r = await ctx.g.api('GET', `/api/v1/repos/root/batch/file-contents?body=${q}`, { auth: { token: readOnly } });
  assert.is(r.status, 200, r.text);
  assert.is(r.body[0].content, b64('alpha\n'));
  const post = await ctx.g.api('POST', '/api/v1/repos/root/batch/file-contents', { json: { files: ['a.md'] }, auth: { token: readOnly } });
  assert.is(post.status, 403, post.text);
  // A reader with a full token may use the POST form.
  assert.is((await ctx.g.api('POST', '/api/v1/repos/root/batch/file-contents', { json: { files: ['a.md'] }, auth: reader.auth })).status, 200);
  await expectJsonError(ctx.g, ctx.g.api('GET', '/api/v1/repos/root/batch/file-contents?body=%7Bnot-json'), 400, 'invalid body parameter');
  await expectJsonError(ctx.g, ctx.g.api('GET', '/api/v1/repos/root/batch/file-contents'), 400, 'invalid body parameter');
  await expectJsonError(ctx.g, ctx.g.api('GET', `/api/v1/repos/root/batch/file-contents?body=${encodeURIComponent('{"files":[1]}')}`), 400, 'invalid body parameter');
});

test('contents-ext: a file with metadata only, then with each of the includes', async () => {
  const base = '/api/v1/repos/root/batch/contents-ext/docs/b.md';
  const plain = await ctx.g.api('GET', base);
  assert.is(plain.status, 200, plain.text);
  assert.equal(Object.keys(plain.body), ['file_contents']);
  const f = plain.body.file_contents;
  assert.is(f.path, 'docs/b.md');
  assert.is(f.content, null);
  assert.is(f.encoding, null);
  assert.is('last_commit_sha' in f, false);
  const full = await ctx.g.api('GET', `${base}?includes=file_content,commit_metadata,commit_message`);
  assert.is(full.status, 200, full.text);
  const x = full.body.file_contents;
  assert.is(x.content, b64('bravo\n'));
  assert.is(x.encoding, 'base64');
  assert.is(x.last_commit_sha, older);
  assert.is(x.last_commit_message, 'first files\n\nwith a body\n');
  assert.ok(x.last_committer_date && x.last_author_date);
  // With content, the answer is the plain contents API's, message aside.
  const { last_commit_message: _m, ...rest } = x;
  assert.equal(rest, (await ctx.g.api('GET', '/api/v1/repos/root/batch/contents/docs/b.md')).body);
});

test('contents-ext: a directory\'s entries (the root too); LFS metadata on request; unknown options are 400', async () => {
  const root = await ctx.g.api('GET', '/api/v1/repos/root/batch/contents-ext/?includes=lfs_metadata,commit_metadata');
  assert.is(root.status, 200, root.text);
  assert.equal(Object.keys(root.body), ['dir_contents']);
  assert.equal(root.body.dir_contents.map((e: { name: string }) => e.name), ['README.md', 'a.md', 'big.bin', 'c.md', 'docs']);
  const big = root.body.dir_contents.find((e: { name: string }) => e.name === 'big.bin');
  assert.is(big.lfs_oid, '4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393');
  assert.is(big.lfs_size, 12345);
  assert.is(big.content, null);
  assert.is(big.last_commit_sha, head);
  const noLfs = await ctx.g.api('GET', '/api/v1/repos/root/batch/contents-ext/big.bin');
  assert.is('lfs_oid' in noLfs.body.file_contents, false);
  await expectJsonError(ctx.g, ctx.g.api('GET', '/api/v1/repos/root/batch/contents-ext/a.md?includes=file_content,everything'), 400, 'unknown include option "everything"');
  assert.is((await ctx.g.api('GET', '/api/v1/repos/root/batch/contents-ext/nothing.md')).status, 404);
  assert.is((await ctx.g.api('GET', '/api/v1/repos/root/batch/contents-ext/a.md?ref=nope')).status, 404);
});

test.run();
