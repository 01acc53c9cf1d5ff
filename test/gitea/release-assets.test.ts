import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { giteaApi } from 'gitea-js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GO_TIME } from '../../protocol/gitea/schema.js';
import { expectJsonError } from '../_helpers/api-error.js';
import { type Account, addCollaborator, giteaWorld, useGitea } from '../_helpers/gitea.js';
import { request } from '../_helpers/request.js';
import { startTestServer } from '../_helpers/server.js';
import { tempDirs } from '../_helpers/temp-dir.js';
import { waitUntil } from '../_helpers/wait.js';

// Release files (/repos/{o}/{r}/releases/{id}/assets): Gitea's Attachment JSON and order, uploads
// as a multipart form or a raw body, the limits (ATTACHMENT_MAX_SIZE, RELEASE_ALLOWED_TYPES) with
// Gitea's statuses and texts, who may do what (drafts hide their files), the downloads at
// /attachments/{uuid} and /{o}/{r}/releases/download/{tag}/{name} (headers, ranges, the count),
// files streamed to disk while the body still arrives, and no file left behind by a refused upload,
// a removed file, release or repository. gitea-js drives the same operations.
const test = suite('gitea: release assets');
const MAX = 3 * 1024 * 1024;
const ctx = useGitea(test, { ATTACHMENT_MAX_SIZE: '3', RELEASE_ALLOWED_TYPES: '.zip,.txt,image/*' });
const freshDir = tempDirs(test, 'assets');

const base = '/api/v1/repos/root/rel';
const FORBIDDEN = 'This file cannot be uploaded or modified due to a forbidden file extension or type.';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(64)]);
let writer: Account;
let reader: Account;
let v1 = 0;
let v2 = 0;

