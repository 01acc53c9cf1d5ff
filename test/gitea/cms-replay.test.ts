import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError } from '../_helpers/api-error.js';
import { addCollaborator, git, gitDirOf, useGitea, type Account } from '../_helpers/gitea.js';
import { request, type Reply } from '../_helpers/request.js';
import { commitDates, lsTree, revParse } from './_contents.js';

// Replays, request by request, what two content-management systems send to a Gitea instance when
// an editor signs in with a token, loads a site, creates, edits, renames and deletes entries and
// uploads media: Decap CMS's `gitea` backend and Sveltia CMS's Gitea/Forgejo backend. Each CMS's
// requests are written down as data below (taken from the files named there), sent with fetch as the
// browser would, and each field the CMS reads is checked; the repository is then read with git to
// see that every save landed as one commit, with the message, author and content the CMS meant.
const test = suite('gitea: CMS replays (Decap, Sveltia)');
// A small blob limit, so that Sveltia meets a file the batch read leaves out (it reads those raw).
const MAX_BLOB = 4096;
// The CMS pages are served from their own origin: CORS (Gitea's [cors]) is on for it.
const CMS_ORIGIN = 'https://cms.example.test';
const ctx = useGitea(test, { API_MAX_BLOB_SIZE: String(MAX_BLOB), CORS_ENABLED: 'true', CORS_ALLOW_DOMAIN: CMS_ORIGIN });

/** How a CMS reads an answer: parsed as JSON, or taken as text or bytes. */
type Want = 'json' | 'text' | 'blob';

/**
 * A CMS session: sends each request with the headers and body the CMS builds and keeps
 * `METHOD path status` in order. With `origin` it does what a browser does for a page there
 * (Fetch standard, CORS): a preflight first when the request is not a simple one (logged as
 * `OPTIONS …`), which must allow it, then the request with `Origin`, whose answer must pass the
 * CORS check for the page to read it. Without, the requests go as from a client with no Origin.
 */
class Session {
  readonly log: string[] = [];
  constructor(readonly headers: (method: string, json: boolean, want: Want) => Record<string, string>, readonly origin?: string) {}
  async send(method: string, path: string, json?: unknown, want: Want = 'json'): Promise<Reply> {
    const body = json === undefined ? undefined : JSON.stringify(json);
    const headers = this.headers(method, json !== undefined, want);
    if (this.origin) {
      const unsafe = unsafeHeaders(headers);
      if (!['GET', 'HEAD', 'POST'].includes(method) || unsafe.length) {
        const pre = await request(ctx.g.url, 'OPTIONS', `/api/v1${path}`, {
          headers: { origin: this.origin, 'access-control-request-method': method, ...(unsafe.length ? { 'access-control-request-headers': unsafe.join(',') } : {}) },
        });
        this.log.push(`OPTIONS ${path} ${pre.status}`);
        assert.ok(preflightAllows(pre, this.origin, method, unsafe), `preflight of ${method} ${path}: ${JSON.stringify([...pre.headers])}`);
      }
    }
    const r = await request(ctx.g.url, method, `/api/v1${path}`, { headers: { ...headers, ...(this.origin ? { origin: this.origin } : {}) }, ...(body === undefined ? {} : { body }) });
    this.log.push(`${method} ${path} ${r.status}`);
    if (this.origin) assert.ok(corsAllows(r, this.origin), `${method} ${path}: the page could not read the answer`);
    return r;
  }
  /** The log since the last call (one CMS action's requests). */
  take(): string[] {
    return this.log.splice(0);
  }
}

// What a browser checks (Fetch standard), for a page that sends no cookies or kept credentials.
const SIMPLE_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
/** The request headers that make a request need a preflight, lowercase and sorted as a browser lists them. */
function unsafeHeaders(headers: Record<string, string>): string[] {
  const safe = (k: string, val: string) =>
    (['accept', 'accept-language', 'content-language'].includes(k) && !/["():<>?@[\\\]{}]/.test(val)) || (k === 'content-type' && SIMPLE_TYPES.includes(val.split(';')[0]!.trim().toLowerCase()));
  return Object.entries(headers).filter(([k, val]) => !safe(k.toLowerCase(), val)).map(([k]) => k.toLowerCase()).sort();
}
/** The CORS check: the answer names the page's origin, or any origin. */
const corsAllows = (r: Reply, origin: string) => [origin, '*'].includes(r.headers.get('access-control-allow-origin') ?? '');
/** A preflight answer lets the request go: ok status, the CORS check, the method (simple ones need no mention) and each header. */
function preflightAllows(r: Reply, origin: string, method: string, unsafe: string[]): boolean {
  const list = (name: string) => (r.headers.get(name) ?? '').split(',').map((x) => x.trim().toLowerCase()).filter(Boolean);
  const methods = list('access-control-allow-methods');
  const allowed = list('access-control-allow-headers');
  return r.status >= 200 && r.status < 300 && corsAllows(r, origin)
    && (['GET', 'HEAD', 'POST'].includes(method) || methods.includes(method.toLowerCase()) || methods.includes('*'))
    && unsafe.every((h) => allowed.includes(h) || (allowed.includes('*') && h !== 'authorization'));
}

const b64 = (s: string | Buffer) => (Buffer.isBuffer(s) ? s : Buffer.from(s)).toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64');
// Bytes no text decoder would keep as they are: the upload must come back byte for byte.
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0x7f, 0xc3, 0x28, 0x00]);
const post = (title: string, body: string) => `---\ntitle: ${title}\n---\n${body}\n`;

