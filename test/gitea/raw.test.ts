import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError, expectJsonError } from '../_helpers/api-error.js';
import { git, gitChildren, gitDirOf, useGitea, waitNoChildren, type Account, type Auth, type GiteaWorld, type GReply } from '../_helpers/gitea.js';

// /raw and /media (repoGetRawFile, repoGetRawFileOrLFS) and the web download route download_url points to:
// ref guessing, every serving header, conditional and range requests, sniffing, LFS, visibility and scopes.
const test = suite('gitea: raw, media, download');
const ctx = useGitea(test);

const SANDBOX = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const DATE = '2020-01-02T03:04:05Z';
const DATE_HTTP = 'Thu, 02 Jan 2020 03:04:05 GMT';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(64)]);
const BIN = Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff, 0xfe, 0x10, 0x11]);
const BIG = randomBytes(9 * 1024 * 1024 + 123);

let g: GiteaWorld;
let alice: Account;
let bob: Account;
/** Blob ids of the files written to root/files, by path. */
const sha: Record<string, string> = {};
let mainHead = '';

/** A request whose body is kept as bytes (default auth: the admin's token). */
const get = (path: string, opts: { auth?: Auth; headers?: Record<string, string>; method?: string } = {}): Promise<GReply> =>
  g.api(opts.method ?? 'GET', path, { auth: opts.auth, headers: opts.headers });

function assertPlain(r: GReply, status: number, text: string) {
  assert.is(r.status, status, `status (body ${r.text})`);
  assert.is(r.text, `${text}\n`);
  assert.is(r.headers.get('content-type'), 'text/plain; charset=utf-8');
}

/** POST /contents with explicit dates; returns the FilesResponse. */
async function change(repo: string, files: { operation: string; path: string; content?: Buffer | string; sha?: string }[], opts: { owner?: Account; branch?: string; newBranch?: string; date?: string } = {}) {
  const owner = opts.owner ?? g.admin;
  const r = await g.api('POST', `/api/v1/repos/${owner.name}/${repo}/contents`, {
    auth: owner.auth,
    json: {
      files: files.map((f) => ({ ...f, ...(f.content !== undefined ? { content: Buffer.from(f.content).toString('base64') } : {}) })),
      ...(opts.branch ? { branch: opts.branch } : {}),
      ...(opts.newBranch ? { new_branch: opts.newBranch } : {}),
      ...(opts.date ? { dates: { author: opts.date, committer: opts.date } } : {}),
    },
  });
  if (r.status !== 201) throw new Error(`commit: ${r.status} ${r.text}`);
  return r.body;
}


let files: { id: number };
let linkCommit = '';