/** A multipart form by hand, so every byte of the framing is known. */
function form(parts: { name: string; filename?: string; data: Buffer | string }[], boundary = 'xYzBoUnDaRy'): { body: Buffer; headers: Record<string, string> } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const fn = p.filename === undefined ? '' : `; filename="${p.filename}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${fn}\r\nContent-Type: application/octet-stream\r\n\r\n`), Buffer.from(p.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (release: number, data: Buffer | string, filename: string, opts: { query?: string; auth?: Account['auth'] } = {}) =>
  ctx.g.api('POST', `${base}/releases/${release}/assets${opts.query ?? ''}`, { ...form([{ name: 'attachment', filename, data }]), ...(opts.auth === undefined ? {} : { auth: opts.auth }) });
const raw = (release: number, data: Buffer, query: string) => ctx.g.api('POST', `${base}/releases/${release}/assets${query}`, { body: data, headers: { 'content-type': 'application/octet-stream' } });
const fileOf = (uuid: string) => join(ctx.g.t.dataDir, 'attachments', uuid[0]!, uuid[1]!, uuid);
/** Every stored release file (tmp/ included), to prove nothing was left behind. */
function storedFiles(): string[] {
  const root = join(ctx.g.t.dataDir, 'attachments');
  const out: string[] = [];
  const walk = (d: string) => existsSync(d) && readdirSync(d, { withFileTypes: true }).forEach((e) => (e.isDirectory() ? walk(join(d, e.name)) : out.push(join(d, e.name))));
  walk(root);
  return out.sort();
}

test.before(async () => {
  const g = ctx.g;
  [writer, reader] = [await g.user('wendy'), await g.user('rita')];
  await g.repo('rel');
  await addCollaborator(g, g.admin, 'rel', writer, 'write');
  await addCollaborator(g, g.admin, 'rel', reader, 'read');
  v1 = (await g.api('POST', `${base}/releases`, { json: { tag_name: 'v1', name: 'one' } })).body.id;
  v2 = (await g.api('POST', `${base}/releases`, { json: { tag_name: 'v2', name: 'two' } })).body.id;
});

test('a multipart upload: 201 with Gitea\'s Attachment JSON, the bytes on disk, listed by name in the release', async () => {
  const r = await upload(v1, 'hello notes\n', 'b-notes.txt');
  assert.is(r.status, 201, r.text);
  const { id, uuid, created_at } = r.body;
  assert.match(uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match(created_at, GO_TIME);
  assert.equal(r.body, { id, name: 'b-notes.txt', size: 12, download_count: 0, created_at, uuid, browser_download_url: `${ctx.g.url}/attachments/${uuid}` });
  assert.is(readFileSync(fileOf(uuid), 'utf8'), 'hello notes\n');
  // The form's path is cut to its base name (Go's FileName); `name` replaces it.
  const a = await upload(v1, 'aaa', '../../etc/a-first.txt');
  assert.is(a.body.name, 'a-first.txt');
  const c = await upload(v1, 'ccc', 'ignored.txt', { query: '?name=c-third.txt' });
  assert.is(c.body.name, 'c-third.txt');
  const list = await ctx.g.api('GET', `${base}/releases/${v1}/assets`, { auth: reader.auth });
  assert.is(list.status, 200);
  assert.equal(list.body.map((x: { name: string }) => x.name), ['a-first.txt', 'b-notes.txt', 'c-third.txt']);
  assert.equal((await ctx.g.api('GET', `${base}/releases/${v1}`)).body.assets, list.body);
  assert.equal((await ctx.g.api('GET', `${base}/releases/${v1}/assets/${id}`, { auth: null })).body, r.body);
  // A form larger than any one read: the parts' framing is found across reads, the bytes kept exact.
  const big = Buffer.concat([randomBytes(700 * 1024), Buffer.from('\r\n--xYzBoUnDa'), randomBytes(700 * 1024)]);
  const b = await upload(v1, big, 'd-big.zip');
  assert.is(b.status, 201, b.text);
  assert.ok(readFileSync(fileOf(b.body.uuid)).equals(big), 'a large form file is stored byte for byte');
  assert.is((await ctx.g.api('DELETE', `${base}/releases/${v1}/assets/${b.body.id}`)).status, 204);
});

test('a raw body needs `name` (400 otherwise); types outside RELEASE_ALLOWED_TYPES are 400 (sniffed image/* passes)', async () => {
  const ok = await raw(v2, Buffer.from('zip-ish'), '?name=raw.zip');
  assert.is(ok.status, 201, ok.text);
  assert.is(ok.body.size, 7);
  await expectJsonError(ctx.g, raw(v2, Buffer.from('x'), ''), 400, 'Could not determine name of attachment.');
  await expectJsonError(ctx.g, upload(v2, 'MZ...', 'tool.exe'), 400, FORBIDDEN);
  const png = await upload(v2, PNG, 'picture.bin');
  assert.is(png.status, 201, png.text);
  await expectJsonError(ctx.g, upload(v2, 'x', 'x'.repeat(252) + '.txt'), 400, 'attachment name is longer than 255 characters');
  // Names no client could save a file under are refused (Gitea takes them).
  await expectJsonError(ctx.g, raw(v2, Buffer.from('x'), '?name=a%00b.txt'), 400, 'attachment name is not valid [name: "a\\u0000b.txt"]');
  await expectJsonError(ctx.g, raw(v2, Buffer.from('x'), '?name=..'), 400, 'attachment name is not valid [name: ".."]');
  // Renames answer 201 (Gitea's status) and are held to the extensions: the bytes are not read again.
  const id = ok.body.id;
  await expectJsonError(ctx.g, ctx.g.api('PATCH', `${base}/releases/${v2}/assets/${id}`, { json: { name: 'raw.exe' } }), 422, FORBIDDEN);
  await expectJsonError(ctx.g, ctx.g.api('PATCH', `${base}/releases/${v2}/assets/${id}`, { json: { name: 'a\nb.zip' } }), 422, 'attachment name is not valid [name: "a\\nb.zip"]');
  const renamed = await ctx.g.api('PATCH', `${base}/releases/${v2}/assets/${id}`, { json: { name: 'renamed.zip' } });
  assert.is(renamed.status, 201, renamed.text);
  assert.equal(renamed.body, { ...ok.body, name: 'renamed.zip' });
  const same = await ctx.g.api('PATCH', `${base}/releases/${v2}/assets/${id}`, { json: { name: '' } });
  assert.is(same.body.name, 'renamed.zip');
});

test('bad forms are 400s: no `attachment` file, a part cut short, no boundary', async () => {
  const before = storedFiles();
  const other = form([{ name: 'other', filename: 'x.txt', data: 'x' }, { name: 'attachment', data: 'not a file' }]);
  await expectJsonError(ctx.g, ctx.g.api('POST', `${base}/releases/${v1}/assets`, other), 400, 'multipart form has no file in field "attachment"');
  const cut = form([{ name: 'attachment', filename: 'x.txt', data: 'x' }]);
  await expectJsonError(ctx.g, ctx.g.api('POST', `${base}/releases/${v1}/assets`, { body: cut.body.subarray(0, cut.body.length - 20), headers: cut.headers }), 400, 'multipart form ends inside a part');
  await expectJsonError(ctx.g, ctx.g.api('POST', `${base}/releases/${v1}/assets`, { body: cut.body, headers: { 'content-type': 'multipart/form-data' } }), 400, 'multipart form has no valid boundary');
  assert.equal(storedFiles(), before);
});

test('over ATTACHMENT_MAX_SIZE: 413 with Gitea\'s text, as a form or a raw body, and nothing kept', async () => {
  const before = storedFiles();
  await expectJsonError(ctx.g, upload(v1, Buffer.alloc(MAX + 1, 1), 'big.zip'), 413, `attachment exceeds limit ${MAX}`);
  await expectJsonError(ctx.g, raw(v1, Buffer.alloc(MAX + 1, 1), '?name=big.zip'), 413, `attachment exceeds limit ${MAX}`);
  assert.equal(storedFiles(), before);
  const exact = await raw(v1, Buffer.alloc(MAX, 2), '?name=exact.zip');
  assert.is(exact.status, 201, exact.text);
  assert.is(exact.body.size, MAX);
  assert.is((await ctx.g.api('DELETE', `${base}/releases/${v1}/assets/${exact.body.id}`)).status, 204);
  assert.equal(storedFiles(), before);
});

/** A raw upload sent in two halves: the first is on disk (in tmp/) before the second is sent. */
function streamedUpload(path: string, first: Buffer, rest: Buffer, between: () => Promise<void>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${ctx.g.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', authorization: `token ${ctx.g.admin.token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
    });
    req.on('error', reject);
    req.write(first);
    between().then(() => req.end(rest), reject);
  });
}
const tmpBytes = () => {
  const dir = join(ctx.g.t.dataDir, 'attachments', 'tmp');
  return existsSync(dir) ? readdirSync(dir).reduce((n, f) => n + (existsSync(join(dir, f)) ? readFileSync(join(dir, f)).length : 0), 0) : 0;
};