let owner: Account;
let editor: Account;
/** The editor's personal access token, with the scopes the CMSs ask for when they sign in with OAuth. */
let token = '';

/** A user with a display name, as an editor signs up. */
async function person(name: string, fullName: string): Promise<Account> {
  const password = `${name}-password-1`;
  const r = await ctx.g.api('POST', '/api/v1/admin/users', { json: { username: name, full_name: fullName, email: `${name}@example.com`, password } });
  assert.is(r.status, 201, r.text);
  const all = await ctx.g.token({ name, password }, ['all']);
  return { name, password, token: all, auth: { token: all } };
}

/** A site repository of `owner` with the editor as a writer, and the owner's first content. */
async function site(name: string, files: Record<string, string | Buffer>): Promise<{ dir: string; head: string }> {
  const repo = await ctx.g.repo(name, { owner });
  await addCollaborator(ctx.g, owner, name, editor, 'write');
  const r = await ctx.g.commit(owner.name, name, files, { auth: owner.auth, message: 'Start the site' });
  return { dir: gitDirOf(ctx.g, repo.id), head: r.commit.sha };
}

/** One commit as git keeps it: message, people and what it changed (renames found, as `R old new`). */
function commitOf(dir: string, sha: string): { message: string; author: string; committer: string; parents: string; changes: string[] } {
  const [message, author, committer, parents] = git(['--git-dir', dir, 'show', '-s', '--format=%B%x00%an <%ae>%x00%cn <%ce>%x00%P', sha]).stdout.split('\0') as [string, string, string, string];
  const changes = git(['--git-dir', dir, 'diff-tree', '--no-commit-id', '-r', '-M', '--name-status', sha]).stdout.trim().split('\n').map((l) => l.replace(/\t/g, ' ').replace(/^R\d+/, 'R'));
  return { message, author, committer, parents: parents.trim(), changes };
}

const show = (dir: string, rev: string) => git(['--git-dir', dir, 'show', rev]).stdout;
/** The blob id git gives these bytes. */
const blobId = (bytes: Buffer) => git(['hash-object', '--stdin'], { input: bytes }).stdout.trim();

test.before(async () => {
  owner = await person('ann', 'Ann Owner');
  editor = await person('ed', 'Ed Itor');
  token = await ctx.g.token(editor, ['write:repository', 'read:user'], 'cms');
});

// ---------------------------------------------------------------------------------------------
// Decap CMS, `gitea` backend: decaporg/decap-cms packages/decap-cms-backend-gitea/src/API.ts (the
// requests) and src/implementation.tsx (which requests each action makes); the commit messages are
// the default templates of packages/decap-cms-core/src/lib/formatters.ts. Facts only:
// - Decap gets its token through Gitea's OAuth2 (PKCE, src/AuthenticationPage.js) and keeps it; the
//   replay starts where it uses that token (`authenticate`), with a personal access token instead;
// - every request carries `Authorization: token …` and `Content-Type: application/json; charset=utf-8`;
// - sign-in reads `login`, `full_name`, `avatar_url` of /user, then `owner.login` and
//   `permissions.push` of the repository (no push: refused);
// - a folder is listed with git/trees/{branch}:{encodeURIComponent(folder)} (a 404 is an empty
//   folder), each entry read with git/blobs/{sha} and its last change with
//   commits?path=…&sha={branch}&stat=false (`[0].commit.author.name|email|date`);
// - before every save it looks the file's blob sha up in its folder's listing: found is an
//   `update` (with `from_path` when the entry moves), not found a `create`; media go first in the
//   same files list; one POST …/contents {branch, files, message} per save; deletes likewise.
const DECAP = {
  headers: (tok: string) => () => ({ authorization: `token ${tok}`, 'content-type': 'application/json; charset=utf-8' }),
  user: '/user',
  repo: (repo: string) => `/repos/${repo}`,
  tree: (repo: string, branch: string, folder: string, depth = 1) => `/repos/${repo}/git/trees/${branch}:${encodeURIComponent(folder.replace(/^\/+|\/+$/g, ''))}${depth > 1 ? '?recursive=1' : ''}`,
  blob: (repo: string, sha: string) => `/repos/${repo}/git/blobs/${sha}`,
  lastCommit: (repo: string, branch: string, path: string) => `/repos/${repo}/commits?path=${encodeURIComponent(path)}&sha=${encodeURIComponent(branch)}&stat=false`,
  changeFiles: (repo: string) => `/repos/${repo}/contents`,
  messages: { create: 'Create {{collection}} “{{slug}}”', update: 'Update {{collection}} “{{slug}}”', delete: 'Delete {{collection}} “{{slug}}”', uploadMedia: 'Upload “{{path}}”', deleteMedia: 'Delete “{{path}}”' },
};

