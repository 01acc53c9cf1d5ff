import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openEventLog } from '../_helpers/events.js';
import { cloneUrl, gitAsync, useGitea, type Account, type Auth, type GiteaWorld } from '../_helpers/gitea.js';
import { basicAuth } from '../_helpers/request.js';
import { tempDir } from '../_helpers/temp-dir.js';

// Owner visibility (public / limited / private) as Gitea applies it: a limited account is seen by
// signed-in users only, a private one by itself and site admins; a public repository of an owner the
// caller cannot see does not exist for them (404), through the API, raw downloads, archives, git
// over HTTP, LFS and the event stream. The full viewer × owner matrix.
const test = suite('gitea: owner visibility');
const ctx = useGitea(test);

type Vis = 'public' | 'limited' | 'private';
const OWNERS: Record<Vis, string> = { public: 'pubowner', limited: 'limowner', private: 'privowner' };
type Viewer = 'anonymous' | 'stranger' | 'owner' | 'admin';
const VIEWERS: Viewer[] = ['anonymous', 'stranger', 'owner', 'admin'];

let g: GiteaWorld;
let work: string;
const owners = {} as Record<Vis, Account>;
let stranger: Account;
let collaborator: Account;

/** Gitea's rule: who sees an owner of this visibility (and so its public repositories). */
const sees = (viewer: Viewer, vis: Vis) => vis === 'public' || viewer === 'owner' || viewer === 'admin' || (vis === 'limited' && viewer === 'stranger');

function authOf(viewer: Viewer, vis: Vis): Auth {
  if (viewer === 'anonymous') return null;
  if (viewer === 'stranger') return stranger.auth;
  if (viewer === 'owner') return owners[vis].auth;
  return g.admin.auth;
}

function accountOf(viewer: Viewer, vis: Vis): { name: string; token: string } | undefined {
  if (viewer === 'anonymous') return undefined;
  if (viewer === 'stranger') return stranger;
  if (viewer === 'owner') return owners[vis];
  return g.admin;
}

/** Creates a user with a visibility (admin API), an `all` token, and a public repository `site` with a README. */
async function owner(name: string, visibility: Vis): Promise<Account> {
  const password = `${name}-password-1`;
  const r = await g.api('POST', '/api/v1/admin/users', { json: { username: name, email: `${name}@example.com`, password, visibility } });
  assert.is(r.status, 201, r.text);
  assert.is(r.body.visibility, visibility);
  const token = await g.token({ name, password }, ['all']);
  const account: Account = { name, password, token, auth: { token } };
  await g.repo('site', { owner: account });
  return account;
}

test.before(async () => {
  g = ctx.g;
  work = tempDir('visibility');
  for (const vis of ['public', 'limited', 'private'] as Vis[]) owners[vis] = await owner(OWNERS[vis], vis);
  stranger = await g.user('stranger');
  collaborator = await g.user('helper');
});
test.after(() => {
  rmSync(work, { recursive: true, force: true });
});

const notFoundUser = (name: string) => ({ message: `user does not exist [uid: 0, name: ${name}]`, url: `${g.url}/api/swagger` });
const notFound = () => ({ message: 'not found', url: `${g.url}/api/swagger` });

test('GET /users/{u}: 200 to whoever may see the account, else 404 exactly as for a user that does not exist', async () => {
  const missing = await g.api('GET', '/api/v1/users/nobody-at-all', { auth: null });
  assert.equal([missing.status, missing.body], [404, notFoundUser('nobody-at-all')]);
  for (const vis of ['public', 'limited', 'private'] as Vis[]) {
    for (const viewer of VIEWERS) {
      const name = OWNERS[vis];
      const r = await g.api('GET', `/api/v1/users/${name}`, { auth: authOf(viewer, vis) });
      const label = `${viewer} → ${vis} user`;
      if (sees(viewer, vis)) {
        assert.is(r.status, 200, label);
        assert.equal([r.body.login, r.body.visibility], [name, vis], label);
      } else {
        assert.is(r.status, 404, label);
        assert.equal(r.body, notFoundUser(name), label);
      }
    }
  }
});