test('2 MB streamed to disk as it arrives, then read back whole and by range, by uuid and by tag and name', async () => {
  const data = randomBytes(2 * 1000 * 1000);
  const half = 1000 * 1000;
  const r = await streamedUpload(`${base}/releases/${v1}/assets?name=big.zip`, data.subarray(0, half), data.subarray(half), () =>
    waitUntil(() => tmpBytes() >= 512 * 1024, 'half the upload on disk before the rest is sent'),
  );
  assert.is(r.status, 201, JSON.stringify(r.body));
  assert.is(r.body.size, data.length);
  const url = `/attachments/${r.body.uuid}`;
  const whole = await ctx.g.api('GET', url, { auth: null });
  assert.is(whole.status, 200);
  assert.ok(whole.bytes.equals(data), 'the bytes come back as sent');
  assert.is(whole.headers.get('content-type'), 'application/octet-stream');
  assert.is(whole.headers.get('content-length'), String(data.length));
  assert.is(whole.headers.get('content-disposition'), 'inline; filename=big.zip');
  assert.is(whole.headers.get('etag'), `"${r.body.uuid}"`);
  assert.is(whole.headers.get('accept-ranges'), 'bytes');
  assert.is(whole.headers.get('x-content-type-options'), 'nosniff');
  const part = await ctx.g.api('GET', url, { auth: null, headers: { range: 'bytes=1000000-1065535' } });
  assert.is(part.status, 206);
  assert.is(part.headers.get('content-range'), `bytes 1000000-1065535/${data.length}`);
  assert.ok(part.bytes.equals(data.subarray(1000000, 1065536)), 'the range is exact');
  const tail = await ctx.g.api('GET', '/root/rel/releases/download/v1/big.zip', { auth: null, headers: { range: 'bytes=-10' } });
  assert.is(tail.status, 206);
  assert.ok(tail.bytes.equals(data.subarray(-10)));
  const unsat = await ctx.g.api('GET', url, { auth: null, headers: { range: `bytes=${data.length}-` } });
  assert.is(unsat.status, 416);
  assert.is(unsat.headers.get('content-range'), `bytes */${data.length}`);
  const cached = await ctx.g.api('GET', url, { auth: null, headers: { 'if-none-match': `"${r.body.uuid}"` } });
  assert.is(cached.status, 304);
  assert.is((await ctx.g.api('HEAD', url, { auth: null })).status, 200);
  // Every GET counted (as Gitea counts, 304s and ranges too); HEAD fetches nothing and is not.
  assert.is((await ctx.g.api('GET', `${base}/releases/${v1}/assets/${r.body.id}`)).body.download_count, 5);
  const text = await ctx.g.api('GET', '/root/rel/releases/download/v1/b-notes.txt', { auth: null });
  assert.is(text.text, 'hello notes\n');
  assert.is(text.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.is((await ctx.g.api('GET', '/root/rel/releases/download/v1/nope.txt', { auth: null })).status, 404);
  assert.is((await ctx.g.api('GET', '/attachments/00000000-0000-4000-8000-000000000000', { auth: null })).text, 'Not Found\n');
});

test('permissions: readers list and fetch, writers change; 401/403 with Gitea\'s texts; a file of another release is 404', async () => {
  const f = (await upload(v2, 'perm', 'perm.txt')).body;
  await expectJsonError(ctx.g, upload(v2, 'x', 'x.txt', { auth: null }), 401, 'token is required');
  await expectJsonError(ctx.g, upload(v2, 'x', 'x.txt', { auth: reader.auth }), 403, 'user should have a permission to write to a repo');
  const readOnly = await ctx.g.token(writer, ['read:repository']);
  await expectJsonError(ctx.g, upload(v2, 'x', 'x.txt', { auth: { token: readOnly } }), 403, `token does not have at least one of required scope(s), required=[write:repository], token scope=read:repository`);
  await expectJsonError(ctx.g, ctx.g.api('DELETE', `${base}/releases/${v2}/assets/${f.id}`, { auth: reader.auth }), 403, 'user should have a permission to write to a repo');
  const byWriter = await upload(v2, 'w', 'writer.txt', { auth: writer.auth });
  assert.is(byWriter.status, 201);
  await expectJsonError(ctx.g, ctx.g.api('GET', `${base}/releases/${v1}/assets/${f.id}`), 404, 'not found');
  await expectJsonError(ctx.g, ctx.g.api('PATCH', `${base}/releases/${v1}/assets/${f.id}`, { json: { name: 'y.txt' } }), 404, 'not found');
  await expectJsonError(ctx.g, ctx.g.api('GET', `${base}/releases/999999/assets`), 404, 'not found');
  await expectJsonError(ctx.g, ctx.g.api('GET', `${base}/releases/${v2}/assets/abc`), 404, 'not found');
  await expectJsonError(ctx.g, upload(999999, 'x', 'x.txt'), 404, 'not found');
});

test('a draft\'s files are for writers: the API and both download routes answer others 404', async () => {
  const draft = (await ctx.g.api('POST', `${base}/releases`, { json: { tag_name: 'd1', draft: true } })).body.id;
  const f = (await upload(draft, 'secret', 'draft.txt', { auth: writer.auth })).body;
  await expectJsonError(ctx.g, ctx.g.api('GET', `${base}/releases/${draft}/assets`, { auth: reader.auth }), 404, 'not found');
  assert.is((await ctx.g.api('GET', `/attachments/${f.uuid}`, { auth: null })).status, 404);
  assert.is((await ctx.g.api('GET', `/attachments/${f.uuid}`, { auth: reader.auth })).status, 404);
  assert.is((await ctx.g.api('GET', '/root/rel/releases/download/d1/draft.txt', { auth: reader.auth })).status, 404);
  assert.is((await ctx.g.api('GET', `/attachments/${f.uuid}`, { auth: writer.auth })).text, 'secret');
});

test('a private repository\'s files need read access; wrong credentials are a plain 401', async () => {
  await ctx.g.repo('hidden', { private: true });
  const rel = (await ctx.g.api('POST', '/api/v1/repos/root/hidden/releases', { json: { tag_name: 'h1' } })).body.id;
  const f = (await ctx.g.api('POST', `/api/v1/repos/root/hidden/releases/${rel}/assets?name=h.txt`, { body: Buffer.from('hid'), headers: { 'content-type': 'application/octet-stream' } })).body;
  assert.is((await ctx.g.api('GET', `/attachments/${f.uuid}`, { auth: null })).status, 404);
  assert.is((await ctx.g.api('GET', '/root/hidden/releases/download/h1/h.txt', { auth: reader.auth })).status, 404);
  assert.is((await ctx.g.api('GET', `/attachments/${f.uuid}`)).text, 'hid');
  const bad = await ctx.g.api('GET', `/attachments/${f.uuid}`, { auth: { token: 'f'.repeat(40) } });
  assert.is(bad.status, 401);
  assert.is(bad.text, 'Failed to authenticate user\n');
  // An archived repository takes no new files (its old ones still download).
  assert.is((await ctx.g.api('PATCH', '/api/v1/repos/root/hidden', { json: { archived: true } })).status, 200);
  await expectJsonError(ctx.g, ctx.g.api('POST', `/api/v1/repos/root/hidden/releases/${rel}/assets?name=n.txt`, { body: Buffer.from('n'), headers: { 'content-type': 'application/octet-stream' } }), 423, 'repo is archived');
  await expectJsonError(ctx.g, ctx.g.api('DELETE', `/api/v1/repos/root/hidden/releases/${rel}/assets/${f.id}`), 423, 'repo is archived');
  assert.is((await ctx.g.api('GET', `/attachments/${f.uuid}`)).text, 'hid');
});

test('removing a file, a release or a repository removes the files from disk (none orphaned)', async () => {
  const one = (await upload(v2, 'gone', 'gone.txt')).body;
  assert.is((await ctx.g.api('DELETE', `${base}/releases/${v2}/assets/${one.id}`)).status, 204);
  assert.not.ok(existsSync(fileOf(one.uuid)), 'the file is gone with its row');
  await expectJsonError(ctx.g, ctx.g.api('GET', `${base}/releases/${v2}/assets/${one.id}`), 404, 'not found');
  assert.is((await ctx.g.api('GET', `/attachments/${one.uuid}`)).status, 404);
  const v2files = (await ctx.g.api('GET', `${base}/releases/${v2}/assets`)).body.map((a: { uuid: string }) => a.uuid);
  assert.ok(v2files.length >= 3 && v2files.every((u: string) => existsSync(fileOf(u))));
  assert.is((await ctx.g.api('DELETE', `${base}/releases/tags/v2`)).status, 204);
  assert.ok(v2files.every((u: string) => !existsSync(fileOf(u))), 'a removed release takes its files');
  await ctx.g.repo('doomed');
  const rel = (await ctx.g.api('POST', '/api/v1/repos/root/doomed/releases', { json: { tag_name: 'x1' } })).body.id;
  const kept = (await ctx.g.api('POST', `/api/v1/repos/root/doomed/releases/${rel}/assets?name=k.txt`, { body: Buffer.from('k'), headers: { 'content-type': 'application/octet-stream' } })).body;
  assert.ok(existsSync(fileOf(kept.uuid)));
  assert.is((await ctx.g.api('DELETE', '/api/v1/repos/root/doomed')).status, 204);
  assert.not.ok(existsSync(fileOf(kept.uuid)), 'a removed repository takes its files');
});

test('a release removed while its file streams in: 404, and the file is not kept', async () => {
  const rel = (await ctx.g.api('POST', `${base}/releases`, { json: { tag_name: 'race1' } })).body.id;
  const before = storedFiles();
  const r = await streamedUpload(`${base}/releases/${rel}/assets?name=late.zip`, randomBytes(600 * 1024), randomBytes(1024), async () => {
    await waitUntil(() => tmpBytes() >= 512 * 1024, 'the upload under way');
    assert.is((await ctx.g.api('DELETE', `${base}/releases/${rel}`)).status, 204);
  });
  assert.is(r.status, 404);
  assert.equal(storedFiles(), before);
});

test('at start, files a crash left without a row are removed; recorded files stay', async () => {
  const dir = freshDir();
  let t = await startTestServer({}, dir);
  const g = await giteaWorld(t);
  await g.repo('r');
  const rel = (await g.api('POST', '/api/v1/repos/root/r/releases', { json: { tag_name: 't1' } })).body.id;
  const kept = (await g.api('POST', `/api/v1/repos/root/r/releases/${rel}/assets?name=k.txt`, { body: Buffer.from('kept'), headers: { 'content-type': 'application/octet-stream' } })).body;
  await t.close({ keepData: true });
  const stray = 'abcdef01-2345-4678-9abc-def012345678';
  mkdirSync(join(dir, 'attachments', 'a', 'b'), { recursive: true });
  writeFileSync(join(dir, 'attachments', 'a', 'b', stray), 'no row');
  mkdirSync(join(dir, 'attachments', 'tmp'), { recursive: true });
  writeFileSync(join(dir, 'attachments', 'tmp', '0123456789abcdef'), 'half');
  t = await startTestServer({}, dir);
  try {
    assert.not.ok(existsSync(join(dir, 'attachments', 'a', 'b', stray)), 'a file without a row is removed');
    assert.not.ok(existsSync(join(dir, 'attachments', 'tmp', '0123456789abcdef')), 'an unfinished upload is removed');
    assert.ok(t.logs.some((l) => l.includes('removed release files left without a row') && l.includes('"files":1')));
    assert.is((await request(t.url, 'GET', `/attachments/${kept.uuid}`)).text, 'kept');
  } finally {
    await t.close();
  }
});

test('gitea-js: upload (FormData), list, rename (201), remove', async () => {
  const client = giteaApi(`${ctx.g.url}/`, { token: ctx.g.admin.token });
  const made = await client.repos.repoCreateReleaseAttachment('root', 'rel', v1, { attachment: new File(['from gitea-js'], 'js.txt') });
  assert.is(made.status, 201);
  assert.is(made.data.name, 'js.txt');
  assert.is(made.data.size, 13);
  const list = await client.repos.repoListReleaseAttachments('root', 'rel', v1);
  assert.ok(list.data.some((a) => a.uuid === made.data.uuid));
  const edited = await client.repos.repoEditReleaseAttachment('root', 'rel', v1, made.data.id!, { name: 'js2.txt' });
  assert.is(edited.status, 201);
  assert.is(edited.data.name, 'js2.txt');
  assert.is((await client.repos.repoDeleteReleaseAttachment('root', 'rel', v1, made.data.id!)).status, 204);
});

test('the release pages list the files with their download links', async () => {
  const page = await ctx.g.api('GET', '/root/rel/releases/tag/v1', { auth: null });
  assert.is(page.status, 200);
  const files = (await ctx.g.api('GET', `${base}/releases/${v1}/assets`)).body as { uuid: string; name: string }[];
  for (const f of files) assert.ok(page.text.includes(`<a href="${ctx.g.url}/attachments/${f.uuid}">${f.name}</a>`), f.name);
  const list = await ctx.g.api('GET', '/root/rel/releases', { auth: null });
  assert.ok(list.text.includes(`/attachments/${files[0]!.uuid}`));
});

test.run();