/** Decap's message template filled in (collection label, slug, path). */
const decapMessage = (kind: keyof typeof DECAP.messages, v: { collection?: string; slug?: string; path?: string }) =>
  DECAP.messages[kind].replace('{{collection}}', v.collection ?? '').replace('{{slug}}', v.slug ?? '').replace('{{path}}', v.path ?? '');

/** What Decap does with the API, step by step, for one repository and branch. */
function decap(s: Session, repo: string, branch: string) {
  const dirOf = (path: string) => path.split('/').slice(0, -1).join('/');
  const api = {
    /** A folder's files (`depth` > 1: a nested collection, listed recursively and cut at that depth). */
    async listFiles(folder: string, depth = 1): Promise<{ id: string; name: string; path: string; size: number; type: string }[]> {
      const r = await s.send('GET', DECAP.tree(repo, branch, folder, depth));
      if (r.status === 404) return [];
      assert.is(r.status, 200, r.text);
      return (r.body.tree as { path: string; type: string; sha: string; size: number }[])
        .filter((f) => f.type === 'blob' && f.path.split('/').length <= depth)
        .map((f) => ({ id: f.sha, name: f.path.split('/').pop()!, path: `${folder}/${f.path}`, size: f.size, type: f.type }));
    },
    async getFileSha(path: string): Promise<string | undefined> {
      const r = await s.send('GET', DECAP.tree(repo, branch, dirOf(path)));
      if (r.status !== 200) return undefined;
      return (r.body.tree as { path: string; sha: string }[]).find((f) => f.path === path.split('/').pop())?.sha;
    },
    async readFile(path: string, sha?: string): Promise<Buffer> {
      sha ??= await api.getFileSha(path);
      const r = await s.send('GET', DECAP.blob(repo, sha!));
      assert.is(r.status, 200, r.text);
      return unb64(r.body.content);
    },
    async readFileMetadata(path: string): Promise<{ author: string; updatedOn: string }> {
      const r = await s.send('GET', DECAP.lastCommit(repo, branch, path));
      assert.is(r.status, 200, r.text);
      const { commit } = r.body[0];
      return { author: commit.author.name || commit.author.email, updatedOn: commit.author.date };
    },
    /** persistEntry / persistMedia: media first, then entries; each looked up, then one POST. */
    async persist(files: { path: string; newPath?: string; raw: string | Buffer }[], message: string): Promise<Reply> {
      const operations = [];
      for (const f of files) {
        const sha = await api.getFileSha(f.path);
        operations.push(
          sha
            ? { operation: 'update', content: b64(f.raw), path: f.newPath ?? f.path, from_path: f.newPath ? f.path : undefined, sha }
            : { operation: 'create', content: b64(f.raw), path: f.path, from_path: undefined, sha: undefined },
        );
      }
      return s.send('POST', DECAP.changeFiles(repo), { branch, files: operations, message });
    },
    async deleteFiles(paths: string[], message: string): Promise<Reply> {
      const operations = [];
      for (const path of paths) operations.push({ operation: 'delete', path, sha: await api.getFileSha(path) });
      return s.send('POST', DECAP.changeFiles(repo), { branch, files: operations, message });
    },
  };
  return api;
}