test('a public repository of that owner through the API: get, contents, raw, media, branches, archive, editorconfig', async () => {
  for (const vis of ['public', 'limited', 'private'] as Vis[]) {
    const base = `/api/v1/repos/${OWNERS[vis]}/site`;
    for (const viewer of VIEWERS) {
      const auth = authOf(viewer, vis);
      const label = (what: string) => `${viewer} → ${what} of a ${vis} owner`;
      const get = await g.api('GET', base, { auth });
      const contents = await g.api('GET', `${base}/contents/README.md`, { auth });
      const rawFile = await g.api('GET', `${base}/raw/README.md`, { auth });
      const media = await g.api('GET', `${base}/media/README.md`, { auth });
      const branches = await g.api('GET', `${base}/branches`, { auth });
      const archive = await g.api('GET', `${base}/archive/main.tar.gz`, { auth });
      const editorconfig = await g.api('GET', `${base}/editorconfig/README.md`, { auth });
      if (sees(viewer, vis)) {
        assert.is(get.status, 200, label('repository'));
        assert.is(get.body.full_name, `${OWNERS[vis]}/site`);
        assert.is(get.body.private, false);
        assert.is(contents.status, 200, label('contents'));
        assert.is(contents.body.path, 'README.md');
        assert.is(rawFile.status, 200, label('raw'));
        assert.is(rawFile.text, '# site\n');
        assert.is(media.status, 200, label('media'));
        assert.is(branches.status, 200, label('branches'));
        assert.equal(branches.body.map((b: any) => b.name), ['main']);
        assert.is(archive.status, 200, label('archive'));
        assert.is(editorconfig.status, 404, label('editorconfig (none in the repository)'));
        assert.is.not(editorconfig.body.message, 'not found');
      } else {
        for (const [what, r] of Object.entries({ get, contents, rawFile, media, branches, archive, editorconfig })) {
          assert.is(r.status, 404, label(what));
          assert.equal(r.body, notFound(), label(what));
        }
      }
    }
  }
});

test('download_url (/{owner}/{repo}/raw/branch/…): the file, or a plain 404', async () => {
  for (const vis of ['public', 'limited', 'private'] as Vis[]) {
    for (const viewer of VIEWERS) {
      const r = await g.api('GET', `/${OWNERS[vis]}/site/raw/branch/main/README.md`, { auth: authOf(viewer, vis) });
      if (sees(viewer, vis)) assert.equal([r.status, r.text], [200, '# site\n'], `${viewer} → ${vis}`);
      else assert.equal([r.status, r.text], [404, 'not found\n'], `${viewer} → ${vis}`);
    }
  }
});

test('git over HTTP: info/refs and a real clone; anonymous callers are asked for credentials, strangers get 404', async () => {
  for (const vis of ['public', 'limited', 'private'] as Vis[]) {
    for (const viewer of VIEWERS) {
      const label = `${viewer} → ${vis}`;
      const account = accountOf(viewer, vis);
      const headers: Record<string, string> = account ? { authorization: basicAuth(`${account.name}:${account.token}`) } : {};
      const refs = await fetch(`${g.url}/${OWNERS[vis]}/site.git/info/refs?service=git-upload-pack`, { headers });
      const text = await refs.text();
      const dir = join(work, `${viewer}-${vis}`);
      const clone = await gitAsync(['clone', '-q', cloneUrl(g, OWNERS[vis], 'site', account), dir], { allowFail: true });
      if (sees(viewer, vis)) {
        assert.is(refs.status, 200, label);
        assert.is(clone.status, 0, `${label}: ${clone.stderr}`);
        assert.is(readFileSync(join(dir, 'README.md'), 'utf8'), '# site\n');
      } else if (viewer === 'anonymous') {
        assert.is(refs.status, 401, label);
        assert.is(refs.headers.get('www-authenticate'), 'Basic realm="Gitea"');
        assert.is.not(clone.status, 0, label);
        assert.match(clone.stderr, /could not read Username|terminal prompts disabled|Authentication failed/, label);
      } else {
        assert.equal([refs.status, text], [404, 'Repository not found'], label);
        assert.is.not(clone.status, 0, label);
        assert.match(clone.stderr, /not found/, label);
      }
    }
  }
});