test.before(async () => {
  g = ctx.g;
  alice = await g.user('alice');
  bob = await g.user('bob');
  files = await g.repo('files');
  // hello.txt at a known date; everything else later, so Last-Modified must come from the commit that touched the path.
  const first = await change('files', [{ operation: 'create', path: 'hello.txt', content: 'hello world\n' }], { date: DATE });
  sha['hello.txt'] = first.files[0].sha;
  const rest: [string, Buffer | string][] = [
    ['page.html', '<!DOCTYPE html>\n<html><body><script>alert(1)</script></body></html>\n'],
    ['img.png', PNG],
    ['bin.dat', BIN],
    ['pic.svg', '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n'],
    ['inline.svg', '<!-- a comment -->\n<svg xmlns="http://www.w3.org/2000/svg"></svg>\n'],
    ['doc.pdf', '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n'],
    ['empty.txt', ''],
    ['latin1.txt', Buffer.from('caf\xe9 cr\xe8me\n', 'latin1')],
    ['ünï.txt', 'unicode name\n'],
    ['a b.txt', 'spaced name\n'],
    ['dir/nested.txt', 'nested\n'],
    ['docs/x.txt', 'docs dir on main\n'],
    ['big.dat', BIG],
  ];
  const r = await change('files', rest.map(([path, content]) => ({ operation: 'create', path, content })));
  rest.forEach(([path], i) => (sha[path] = r.files[i].sha));
  mainHead = r.commit.sha;
  await change('files', [{ operation: 'update', path: 'hello.txt', content: 'feature\n', sha: sha['hello.txt']! }], { newBranch: 'feature/x' });
  await change('files', [{ operation: 'create', path: 'x.txt', content: 'on branch docs\n' }], { newBranch: 'docs' });

  // A tag and a commit with a symlink and a submodule, written as a push would (objects and refs, then the ref cache dropped).
  const dir = gitDirOf(g, files.id);
  git(['--git-dir', dir, 'tag', 'v1', mainHead]);
  git(['--git-dir', dir, 'tag', '-a', '-m', 'annotated', 'v1-annotated', mainHead]);
  const target = git(['--git-dir', dir, 'hash-object', '-w', '--stdin'], { input: 'hello.txt' }).stdout.trim();
  const base = git(['--git-dir', dir, 'ls-tree', mainHead]).stdout;
  const tree = git(['--git-dir', dir, 'mktree'], { input: `${base}120000 blob ${target}\tlink\n160000 commit ${mainHead}\tsub\n` }).stdout.trim();
  linkCommit = git(['--git-dir', dir, 'commit-tree', tree, '-p', mainHead, '-m', 'links']).stdout.trim();
  g.t.server.gitea.git.invalidate(dir);
});

test('GET /raw/{path}: the blob with every serving header', async () => {
  const r = await get('/api/v1/repos/root/files/raw/hello.txt');
  assert.is(r.status, 200);
  assert.is(r.text, 'hello world\n');
  const h = Object.fromEntries(r.headers);
  assert.is(h['content-type'], 'text/plain; charset=utf-8');
  assert.is(h['content-length'], '12');
  assert.is(h['etag'], `"${sha['hello.txt']}"`);
  assert.is(h['last-modified'], DATE_HTTP, 'the committer time of the last commit touching the path');
  assert.is(h['x-gitea-object-type'], 'file');
  assert.is(h['x-forgejo-object-type'], 'file');
  assert.is(h['x-content-type-options'], 'nosniff');
  assert.is(h['content-security-policy'], SANDBOX);
  assert.is(h['content-disposition'], 'inline; filename=hello.txt');
  assert.is(h['access-control-expose-headers'], 'Content-Disposition');
  assert.is(h['accept-ranges'], 'bytes');
  assert.is(h['cache-control'], 'public, max-age=21600', 'production (the test server mode): public repository of a public owner');
});

test('HEAD /raw and /media: the same headers, no body', async () => {
  for (const kind of ['raw', 'media']) {
    const full = await get(`/api/v1/repos/root/files/${kind}/hello.txt`);
    const r = await get(`/api/v1/repos/root/files/${kind}/hello.txt`, { method: 'HEAD' });
    assert.is(r.status, 200);
    assert.is(r.bytes.length, 0);
    for (const k of ['content-type', 'content-length', 'etag', 'last-modified', 'x-gitea-object-type', 'content-disposition', 'cache-control', 'content-security-policy']) {
      assert.is(r.headers.get(k), full.headers.get(k), `${kind} ${k}`);
    }
  }
});