test('Decap CMS: sign in, load the site, create, edit, rename and delete entries, upload and delete media', async () => {
  const g = ctx.g;
  const repo = `${owner.name}/decap-site`;
  const first = post('First post', 'Hello.');
  const second = post('Second post', 'More.');
  const about = post('About', 'Who we are.');
  const { dir, head: start } = await site('decap-site', { 'content/posts/first-post.md': first, 'content/posts/second-post.md': second, 'about.md': about, 'static/img/logo.png': PNG });
  const s = new Session(DECAP.headers(token));
  const cms = decap(s, repo, 'main');

  // Sign in: the user, then the repository's owner and the push permission.
  const user = await s.send('GET', DECAP.user);
  assert.is(user.status, 200, user.text);
  assert.is(user.body.login, 'ed');
  assert.is(user.body.full_name, 'Ed Itor');
  // No avatars here: an empty address, which the CMS shows as its placeholder.
  assert.is(user.body.avatar_url, '');
  const info = await s.send('GET', DECAP.repo(repo));
  assert.is(info.status, 200, info.text);
  assert.is(info.body.owner.login, 'ann');
  assert.is(info.body.permissions.push, true);
  assert.equal(s.take(), ['GET /user 200', `GET /repos/${repo} 200`]);
  // A collaborator who may only read is told no at sign-in: Decap goes by `permissions.push`.
  const reader = await g.user('reed');
  await addCollaborator(g, owner, 'decap-site', reader, 'read');
  const readerSession = new Session(DECAP.headers(await g.token(reader, ['write:repository', 'read:user'])));
  const refused = await readerSession.send('GET', DECAP.repo(repo));
  assert.equal([refused.status, refused.body.permissions], [200, { admin: false, push: false, pull: true }]);

  // A folder collection: listed, then each entry's content and its last change.
  const posts = await cms.listFiles('content/posts');
  assert.equal(posts, [
    { id: lsTree(dir, 'main', 'content/posts/first-post.md')!.sha, name: 'first-post.md', path: 'content/posts/first-post.md', size: Buffer.byteLength(first), type: 'blob' },
    { id: lsTree(dir, 'main', 'content/posts/second-post.md')!.sha, name: 'second-post.md', path: 'content/posts/second-post.md', size: Buffer.byteLength(second), type: 'blob' },
  ]);
  for (const [i, text] of [first, second].entries()) {
    assert.is((await cms.readFile(posts[i]!.path, posts[i]!.id)).toString(), text);
    assert.equal(await cms.readFileMetadata(posts[i]!.path), { author: 'Ann Owner', updatedOn: commitDates(dir, start).author });
  }
  // A nested collection over the whole content folder, two levels deep.
  assert.equal((await cms.listFiles('content', 2)).map((f) => [f.path, f.id]), posts.map((f) => [f.path, f.id]));
  // A folder that does not exist yet is a 404, which Decap takes as an empty collection.
  assert.equal(await cms.listFiles('content/news'), []);
  // A file collection at the top of the repository: its folder is the root tree, `main:`.
  assert.is((await cms.readFile('about.md')).toString(), about);
  // The media library: the folder's files, each shown from its blob.
  const media = await cms.listFiles('static/img');
  assert.equal(media.map((m) => [m.name, m.size]), [['logo.png', PNG.length]]);
  assert.equal(await cms.readFile(media[0]!.path, media[0]!.id), PNG);
  const [firstSha, secondSha, logoSha] = [posts[0]!.id, posts[1]!.id, media[0]!.id];
  assert.equal(s.take(), [
    `GET /repos/${repo}/git/trees/main:content%2Fposts 200`,
    `GET /repos/${repo}/git/blobs/${firstSha} 200`,
    `GET /repos/${repo}/commits?path=content%2Fposts%2Ffirst-post.md&sha=main&stat=false 200`,
    `GET /repos/${repo}/git/blobs/${secondSha} 200`,
    `GET /repos/${repo}/commits?path=content%2Fposts%2Fsecond-post.md&sha=main&stat=false 200`,
    `GET /repos/${repo}/git/trees/main:content?recursive=1 200`,
    `GET /repos/${repo}/git/trees/main:content%2Fnews 404`,
    `GET /repos/${repo}/git/trees/main: 200`,
    `GET /repos/${repo}/git/blobs/${lsTree(dir, 'main', 'about.md')!.sha} 200`,
    `GET /repos/${repo}/git/trees/main:static%2Fimg 200`,
    `GET /repos/${repo}/git/blobs/${logoSha} 200`,
  ]);

  // Each save: the folder's listing, then one POST; each is one commit on main by the editor.
  const saves: { sha: string; message: string; changes: string[] }[] = [];
  async function saved(r: Reply, message: string, changes: string[]): Promise<void> {
    assert.is(r.status, 201, r.text);
    assert.is(r.body.commit.sha, revParse(dir, 'main'));
    assert.is(r.body.commit.message, `${message}\n`);
    saves.push({ sha: r.body.commit.sha, message, changes });
  }
  const third = post('Third post', 'Brand new.');
  const create = decapMessage('create', { collection: 'Post', slug: 'third-post' });
  const created = await cms.persist([{ path: 'content/posts/third-post.md', raw: third }], create);
  await saved(created, create, ['A content/posts/third-post.md']);
  assert.is(created.body.files[0].path, 'content/posts/third-post.md');
  assert.is(unb64(created.body.files[0].content).toString(), third);

  const edited = post('First post', 'Hello, edited.');
  const update = decapMessage('update', { collection: 'Post', slug: 'first-post' });
  await saved(await cms.persist([{ path: 'content/posts/first-post.md', raw: edited }], update), update, ['M content/posts/first-post.md']);

  // Renaming an entry (a new slug): an update of the old path's sha under the new path, with from_path.
  const rename = decapMessage('update', { collection: 'Post', slug: 'renamed-post' });
  const renamed = await cms.persist([{ path: 'content/posts/second-post.md', newPath: 'content/posts/renamed-post.md', raw: second }], rename);
  await saved(renamed, rename, ['R content/posts/second-post.md content/posts/renamed-post.md']);
  assert.equal(renamed.body.files.map((f: { path: string } | null) => f && f.path), ['content/posts/renamed-post.md']);

  const del = decapMessage('delete', { collection: 'Post', slug: 'third-post' });
  await saved(await cms.deleteFiles(['content/posts/third-post.md'], del), del, ['D content/posts/third-post.md']);

  const upload = decapMessage('uploadMedia', { path: 'static/img/photo.png' });
  await saved(await cms.persist([{ path: 'static/img/photo.png', raw: PNG }], upload), upload, ['A static/img/photo.png']);

  // An entry saved with a new image: the image first, then the entry, in one commit.
  const withPhoto = post('With photo', '![](/img/shot.png)');
  const both = decapMessage('create', { collection: 'Post', slug: 'with-photo' });
  await saved(await cms.persist([{ path: 'static/img/shot.png', raw: PNG }, { path: 'content/posts/with-photo.md', raw: withPhoto }], both), both, ['A content/posts/with-photo.md', 'A static/img/shot.png']);

  const unload = decapMessage('deleteMedia', { path: 'static/img/logo.png' });
  await saved(await cms.deleteFiles(['static/img/logo.png'], unload), unload, ['D static/img/logo.png']);

  const listing = (folder: string) => `GET /repos/${repo}/git/trees/main:${encodeURIComponent(folder)} 200`;
  const change = `POST /repos/${repo}/contents 201`;
  assert.equal(s.take(), [
    listing('content/posts'), change,
    listing('content/posts'), change,
    listing('content/posts'), change,
    listing('content/posts'), change,
    listing('static/img'), change,
    listing('static/img'), listing('content/posts'), change,
    listing('static/img'), change,
  ]);

  // git: one commit per save, in order, each on the one before, by the editor as Gitea names the doer.
  let parent = start;
  for (const save of saves) {
    assert.equal(commitOf(dir, save.sha), { message: `${save.message}\n`, author: 'Ed Itor <ed@example.com>', committer: 'Ed Itor <ed@example.com>', parents: parent, changes: save.changes });
    parent = save.sha;
  }
  assert.is(git(['--git-dir', dir, 'rev-list', '--count', `${start}..main`]).stdout.trim(), String(saves.length));
  assert.is(show(dir, 'main:content/posts/first-post.md'), edited);
  assert.is(show(dir, 'main:content/posts/renamed-post.md'), second);
  assert.equal(git(['--git-dir', dir, 'ls-tree', '-r', '--name-only', 'main']).stdout.trim().split('\n'), [
    'README.md', 'about.md', 'content/posts/first-post.md', 'content/posts/renamed-post.md', 'content/posts/with-photo.md', 'static/img/photo.png', 'static/img/shot.png',
  ]);
  // The images are stored byte for byte.
  for (const path of ['static/img/photo.png', 'static/img/shot.png']) assert.is(lsTree(dir, 'main', path)!.sha, blobId(PNG), path);
});