test('LFS batch: hidden repositories ask for other credentials (401), as a private repository does', async () => {
  const body = JSON.stringify({ operation: 'download', objects: [{ oid: 'a'.repeat(64), size: 1 }] });
  for (const vis of ['public', 'limited', 'private'] as Vis[]) {
    for (const viewer of VIEWERS) {
      const account = accountOf(viewer, vis);
      const headers: Record<string, string> = { accept: 'application/vnd.git-lfs+json', 'content-type': 'application/vnd.git-lfs+json' };
      if (account) headers.authorization = basicAuth(`${account.name}:${account.token}`);
      const r = await fetch(`${g.url}/${OWNERS[vis]}/site.git/info/lfs/objects/batch`, { method: 'POST', headers, body });
      await r.arrayBuffer();
      assert.is(r.status, sees(viewer, vis) ? 200 : 401, `${viewer} → ${vis}`);
    }
  }
});

test('collaborators keep their access to a repository of an owner they could not otherwise see (as Gitea)', async () => {
  const base = `/api/v1/repos/${OWNERS.private}/site`;
  assert.is((await g.api('GET', base, { auth: collaborator.auth })).status, 404);
  assert.is((await g.api('PUT', `${base}/collaborators/helper`, { json: { permission: 'read' }, auth: owners.private.auth })).status, 204);
  assert.is((await g.api('GET', base, { auth: collaborator.auth })).status, 200);
  assert.is((await g.api('GET', `${base}/raw/README.md`, { auth: collaborator.auth })).text, '# site\n');
  // The account itself stays hidden from them.
  assert.is((await g.api('GET', `/api/v1/users/${OWNERS.private}`, { auth: collaborator.auth })).status, 404);
});

test('public-only tokens: public resources only, so not the repositories or profile of a limited owner', async () => {
  const pub = await g.token(stranger, ['public-only', 'read:repository', 'read:user']);
  assert.is((await g.api('GET', `/api/v1/repos/${OWNERS.public}/site`, { auth: { token: pub } })).status, 200);
  assert.is((await g.api('GET', `/api/v1/users/${OWNERS.public}`, { auth: { token: pub } })).status, 200);
  const repo = await g.api('GET', `/api/v1/repos/${OWNERS.limited}/site`, { auth: { token: pub } });
  assert.equal([repo.status, repo.body.message], [403, 'token scope is limited to public repos']);
  const user = await g.api('GET', `/api/v1/users/${OWNERS.limited}`, { auth: { token: pub } });
  assert.equal([user.status, user.body.message], [403, 'token scope is limited to public users']);
  const refs = await fetch(`${g.url}/${OWNERS.limited}/site.git/info/refs?service=git-upload-pack`, {
    headers: { authorization: basicAuth(`stranger:${pub}`) },
  });
  assert.is(refs.status, 403);
  // A private owner stays invisible: 404, not 403.
  assert.is((await g.api('GET', `/api/v1/repos/${OWNERS.private}/site`, { auth: { token: pub } })).status, 404);
});

test('the event stream: a stranger hears commits of the public owner\'s repository, never of the private owner\'s', async () => {
  const log = await openEventLog<any>(`${g.url.replace('http', 'ws')}/api/v1/events`, { headers: { authorization: `token ${stranger.token}` } });
  const events = log.events;
  try {
    const hidden = await g.commit(OWNERS.private, 'site', { 'h.txt': 'h\n' }, { auth: owners.private.auth });
    const limited = await g.commit(OWNERS.limited, 'site', { 'l.txt': 'l\n' }, { auth: owners.limited.auth });
    // Events are sent in commit order: once the public one is here, the earlier ones would have been.
    const open = await g.commit(OWNERS.public, 'site', { 'o.txt': 'o\n' }, { auth: owners.public.auth });
    // (The wait's bound is a guard against hanging the suite, not a timing assertion.)
    await log.waitFor((e) => e.sha === open.commit.sha);
    assert.equal(
      events.map((e) => [e.repository.full_name, e.sha]),
      [
        [`${OWNERS.limited}/site`, limited.commit.sha],
        [`${OWNERS.public}/site`, open.commit.sha],
      ],
    );
    assert.not.ok(events.some((e) => e.sha === hidden.commit.sha));
  } finally {
    await log.close();
  }
});

test.run();