test('304: If-None-Match (exact, weak, in a list) and If-Modified-Since', async () => {
  const url = '/api/v1/repos/root/files/raw/hello.txt';
  const etag = `"${sha['hello.txt']}"`;
  for (const inm of [etag, `W/${etag}`, `"other", ${etag}`]) {
    const r = await get(url, { headers: { 'if-none-match': inm } });
    assert.is(r.status, 304, inm);
    assert.is(r.bytes.length, 0);
    assert.is(r.headers.get('etag'), etag);
    assert.is(r.headers.get('last-modified'), DATE_HTTP);
    assert.is(r.headers.get('x-gitea-object-type'), 'file');
  }
  assert.is((await get(url, { headers: { 'if-none-match': '"other"' } })).status, 200);
  assert.is((await get(url, { headers: { 'if-modified-since': DATE_HTTP } })).status, 304);
  assert.is((await get(url, { headers: { 'if-modified-since': 'Sat, 01 Jan 2050 00:00:00 GMT' } })).status, 304);
  assert.is((await get(url, { headers: { 'if-modified-since': 'Wed, 01 Jan 2020 00:00:00 GMT' } })).status, 200);
  assert.is((await get(url, { headers: { 'if-modified-since': 'not a date' } })).status, 200);
});

test('Range: one range gives 206 with Content-Range; unsatisfiable 416; what cannot be honoured is ignored', async () => {
  const url = '/api/v1/repos/root/files/raw/hello.txt';
  const cases: [string, string, string][] = [
    ['bytes=0-4', 'hello', 'bytes 0-4/12'],
    ['bytes=6-', 'world\n', 'bytes 6-11/12'],
    ['bytes=-3', 'ld\n', 'bytes 9-11/12'],
    ['bytes=6-100', 'world\n', 'bytes 6-11/12'],
    ['bytes=-100', 'hello world\n', 'bytes 0-11/12'],
  ];
  for (const [range, body, cr] of cases) {
    const r = await get(url, { headers: { range } });
    assert.is(r.status, 206, range);
    assert.is(r.text, body, range);
    assert.is(r.headers.get('content-range'), cr, range);
    assert.is(r.headers.get('content-length'), String(Buffer.byteLength(body)), range);
    assert.is(r.headers.get('etag'), `"${sha['hello.txt']}"`);
  }
  for (const range of ['bytes=12-', 'bytes=100-200', 'bytes=-0']) {
    const r = await get(url, { headers: { range } });
    assert.is(r.status, 416, range);
    assert.is(r.headers.get('content-range'), 'bytes */12', range);
  }
  for (const range of ['bytes=0-1,3-4', 'bytes=5-2', 'items=0-1', 'bytes=x-']) {
    const r = await get(url, { headers: { range } });
    assert.is(r.status, 200, range);
    assert.is(r.text, 'hello world\n', range);
  }
  const etag = `"${sha['hello.txt']}"`;
  assert.is((await get(url, { headers: { range: 'bytes=0-4', 'if-range': etag } })).status, 206, 'If-Range: current ETag');
  assert.is((await get(url, { headers: { range: 'bytes=0-4', 'if-range': DATE_HTTP } })).status, 206, 'If-Range: current date');
  assert.is((await get(url, { headers: { range: 'bytes=0-4', 'if-range': '"stale"' } })).status, 200, 'If-Range: stale ETag');
  const head = await get(url, { method: 'HEAD', headers: { range: 'bytes=0-4' } });
  assert.is(head.status, 206);
  assert.is(head.headers.get('content-length'), '5');
  assert.is(head.bytes.length, 0);
});

test('sniffing: text as text/plain (HTML too), images/PDF as themselves, SVG sandboxed, binary as octet-stream', async () => {
  const cases: [string, string, string][] = [
    ['page.html', 'text/plain; charset=utf-8', SANDBOX],
    ['img.png', 'image/png', SANDBOX],
    ['bin.dat', 'application/octet-stream', SANDBOX],
    ['pic.svg', 'image/svg+xml', SANDBOX],
    ['inline.svg', 'image/svg+xml', SANDBOX],
    ['doc.pdf', 'application/pdf', "default-src 'none'; style-src 'unsafe-inline'"],
    ['empty.txt', 'text/plain; charset=utf-8', SANDBOX],
    ['latin1.txt', 'text/plain; charset=iso-8859-1', SANDBOX],
  ];
  for (const [path, type, csp] of cases) {
    const r = await get(`/api/v1/repos/root/files/raw/${path}`);
    assert.is(r.status, 200, path);
    assert.is(r.headers.get('content-type'), type, path);
    assert.is(r.headers.get('content-security-policy'), csp, path);
    assert.is(r.headers.get('x-content-type-options'), 'nosniff', path);
  }
  const png = await get('/api/v1/repos/root/files/raw/img.png');
  assert.ok(png.bytes.equals(PNG), 'binary content intact');
  const empty = await get('/api/v1/repos/root/files/raw/empty.txt');
  assert.is(empty.headers.get('content-length'), '0');
  assert.is(empty.bytes.length, 0);
  assert.is((await get('/api/v1/repos/root/files/raw/empty.txt', { headers: { range: 'bytes=0-1' } })).status, 200, 'an empty file is sent whole');
});