test('Decap CMS from its own origin: every request preflighted and allowed, every answer readable, the save lands', async () => {
  const repo = `${owner.name}/decap-cors`;
  const first = post('First post', 'Hello.');
  const { dir, head: start } = await site('decap-cors', { 'content/posts/first-post.md': first });
  const s = new Session(DECAP.headers(token), CMS_ORIGIN);
  const cms = decap(s, repo, 'main');
  // Sign in and load the folder collection: Authorization makes every request a preflighted one.
  const user = await s.send('GET', DECAP.user);
  assert.is(user.body.login, 'ed');
  assert.is((await s.send('GET', DECAP.repo(repo))).body.permissions.push, true);
  const posts = await cms.listFiles('content/posts');
  assert.is((await cms.readFile(posts[0]!.path, posts[0]!.id)).toString(), first);
  assert.equal(await cms.readFileMetadata(posts[0]!.path), { author: 'Ann Owner', updatedOn: commitDates(dir, start).author });
  // One save: the listing, then the POST.
  const second = post('Second post', 'From another origin.');
  const message = decapMessage('create', { collection: 'Post', slug: 'second-post' });
  const saved = await cms.persist([{ path: 'content/posts/second-post.md', raw: second }], message);
  assert.is(saved.status, 201, saved.text);
  assert.is(saved.body.commit.sha, revParse(dir, 'main'));
  assert.equal(commitOf(dir, saved.body.commit.sha), { message: `${message}\n`, author: 'Ed Itor <ed@example.com>', committer: 'Ed Itor <ed@example.com>', parents: start, changes: ['A content/posts/second-post.md'] });
  const both = (line: string) => [`OPTIONS ${line.split(' ')[1]} 200`, line];
  const listing = `GET /repos/${repo}/git/trees/main:content%2Fposts 200`;
  assert.equal(s.take(), [
    `GET /user 200`, `GET /repos/${repo} 200`,
    listing, `GET /repos/${repo}/git/blobs/${posts[0]!.id} 200`, `GET /repos/${repo}/commits?path=content%2Fposts%2Ffirst-post.md&sha=main&stat=false 200`,
    listing, `POST /repos/${repo}/contents 201`,
  ].flatMap(both));
});

