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
const ctx = useGitea(test, { API_MAX_BLOB_SIZE: String(MAX_BLOB) });

/** A browser-side CMS session: sends each request as the CMS builds it and keeps `METHOD path → status` in order. */
class Session {
  readonly log: string[] = [];
  constructor(readonly headers: (method: string, json: boolean) => Record<string, string>) {}
  async send(method: string, path: string, json?: unknown): Promise<Reply> {
    const body = json === undefined ? undefined : JSON.stringify(json);
    const r = await request(ctx.g.url, method, `/api/v1${path}`, { headers: this.headers(method, json !== undefined), ...(body === undefined ? {} : { body }) });
    this.log.push(`${method} ${path} ${r.status}`);
    return r;
  }
  /** The log since the last call (one CMS action's requests). */
  take(): string[] {
    return this.log.splice(0);
  }
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

/** One commit as git keeps it: message, people and what it changed (renames found). */
function commitOf(dir: string, sha: string): { message: string; author: string; committer: string; parents: string; changes: string[] } {
  const [message, author, committer, parents] = git(['--git-dir', dir, 'show', '-s', '--format=%B%x00%an <%ae>%x00%cn <%ce>%x00%P', sha]).stdout.split('\0') as [string, string, string, string];
  const changes = git(['--git-dir', dir, 'diff-tree', '--no-commit-id', '-r', '-M', '--name-status', sha]).stdout.trim().split('\n').map((l) => l.replace(/\t/g, ' '));
  return { message, author, committer, parents: parents.trim(), changes };
}

const show = (dir: string, rev: string) => git(['--git-dir', dir, 'show', rev]).stdout;

test.before(async () => {
  owner = await person('ann', 'Ann Owner');
  editor = await person('ed', 'Ed Itor');
  token = await ctx.g.token(editor, ['write:repository', 'read:user'], 'cms');
});

// ---------------------------------------------------------------------------------------------
// Decap CMS, `gitea` backend: decaporg/decap-cms packages/decap-cms-backend-gitea/src/API.ts (the
// requests) and src/implementation.tsx (which requests each action makes); the commit messages are
// decap-cms-core's default templates. Facts only:
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
  tree: (repo: string, branch: string, folder: string) => `/repos/${repo}/git/trees/${branch}:${encodeURIComponent(folder.replace(/^\/+|\/+$/g, ''))}`,
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
    async listFiles(folder: string): Promise<{ id: string; name: string; path: string; size: number; type: string }[]> {
      const r = await s.send('GET', DECAP.tree(repo, branch, folder));
      if (r.status === 404) return [];
      assert.is(r.status, 200, r.text);
      return (r.body.tree as { path: string; type: string; sha: string; size: number }[])
        .filter((f) => f.type === 'blob')
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
  await saved(renamed, rename, ['R100 content/posts/second-post.md content/posts/renamed-post.md']);
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
  assert.is(lsTree(dir, 'main', 'static/img/photo.png')!.sha, logoSha, 'the uploaded bytes are the same blob as the logo');
});

test.run();