test('Content-Disposition: quoted when needed, filename* for non-ASCII names', async () => {
  const u = await get(`/api/v1/repos/root/files/raw/${encodeURIComponent('ünï.txt')}`);
  assert.is(u.status, 200);
  assert.is(u.headers.get('content-disposition'), "inline; filename=_n_.txt; filename*=utf-8''%C3%BCn%C3%AF.txt");
  const s = await get('/api/v1/repos/root/files/raw/a%20b.txt');
  assert.is(s.text, 'spaced name\n');
  assert.is(s.headers.get('content-disposition'), 'inline; filename="a b.txt"');
  const n = await get('/api/v1/repos/root/files/raw/dir/nested.txt');
  assert.is(n.headers.get('content-disposition'), 'inline; filename=nested.txt', 'the base name only');
});

test('symlinks are served as their target text, typed symlink; directories, submodules and missing paths are 404', async () => {
  const link = await get(`/api/v1/repos/root/files/raw/link?ref=${linkCommit}`);
  assert.is(link.status, 200);
  assert.is(link.text, 'hello.txt');
  assert.is(link.headers.get('x-gitea-object-type'), 'symlink');
  assert.is(link.headers.get('x-forgejo-object-type'), 'symlink');
  assert.is((await get(`/api/v1/repos/root/files/media/${linkCommit}/link`)).headers.get('x-gitea-object-type'), 'symlink');
  for (const kind of ['raw', 'media']) {
    await expectJsonError(g, get(`/api/v1/repos/root/files/${kind}/${linkCommit}/sub`), 404, 'not found');
    await expectJsonError(g, get(`/api/v1/repos/root/files/${kind}/dir`), 404, 'not found');
    await expectJsonError(g, get(`/api/v1/repos/root/files/${kind}/no-such.txt`), 404, 'not found');
    await expectJsonError(g, get(`/api/v1/repos/root/files/${kind}/dir/no/such`), 404, 'not found');
    await expectJsonError(g, get(`/api/v1/repos/root/files/${kind}/main`), 404, 'not found');
    await expectJsonError(g, get(`/api/v1/repos/root/files/${kind}/.git/config`), 404, 'not found');
  }
});