// ---------------------------------------------------------------------------------------------
// Sveltia CMS, Gitea/Forgejo backend: sveltia/sveltia-cms src/lib/services/backends/git/gitea/
// (user.js, repository.js, instance.js, files.js, commits.js), with git/shared/api.js and
// utils/networking.js (headers), git/shared/fetch.js (load order), git/shared/commits.js (messages)
// and git/shared/url.js (path encoding). Facts only:
// - every request carries `Authorization: token …`; one answered as JSON also `Accept:
//   application/json`; a POST with a JSON body `Content-Type: application/json`;
// - sign-in reads `id`, `full_name`, `login`, `email`, `avatar_url`, `html_url` of /user;
// - loading: the repository (`default_branch` when none is configured, `permissions.push`; read
//   once and kept), the branch (`commit.id`, `commit.message`; `user_can_push`, `user_can_merge`),
//   /version (`version` at least 1.24, and not Forgejo's), the whole tree of the last commit
//   (git/trees/{commit}?recursive=1&page=N while `truncated`), /settings/api (the limits), then
//   the text files in batches through POST file-contents?ref= (matched by `path`), any text file
//   at or over `default_max_blob_size` through raw/{path}?ref=, and assets through media/{branch}/{path};
// - a save is one POST …/contents with branch, author, committer (the user's name and email),
//   dates (now, as JSON), message and files [{operation, path, content, from_path, sha}] — a move is
//   an `update` with `from_path`, a delete sends empty content — and it reads `commit.sha`,
//   `commit.created` and each `files[i].path`/`sha` (null for a deleted file); the sha it sends is
//   the one it knows, so a file changed by someone else is refused (422 on Gitea), after which it
//   reads the branch to tell whether the branch moved;
// - history: commits?sha={branch}&path=…&limit=100 (`sha`, `commit.author.name|email|date`,
//   `author.login`, `author.avatar_url`).
const SVELTIA = {
  headers: (tok: string) => (method: string, json: boolean, want: Want) => ({
    authorization: `token ${tok}`,
    ...(want === 'json' ? { accept: 'application/json' } : {}),
    ...(method === 'POST' && json ? { 'content-type': 'application/json' } : {}),
  }),
  encodePath: (p: string) => p.split('/').map(encodeURIComponent).join('/'),
  user: '/user',
  repo: (o: string, r: string) => `/repos/${o}/${r}`,
  branch: (o: string, r: string, b: string) => `/repos/${o}/${r}/branches/${SVELTIA.encodePath(b)}`,
  version: '/version',
  tree: (o: string, r: string, hash: string, page: number) => `/repos/${o}/${r}/git/trees/${SVELTIA.encodePath(hash)}?recursive=1&page=${page}`,
  settings: '/settings/api',
  fileContents: (o: string, r: string, b: string) => `/repos/${o}/${r}/file-contents?ref=${encodeURIComponent(b)}`,
  raw: (o: string, r: string, b: string, path: string) => `/repos/${o}/${r}/raw/${SVELTIA.encodePath(path)}?ref=${encodeURIComponent(b)}`,
  media: (o: string, r: string, b: string, path: string) => `/repos/${o}/${r}/media/${SVELTIA.encodePath(b)}/${SVELTIA.encodePath(path)}`,
  changeFiles: (o: string, r: string) => `/repos/${o}/${r}/contents`,
  history: (o: string, r: string, b: string, path: string) => `/repos/${o}/${r}/commits?sha=${encodeURIComponent(b)}&path=${encodeURIComponent(path)}&limit=100`,
  messages: { create: 'Create {{collection}} “{{slug}}”', update: 'Update {{collection}} “{{slug}}”', delete: 'Delete {{collection}} “{{slug}}”', uploadMedia: 'Upload “{{path}}”', deleteMedia: 'Delete “{{path}}”' },
};

/** One of Sveltia's file changes (its FileChange): what it knows of the file and what it wants. */
interface SveltiaChange {
  action: 'create' | 'update' | 'move' | 'delete';
  path: string;
  previousPath?: string;
  previousSha?: string;
  data?: string | Buffer;
}