test('ref guessing: shortest branch prefix (slashes too), HEAD, tag, full sha, else the whole path on the default branch', async () => {
  const body = async (path: string) => {
    const r = await get(`/api/v1/repos/root/files/raw/${path}`);
    assert.is(r.status, 200, `${path}: ${r.text}`);
    return r.text;
  };
  assert.is(await body('hello.txt'), 'hello world\n');
  assert.is(await body('main/hello.txt'), 'hello world\n');
  assert.is(await body('feature/x/hello.txt'), 'feature\n', 'a branch name with a slash');
  assert.is(await body('hello.txt?ref=feature/x'), 'feature\n', '?ref is joined in front of the path');
  assert.is(await body('x/hello.txt?ref=feature'), 'feature\n', '?ref and path join into the branch name');
  assert.is(await body('docs/x.txt'), 'on branch docs\n', 'a branch wins over a directory of the default branch');
  assert.is(await body('HEAD/hello.txt'), 'hello world\n', 'HEAD is the default branch');
  assert.is(await body('v1/hello.txt'), 'hello world\n');
  assert.is(await body('v1-annotated/dir/nested.txt'), 'nested\n', 'an annotated tag is peeled');
  assert.is(await body(`${mainHead}/hello.txt`), 'hello world\n');
  assert.is(await body(`hello.txt?ref=${mainHead}`), 'hello world\n');
  assert.is(await body('hello.txt?ref=no-such'), 'hello world\n', 'an unknown ref falls back to the default branch');
  assert.is(await body('dir/nested.txt'), 'nested\n');
  // A full sha that names nothing cannot be guessed around.
  await expectJsonError(g, get(`/api/v1/repos/root/files/raw/${'0'.repeat(40)}/hello.txt`), 404, 'unable to find a git ref');
  await expectJsonError(g, get(`/api/v1/repos/root/files/media/hello.txt?ref=${'1'.repeat(40)}`), 404, 'unable to find a git ref');
  // The media route guesses the same way.
  assert.is((await get('/api/v1/repos/root/files/media/feature/x/hello.txt')).text, 'feature\n');
});

test('empty repository: 404 repository is empty', async () => {
  await g.repo('empty', { autoInit: false });
  for (const kind of ['raw', 'media']) await expectJsonError(g, get(`/api/v1/repos/root/empty/${kind}/README.md`), 404, 'repository is empty');
});

test('large blobs are streamed: whole, ranges, HEAD, and no git left behind', async () => {
  const url = '/api/v1/repos/root/files/raw/big.dat';
  const r = await get(url);
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-length'), String(BIG.length));
  assert.is(r.headers.get('content-type'), 'application/octet-stream');
  assert.ok(r.bytes.equals(BIG), 'content intact');
  const tail = await get(url, { headers: { range: 'bytes=-10' } });
  assert.is(tail.status, 206);
  assert.ok(tail.bytes.equals(BIG.subarray(BIG.length - 10)));
  const mid = await get(url, { headers: { range: 'bytes=5000000-5000099' } });
  assert.is(mid.status, 206);
  assert.is(mid.headers.get('content-range'), `bytes 5000000-5000099/${BIG.length}`);
  assert.ok(mid.bytes.equals(BIG.subarray(5000000, 5000100)), 'a range cut out of the stream');
  const head = await get(url, { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), String(BIG.length));
  assert.is((await get(url, { headers: { 'if-none-match': `"${sha['big.dat']}"` } })).status, 304);
  // A client that leaves mid-transfer takes git with it.
  const ac = new AbortController();
  const res = await fetch(g.url + url, { headers: { authorization: `token ${g.admin.token}` }, signal: ac.signal });
  const reader = res.body!.getReader();
  await reader.read();
  assert.is(gitChildren('cat-file blob').length, 1, 'git streams while the client reads');
  ac.abort();
  await reader.closed.catch(() => {});
  await waitNoChildren('cat-file blob');
});

test('/media: LFS objects held by this repository are served from the store; other pointers and content as they are', async () => {
  await g.repo('lfs');
  const object = Buffer.concat([Buffer.from('%PDF-1.5\n'), randomBytes(4000)]);
  const oid = createHash('sha256').update(object).digest('hex');
  await change('lfs', [{ operation: 'create', path: '.gitattributes', content: '*.pdf filter=lfs diff=lfs merge=lfs -text\n' }]);
  await change('lfs', [{ operation: 'create', path: 'report.pdf', content: object }], { date: DATE });
  const pointerText = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${object.length}\n`;
  const big = randomBytes(2000);
  const unknownPointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${'a'.repeat(64)}\nsize 10\n`;
  const w = await change('lfs', [
    { operation: 'create', path: 'unknown.ptr', content: unknownPointer },
    { operation: 'create', path: 'large.bin', content: big },
    { operation: 'create', path: 'small.txt', content: 'just text\n' },
  ]);

  const m = await get('/api/v1/repos/root/lfs/media/report.pdf');
  assert.is(m.status, 200);
  assert.ok(m.bytes.equals(object), 'the LFS object');
  assert.is(m.headers.get('etag'), `"${oid}"`);
  assert.is(m.headers.get('content-length'), String(object.length));
  assert.is(m.headers.get('content-type'), 'application/pdf', 'sniffed from the object');
  assert.is(m.headers.get('last-modified'), DATE_HTTP);
  assert.is(m.headers.get('x-gitea-object-type'), 'file');
  assert.is(m.headers.get('content-disposition'), 'inline; filename=report.pdf');
  const part = await get('/api/v1/repos/root/lfs/media/report.pdf', { headers: { range: 'bytes=10-19' } });
  assert.is(part.status, 206);
  assert.ok(part.bytes.equals(object.subarray(10, 20)));
  assert.is(part.headers.get('content-range'), `bytes 10-19/${object.length}`);
  assert.is((await get('/api/v1/repos/root/lfs/media/report.pdf', { headers: { 'if-none-match': `"${oid}"` } })).status, 304);
  assert.is((await get('/api/v1/repos/root/lfs/media/report.pdf', { method: 'HEAD' })).headers.get('content-length'), String(object.length));

  // /raw serves the pointer itself.
  const raw = await get('/api/v1/repos/root/lfs/raw/report.pdf');
  assert.is(raw.text, pointerText);
  assert.is(raw.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.is(raw.headers.get('etag'), `"${createHash('sha1').update(`blob ${pointerText.length}\0${pointerText}`).digest('hex')}"`);

  // A pointer to an object this repository does not hold, a blob over 1024 bytes, and plain text: served as they are.
  const u = await get('/api/v1/repos/root/lfs/media/unknown.ptr');
  assert.is(u.text, unknownPointer);
  assert.is(u.headers.get('etag'), `"${w.files[0].sha}"`);
  const l = await get('/api/v1/repos/root/lfs/media/large.bin');
  assert.ok(l.bytes.equals(big));
  assert.is(l.headers.get('etag'), `"${w.files[1].sha}"`);
  assert.is((await get('/api/v1/repos/root/lfs/media/small.txt')).text, 'just text\n');

  // The same pointer in another repository, which never received the object: the pointer text.
  await g.repo('other');
  await change('other', [{ operation: 'create', path: 'copy.pdf', content: pointerText }]);
  const other = await get('/api/v1/repos/root/other/media/copy.pdf');
  assert.is(other.status, 200);
  assert.is(other.text, pointerText);
});

test('answers kept for repeated GETs follow what can change at one commit: visibility, and an LFS object arriving later', async () => {
  await g.repo('kept');
  await change('kept', [{ operation: 'create', path: 'k.txt', content: 'kept\n' }]);
  const url = '/api/v1/repos/root/kept/raw/k.txt';
  for (let i = 0; i < 3; i++) assert.is((await get(url, { auth: null })).headers.get('cache-control'), 'public, max-age=21600');
  assert.is((await g.api('PATCH', '/api/v1/repos/root/kept', { json: { private: true } })).status, 200);
  const priv = await get(url);
  assert.is(priv.text, 'kept\n');
  assert.is(priv.headers.get('cache-control'), 'private, max-age=21600');
  await expectJsonError(g, get(url, { auth: null }), 404, 'not found');

  // A pointer whose object is uploaded after it was first served: /media then serves the object.
  const object = randomBytes(3000);
  const oid = createHash('sha256').update(object).digest('hex');
  await g.repo('late-lfs');
  await change('late-lfs', [{ operation: 'create', path: 'late.bin', content: `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${object.length}\n` }]);
  for (let i = 0; i < 2; i++) assert.match((await get('/api/v1/repos/root/late-lfs/media/late.bin')).text, /^version https:\/\/git-lfs/);
  const put = await fetch(`${g.url}/root/late-lfs.git/info/lfs/objects/${oid}/${object.length}`, { method: 'PUT', headers: { authorization: `token ${g.admin.token}` }, body: object });
  assert.is(put.status, 200);
  await put.arrayBuffer();
  assert.ok((await get('/api/v1/repos/root/late-lfs/media/late.bin')).bytes.equals(object));
});

test('private repositories: invisible to anonymous callers and strangers; tokens need read:repository', async () => {
  await g.repo('secret', { owner: alice, private: true });
  await change('secret', [{ operation: 'create', path: 's.txt', content: 'secret\n' }], { owner: alice });
  const api = '/api/v1/repos/alice/secret/raw/s.txt';
  const r = await get(api, { auth: alice.auth });
  assert.is(r.text, 'secret\n');
  assert.is(r.headers.get('cache-control'), 'private, max-age=21600');
  await expectJsonError(g, get(api, { auth: null }), 404, 'not found');
  await expectJsonError(g, get(api, { auth: bob.auth }), 404, 'not found');
  await expectJsonError(g, get('/api/v1/repos/alice/secret/media/s.txt', { auth: bob.auth }), 404, 'not found');
  assert.is((await get(api, { auth: { basic: `alice:${alice.password}` } })).text, 'secret\n', 'Basic with the password');
  assert.is((await get(api, { auth: { token: await g.token(alice, ['read:repository']) } })).status, 200);
  const userOnly = await g.token(alice, ['read:user']);
  await expectJsonError(g, get(api, { auth: { token: userOnly } }), 403, 'token does not have at least one of required scope(s), required=[read:repository], token scope=read:user');
  await expectJsonError(g, get(api, { auth: { token: 'not-a-token' } }), 401, 'invalid username, password or token');

  const web = '/alice/secret/raw/branch/main/s.txt';
  assert.is((await get(web, { auth: alice.auth })).text, 'secret\n');
  assertPlain(await get(web, { auth: null }), 404, 'not found');
  assertPlain(await get(web, { auth: bob.auth }), 404, 'not found');
  assertPlain(await get(web, { auth: { token: userOnly } }), 403, 'Forbidden');
  assertPlain(await get(web, { auth: { token: 'not-a-token' } }), 401, 'Failed to authenticate user');
  assertPlain(await get(web, { auth: { basic: 'alice:wrong-password' } }), 401, 'Failed to authenticate user');
  assert.is((await get(`${web}?token=${alice.token}`, { auth: null })).text, 'secret\n', 'a query token');
});

test('download_url: the web route serves the file with the same headers, by branch, tag or commit', async () => {
  const c = await g.api('GET', '/api/v1/repos/root/files/contents/hello.txt');
  assert.is(c.body.download_url, `${g.url}/root/files/raw/branch/main/hello.txt`);
  const api = await get('/api/v1/repos/root/files/raw/hello.txt');
  const web = await get(new URL(c.body.download_url).pathname, { auth: null });
  assert.is(web.status, 200);
  assert.is(web.text, 'hello world\n');
  for (const k of ['content-type', 'content-length', 'etag', 'last-modified', 'x-gitea-object-type', 'x-forgejo-object-type', 'content-disposition', 'cache-control', 'content-security-policy', 'x-content-type-options', 'accept-ranges']) {
    assert.is(web.headers.get(k), api.headers.get(k), k);
  }
  const ok = async (path: string, text: string) => {
    const r = await get(path, { auth: null });
    assert.is(r.status, 200, `${path}: ${r.text}`);
    assert.is(r.text, text, path);
  };
  await ok('/root/files/raw/branch/feature/x/hello.txt', 'feature\n');
  await ok('/root/files/raw/tag/v1/hello.txt', 'hello world\n');
  await ok(`/root/files/raw/commit/${mainHead}/dir/nested.txt`, 'nested\n');
  await ok(`/root/files/raw/commit/${mainHead.slice(0, 10)}/hello.txt`, 'hello world\n');
  await ok(`/root/files/raw/commit/${linkCommit}/link`, 'hello.txt');
  await ok('/root/files/raw/main/hello.txt', 'hello world\n');
  await ok('/root/files/raw/hello.txt', 'hello world\n');
  await ok('/root/files/raw/branch/main/a%20b.txt', 'spaced name\n');
  await ok('/ROOT/FILES/raw/branch/main/hello.txt', 'hello world\n');
  assert.is((await get('/root/files/raw/branch/main/hello.txt', { auth: null, headers: { 'if-none-match': `"${sha['hello.txt']}"` } })).status, 304);
  const part = await get('/root/files/raw/branch/main/hello.txt', { auth: null, headers: { range: 'bytes=0-4' } });
  assert.is(part.status, 206);
  assert.is(part.text, 'hello');
  const head = await get('/root/files/raw/branch/main/hello.txt', { auth: null, method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), '12');

  assertPlain(await get('/root/files/raw/branch/main/no-such.txt', { auth: null }), 404, 'not found');
  assertPlain(await get('/root/files/raw/branch/main/dir', { auth: null }), 404, 'not found');
  assertPlain(await get('/root/files/raw/branch/nope/hello.txt', { auth: null }), 404, 'branch or tag not exist: nope');
  assertPlain(await get('/root/files/raw/tag/nope/hello.txt', { auth: null }), 404, 'branch or tag not exist: nope');
  assertPlain(await get('/root/files/raw/branch/main/hello.txt/x', { auth: null }), 404, 'not found');
  assertPlain(await get('/root/nothing/raw/branch/main/hello.txt', { auth: null }), 404, 'not found');
  assertPlain(await get('/nobody/files/raw/branch/main/hello.txt', { auth: null }), 404, 'not found');
  assertPlain(await get('/root/empty/raw/branch/main/README.md', { auth: null }), 404, 'repository is empty');
});

test('the download route leaves other routes alone: /api, /ari, /sim and {repo}.git', async () => {
  const api = await get('/api/v1/raw/x/y', { auth: null });
  assert.is(api.status, 404);
  assert.equal(JSON.parse(api.text), apiError(g, 'not found'));
  const ari = await get('/ari/files/raw/branch/main/hello.txt', { auth: { basic: 'asterisk:asterisk' } });
  assert.is(ari.status, 404);
  assert.equal(JSON.parse(ari.text), { message: 'Resource not found' });
  const sim = await get('/sim/files/raw/branch/main/hello.txt', { auth: { basic: 'asterisk:asterisk' } });
  assert.is(sim.status, 404);
  assert.equal(JSON.parse(sim.text), { message: 'Resource not found' });
  const dotGit = await get('/root/files.git/raw/branch/main/hello.txt', { auth: null });
  assert.is.not(dotGit.status, 200);
  assert.is.not(dotGit.text, 'hello world\n');
  assert.is(dotGit.headers.get('x-gitea-object-type'), null);
});

test.run();

// Outside production, Gitea tells caches to revalidate every time.
const dev = suite('gitea: raw outside production');
const devCtx = useGitea(dev, { NODE_ENV: 'development' });

dev('Cache-Control: max-age=0, must-revalidate, public or private by visibility', async () => {
  const w = devCtx.g;
  const owner = await w.user('carol');
  for (const priv of [false, true]) {
    const name = priv ? 'hidden' : 'shown';
    await w.repo(name, { owner, private: priv });
    const r = await w.api('GET', `/api/v1/repos/carol/${name}/raw/README.md`, { auth: owner.auth });
    assert.is(r.status, 200);
    assert.is(r.headers.get('cache-control'), `max-age=0, ${priv ? 'private' : 'public'}, must-revalidate`);
  }
});

dev.run();