test('Sveltia CMS: sign in, load the site in one tree and batched reads, save, move and delete entries, upload media, read history', async () => {
  const g = ctx.g;
  const [o, r] = [owner.name, 'sveltia-site'];
  const hello = post('Hello', 'First words.');
  const long = post('Long read', 'x'.repeat(MAX_BLOB + 100));
  const team = 'static/img/team photo #1.png';
  const { dir, head: start } = await site(r, { 'content/posts/hello.md': hello, 'content/posts/long.md': long, 'static/img/logo.png': PNG, [team]: Buffer.concat([PNG, PNG]) });
  const s = new Session(SVELTIA.headers(token));

  // Sign in.
  const me = await s.send('GET', SVELTIA.user);
  assert.is(me.status, 200, me.text);
  assert.equal([typeof me.body.id, me.body.full_name, me.body.login, me.body.email, me.body.avatar_url, me.body.html_url], ['number', 'Ed Itor', 'ed', 'ed@example.com', '', `${g.url}/ed`]);
  const author = { name: me.body.full_name, email: me.body.email };

  // Load: no branch configured, so the repository's default; the branch's head; access checks.
  const info = await s.send('GET', SVELTIA.repo(o, r));
  assert.is(info.status, 200, info.text);
  assert.is(info.body.default_branch, 'main');
  const branch = info.body.default_branch as string;
  const last = await s.send('GET', SVELTIA.branch(o, r, branch));
  assert.is(last.status, 200, last.text);
  assert.equal([last.body.commit.id, last.body.commit.message], [start, 'Start the site\n']);
  const version = await s.send('GET', SVELTIA.version);
  assert.is(version.status, 200, version.text);
  assert.ok(Number.parseFloat(version.body.version) >= 1.24 && !version.body.version.includes('+gitea-'), version.body.version);
  assert.is(info.body.permissions.push, true);
  const access = await s.send('GET', SVELTIA.branch(o, r, branch));
  assert.equal([access.status, access.body.user_can_push, access.body.user_can_merge], [200, true, true]);

  // The whole file list of the last commit, page by page while truncated.
  const files: { path: string; sha: string; size: number }[] = [];
  for (let page = 1; ; page++) {
    const t = await s.send('GET', SVELTIA.tree(o, r, start, page));
    assert.is(t.status, 200, t.text);
    files.push(...(t.body.tree as { type: string; path: string; sha: string; size: number }[]).filter((e) => e.type === 'blob').map(({ path, sha, size }) => ({ path, sha, size })));
    if (!t.body.truncated) break;
  }
  const blob = (path: string) => ({ path, sha: lsTree(dir, start, path)!.sha, size: Number(git(['--git-dir', dir, 'cat-file', '-s', `${start}:${path}`]).stdout.trim()) });
  assert.equal(files, [blob('README.md'), blob('content/posts/hello.md'), blob('content/posts/long.md'), blob('static/img/logo.png'), blob(team)]);
  const known = new Map(files.map((f) => [f.path, f.sha]));

  // The limits, then the entries' text in one batch (the long one is left to the raw read), then the asset.
  const limits = await s.send('GET', SVELTIA.settings);
  assert.is(limits.status, 200, limits.text);
  const { default_paging_num: paging, max_response_items: maxItems, default_max_blob_size: maxBlob, default_max_response_size: maxResponse } = limits.body;
  assert.equal([paging, maxItems, maxBlob, typeof maxResponse], [30, 50, MAX_BLOB, 'number']);
  const entries = files.filter((f) => f.path.startsWith('content/'));
  const small = entries.filter((f) => f.size < maxBlob).map((f) => f.path);
  assert.equal(small, ['content/posts/hello.md']);
  const batch = await s.send('POST', SVELTIA.fileContents(o, r, branch), { files: small });
  assert.is(batch.status, 200, batch.text);
  assert.equal(batch.body.map((e: { path: string; encoding: string; content: string }) => [e.path, e.encoding, unb64(e.content).toString()]), [['content/posts/hello.md', 'base64', hello]]);
  const raw = await s.send('GET', SVELTIA.raw(o, r, branch, 'content/posts/long.md'), undefined, 'text');
  assert.equal([raw.status, raw.text], [200, long]);
  const asset = await s.send('GET', SVELTIA.media(o, r, branch, 'static/img/logo.png'), undefined, 'blob');
  assert.equal([asset.status, asset.bytes], [200, PNG]);
  // Each path segment percent-encoded, `#` and spaces included.
  const teamAsset = await s.send('GET', SVELTIA.media(o, r, branch, team), undefined, 'blob');
  assert.equal([teamAsset.status, teamAsset.bytes], [200, Buffer.concat([PNG, PNG])]);
  assert.equal(s.take(), [
    'GET /user 200',
    `GET /repos/${o}/${r} 200`,
    `GET /repos/${o}/${r}/branches/main 200`,
    'GET /version 200',
    `GET /repos/${o}/${r}/branches/main 200`,
    `GET /repos/${o}/${r}/git/trees/${start}?recursive=1&page=1 200`,
    'GET /settings/api 200',
    `POST /repos/${o}/${r}/file-contents?ref=main 200`,
    `GET /repos/${o}/${r}/raw/content/posts/long.md?ref=main 200`,
    `GET /repos/${o}/${r}/media/main/static/img/logo.png 200`,
    `GET /repos/${o}/${r}/media/main/static/img/team%20photo%20%231.png 200`,
  ]);

  // Saves: each one POST, with the user as author and committer and the CMS's clock as the dates.
  const saves: { sha: string; message: string; date: string; changes: string[] }[] = [];
  let n = 0;
  async function commit(changes: SveltiaChange[], message: string, expect: string[]): Promise<Reply> {
    const date = `2025-03-0${++n}T10:20:30.456Z`;
    const res = await s.send('POST', SVELTIA.changeFiles(o, r), {
      branch,
      author,
      committer: author,
      dates: { author: date, committer: date },
      message,
      files: changes.map(({ action, path, previousPath, previousSha, data = '' }) => ({ operation: action === 'move' ? 'update' : action, path, content: b64(data), from_path: previousPath, sha: previousSha })),
    });
    if (res.status !== 201) return res;
    assert.is(res.body.commit.sha, revParse(dir, 'main'));
    // Gitea leaves `created` unset in a commit it answers a write with: Go's zero time.
    assert.is(res.body.commit.created, '0001-01-01T00:00:00Z');
    assert.equal([res.body.commit.author.date, res.body.commit.committer.date], [date.replace('.456', ''), date.replace('.456', '')]);
    changes.forEach((c, i) => {
      const f = res.body.files[i];
      if (c.action === 'delete') assert.is(f, null);
      else {
        assert.equal([f.path, f.sha], [c.path, lsTree(dir, 'main', c.path)!.sha]);
        known.set(c.path, f.sha);
      }
      if (c.action === 'delete' || c.action === 'move') known.delete(c.previousPath ?? c.path);
    });
    saves.push({ sha: res.body.commit.sha, message, date, changes: expect });
    return res;
  }
  const msg = (kind: keyof typeof SVELTIA.messages, slug: string, path = '') => SVELTIA.messages[kind].replace('{{collection}}', 'Post').replace('{{slug}}', slug).replace('{{path}}', path);
  const fresh = post('Fresh', 'Just written.');
  assert.is((await commit([{ action: 'create', path: 'content/posts/fresh.md', data: fresh }], msg('create', 'fresh'), ['A content/posts/fresh.md'])).status, 201);
  // The next saves of that entry use the sha the create answered with.
  const freshToo = post('Fresh', 'Written again.');
  assert.is((await commit([{ action: 'update', path: 'content/posts/fresh.md', previousSha: known.get('content/posts/fresh.md'), data: freshToo }], msg('update', 'fresh'), ['M content/posts/fresh.md'])).status, 201);
  const moved = post('Hello', 'First words, moved.');
  assert.is((await commit([{ action: 'move', path: 'content/posts/hello-world.md', previousPath: 'content/posts/hello.md', previousSha: known.get('content/posts/hello.md'), data: moved }], msg('update', 'hello-world'), ['R content/posts/hello.md content/posts/hello-world.md'])).status, 201);
  assert.is((await commit([{ action: 'delete', path: 'content/posts/fresh.md', previousSha: known.get('content/posts/fresh.md') }], msg('delete', 'fresh'), ['D content/posts/fresh.md'])).status, 201);
  // Two images in one upload: the message names the first and counts the rest.
  const icon = Buffer.concat([PNG, Buffer.from([1, 2, 3])]);
  const uploaded = await commit([{ action: 'create', path: 'static/img/photo.png', data: PNG }, { action: 'create', path: 'static/img/icon.png', data: icon }], `${msg('uploadMedia', '', 'static/img/photo.png')} +1`, ['A static/img/icon.png', 'A static/img/photo.png']);
  assert.is(uploaded.status, 201);

  // Someone else edits the moved entry: Sveltia's next save of it carries the sha it knows, is refused, and it sees the branch moved.
  const mine = revParse(dir, 'main');
  const other = await g.commit(o, r, { 'content/posts/hello-world.md': post('Hello', 'Edited elsewhere.') }, { auth: owner.auth, message: 'Edit on the web' });
  const stale = await commit([{ action: 'update', path: 'content/posts/hello-world.md', previousSha: known.get('content/posts/hello-world.md'), data: post('Hello', 'Mine.') }], msg('update', 'hello-world'), []);
  assert.is(stale.status, 422);
  assert.equal(stale.body, apiError(g, `sha does not match [given: ${known.get('content/posts/hello-world.md')}, expected: ${lsTree(dir, 'main', 'content/posts/hello-world.md')!.sha}]`));
  const moved2 = await s.send('GET', SVELTIA.branch(o, r, branch));
  assert.ok(moved2.body.commit.id !== mine && moved2.body.commit.id === other.commit.sha);

  // History of the moved entry: the commits that touched its new path, newest first, the editor's linked to the account.
  const hist = await s.send('GET', SVELTIA.history(o, r, branch, 'content/posts/hello-world.md'));
  assert.is(hist.status, 200, hist.text);
  const moveSave = saves[2]!;
  assert.equal(
    hist.body.map((c: any) => [c.sha, c.commit.author.name, c.commit.author.email, c.commit.author.date, c.author?.login ?? null, c.author?.avatar_url ?? null]),
    [
      [other.commit.sha, 'Ann Owner', 'ann@example.com', commitDates(dir, other.commit.sha).author, 'ann', ''],
      [moveSave.sha, 'Ed Itor', 'ed@example.com', moveSave.date.replace('.456', ''), 'ed', ''],
    ],
  );
  const post_ = `POST /repos/${o}/${r}/contents`;
  assert.equal(s.take(), [
    `${post_} 201`, `${post_} 201`, `${post_} 201`, `${post_} 201`, `${post_} 201`, `${post_} 422`,
    `GET /repos/${o}/${r}/branches/main 200`,
    `GET /repos/${o}/${r}/commits?sha=main&path=content%2Fposts%2Fhello-world.md&limit=100 200`,
  ]);

  // git: one commit per save, in order, with the author, committer and dates the CMS sent.
  let parent = start;
  for (const save of saves) {
    assert.equal(commitOf(dir, save.sha), { message: `${save.message}\n`, author: 'Ed Itor <ed@example.com>', committer: 'Ed Itor <ed@example.com>', parents: parent, changes: save.changes });
    const iso = save.date.replace('.456Z', '+00:00');
    assert.is(git(['--git-dir', dir, 'show', '-s', '--format=%aI %cI', save.sha]).stdout.trim(), `${iso} ${iso}`);
    parent = save.sha;
  }
  assert.is(git(['--git-dir', dir, 'rev-list', '--count', `${start}..${mine}`]).stdout.trim(), String(saves.length));
  assert.is(show(dir, `${mine}:content/posts/hello-world.md`), moved);
  assert.equal(git(['--git-dir', dir, 'ls-tree', '-r', '--name-only', mine]).stdout.trim().split('\n'), [
    'README.md', 'content/posts/hello-world.md', 'content/posts/long.md', 'static/img/icon.png', 'static/img/logo.png', 'static/img/photo.png', team,
  ]);
  // The images are stored byte for byte.
  for (const [path, bytes] of [['static/img/photo.png', PNG], ['static/img/icon.png', icon]] as const) assert.is(lsTree(dir, mine, path)!.sha, blobId(bytes), path);
});

test.run();
