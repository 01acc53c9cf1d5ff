import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../server/config.js';
import { createLogger } from '../../server/log.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { apiError, expectJsonError } from '../_helpers/api-error.js';
import { ADMIN, useGitea } from '../_helpers/gitea.js';
import { basicAuth } from '../_helpers/request.js';
import { logLines, startTestServer } from '../_helpers/server.js';
import { tempDir } from '../_helpers/temp-dir.js';

// Accounts: the first-start admin, user creation, access tokens, every way of authenticating, and token scopes.
const test = suite('gitea: accounts, tokens, authentication, scopes');
const ctx = useGitea(test, { LOG_LEVEL: 'trace' });

const GO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;
const USER_KEYS = [
  'id', 'login', 'login_name', 'source_id', 'full_name', 'email', 'avatar_url', 'html_url', 'language', 'is_admin', 'last_login', 'created', 'restricted',
  'active', 'prohibit_login', 'location', 'website', 'description', 'visibility', 'followers_count', 'following_count', 'starred_repos_count', 'username',
];
const TOKEN_KEYS = ['id', 'name', 'sha1', 'token_last_eight', 'scopes', 'created_at', 'last_used_at'];

const basic = (name: string, password: string) => ({ basic: `${name}:${password}` });

/** Every secret a test handed to the server: none of them may ever be in a log line. */
const secrets = new Set<string>([ADMIN.password]);

/** A fresh server without the test admin, on its own data directory, whose one-time announcements are captured. */
async function bareServer(env: Record<string, string>, dataDir: string) {
  const announced: string[] = [];
  const logs: string[] = [];
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    FIXTURES_DIR: join(import.meta.dirname, '..', '..', 'fixtures'),
    LOG_LEVEL: 'trace',
    CHECK_RESPONSES: 'true',
    ARI_USERS: 'asterisk:asterisk',
    ...env,
  });
  const server: RunningServer = await startServer(config, createLogger(config.logLevel, logLines(logs)), { announce: (l) => announced.push(l) });
  return { server, announced, logs };
}

async function get(url: string, auth: string | null) {
  const res = await fetch(url, { headers: auth ? { authorization: auth } : {} });
  return { status: res.status, body: (await res.json()) as any };
}

test('first start with ADMIN_USERNAME / ADMIN_PASSWORD: that admin exists and signs in with the password', async () => {
  const { g } = ctx;
  const r = await g.api('GET', '/api/v1/user', { auth: basic(ADMIN.name, ADMIN.password) });
  assert.is(r.status, 200);
  assert.is(r.body.login, 'root');
  assert.is(r.body.is_admin, true);
  assert.is(r.body.email, 'root@localhost');
  const users = g.t.server.db.prepare('SELECT name, is_admin FROM users').all();
  assert.equal(users.slice(0, 1), [{ name: 'root', is_admin: 1 }]);
});

test('first start without ADMIN_PASSWORD: `admin` with a random password announced once; a restart creates nobody', async () => {
  const dir = tempDir('admin');
  try {
    const first = await bareServer({}, dir);
    let password = '';
    try {
      assert.is(first.announced.length, 1);
      const m = /^Trunkline: created admin user "admin" with password (\S+) \(shown once; set ADMIN_PASSWORD to choose it\)$/.exec(first.announced[0]!);
      assert.ok(m, first.announced[0]);
      password = m![1]!;
      assert.ok(password.length >= 16, 'a long random password');
      const me = await get(`${first.server.url}/api/v1/user`, basicAuth(`admin:${password}`));
      assert.is(me.status, 200);
      assert.is(me.body.login, 'admin');
      assert.is(me.body.is_admin, true);
      const wrong = await get(`${first.server.url}/api/v1/user`, basicAuth(`admin:not-the-password`));
      assert.is(wrong.status, 401);
      assert.not.ok(first.logs.join('\n').includes(password), 'the password is not in the JSON log');
      assert.ok(first.logs.some((l) => l.includes('created the first admin user')));
    } finally {
      await first.server.close();
    }
    const second = await bareServer({}, dir);
    try {
      assert.is(second.announced.length, 0, 'nothing announced on restart');
      assert.equal(second.server.db.prepare('SELECT name FROM users').all(), [{ name: 'admin' }]);
      const me = await get(`${second.server.url}/api/v1/user`, basicAuth(`admin:${password}`));
      assert.is(me.status, 200, 'the first password still works');
      assert.not.ok(second.logs.some((l) => l.includes('created the first admin user')));
    } finally {
      await second.server.close();
    }
    // Setting ADMIN_USERNAME / ADMIN_PASSWORD later changes nothing either: the first start is over.
    const third = await bareServer({ ADMIN_USERNAME: 'other', ADMIN_PASSWORD: 'other-password-1' }, dir);
    try {
      assert.is(third.announced.length, 0);
      assert.equal(third.server.db.prepare('SELECT name FROM users').all(), [{ name: 'admin' }]);
    } finally {
      await third.server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('POST /admin/users: 201 with the User shape, in Gitea\'s field order', async () => {
  const { g } = ctx;
  secrets.add('alice-password-1');
  const r = await g.api('POST', '/api/v1/admin/users', { json: { username: 'alice', email: 'alice@example.com', password: 'alice-password-1', full_name: 'Alice A.' } });
  assert.is(r.status, 201);
  assert.equal(Object.keys(r.body), USER_KEYS);
  const { id, created, last_login, ...rest } = r.body;
  assert.ok(Number.isInteger(id) && id > 1);
  assert.match(created, GO_TIME);
  assert.match(last_login, GO_TIME);
  assert.equal(rest, {
    login: 'alice',
    login_name: '',
    source_id: 0,
    full_name: 'Alice A.',
    email: 'alice@example.com',
    avatar_url: '',
    html_url: `${g.url}/alice`,
    language: '',
    is_admin: false,
    restricted: false,
    active: true,
    prohibit_login: false,
    location: '',
    website: '',
    description: '',
    visibility: 'public',
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    username: 'alice',
  });
  // An admin may backdate an account; the visibility is kept.
  const old = await g.api('POST', '/api/v1/admin/users', { json: { username: 'oldtimer', email: 'old@example.com', password: 'old-password-1', created_at: '2015-03-04T05:06:07Z', visibility: 'limited' } });
  assert.equal([old.status, old.body.created, old.body.visibility], [201, '2015-03-04T05:06:07Z', 'limited']);
  // The new user signs in with that password.
  const me = await g.api('GET', '/api/v1/user', { auth: basic('alice', 'alice-password-1') });
  assert.is(me.status, 200);
  assert.is(me.body.id, id);
});

test('POST /admin/users: only a site admin, with a token holding write:admin', async () => {
  const { g } = ctx;
  const bob = await g.user('bob');
  secrets.add(bob.password).add(bob.token);
  await expectJsonError(ctx.g, g.api('POST', '/api/v1/admin/users', { json: { username: 'x1', email: 'x1@example.com', password: 'x1-password-1' }, auth: bob.auth }), 403, 'user should be the site admin');
  await expectJsonError(
    ctx.g,
    g.api('POST', '/api/v1/admin/users', { json: { username: 'x1', email: 'x1@example.com', password: 'x1-password-1' }, auth: basic(bob.name, bob.password) }),
    403,
    'user should be the site admin',
  );
  await expectJsonError(ctx.g, g.api('POST', '/api/v1/admin/users', { json: { username: 'x1', email: 'x1@example.com', password: 'x1-password-1' }, auth: null }), 401, 'token is required');
  const readAdmin = await g.token(g.admin, ['read:admin']);
  await expectJsonError(
    ctx.g,
    g.api('POST', '/api/v1/admin/users', { json: { username: 'x1', email: 'x1@example.com', password: 'x1-password-1' }, auth: { token: readAdmin } }),
    403,
    'token does not have at least one of required scope(s), required=[write:admin], token scope=read:admin',
  );
  const writeAdmin = await g.token(g.admin, ['write:admin']);
  const ok = await g.api('POST', '/api/v1/admin/users', { json: { username: 'x1', email: 'x1@example.com', password: 'x1-password-1' }, auth: { token: writeAdmin } });
  assert.is(ok.status, 201);
  // A user created with `admin: true` (our extension) is a site admin.
  const boss = await g.user('boss', { admin: true });
  const made = await g.api('POST', '/api/v1/admin/users', { json: { username: 'x2', email: 'x2@example.com', password: 'x2-password-1' }, auth: boss.auth });
  assert.is(made.status, 201);
});

test('POST /admin/users: conflicts, reserved names and binding errors, with Gitea\'s texts and statuses', async () => {
  const { g } = ctx;
  const post = (json: unknown) => g.api('POST', '/api/v1/admin/users', { json });
  await g.user('carol');
  await expectJsonError(ctx.g, post({ username: 'carol', email: 'new@example.com', password: 'long-enough-1' }), 422, 'user already exists [name: carol]');
  await expectJsonError(ctx.g, post({ username: 'CAROL', email: 'new@example.com', password: 'long-enough-1' }), 422, 'user already exists [name: CAROL]');
  await expectJsonError(ctx.g, post({ username: 'carol2', email: 'Carol@Example.com', password: 'long-enough-1' }), 422, 'e-mail already in use [email: Carol@Example.com]');
  for (const name of ['api', 'API', 'assets', 'user', 'explore', 'ghost', 'ari', 'sim', 'admin', 'users', 'repos', 'login']) {
    await expectJsonError(ctx.g, post({ username: name, email: `${name}1@example.com`, password: 'long-enough-1' }), 422, `name is reserved [name: ${name.toLowerCase()}]`);
  }
  for (const [name, pattern] of [['me.keys', '*.keys'], ['me.gpg', '*.gpg'], ['Feed.RSS', '*.rss'], ['x.atom', '*.atom'], ['pic.png', '*.png']]) {
    await expectJsonError(ctx.g, post({ username: name, email: `${name}@example.com`, password: 'long-enough-1' }), 422, `name pattern is not allowed [pattern: ${pattern}]`);
  }
  for (const name of ['-bad', 'bad-', 'a..b', 'a_-b', 'sp ace', 'ünï', '.x']) {
    await expectJsonError(ctx.g, post({ username: name, email: 'bad@example.com', password: 'long-enough-1' }), 422, '[Username]: Username');
  }
  await expectJsonError(ctx.g, post({ username: 'a'.repeat(41), email: 'long@example.com', password: 'long-enough-1' }), 422, '[Username]: MaxSize');
  await expectJsonError(ctx.g, post({ email: 'none@example.com', password: 'long-enough-1' }), 422, '[Username]: Required');
  await expectJsonError(ctx.g, post({ username: 'nomail', password: 'long-enough-1' }), 422, '[Email]: Required');
  await expectJsonError(ctx.g, post({ username: 'badmail', email: 'not-an-email', password: 'long-enough-1' }), 422, '[Email]: Email');
  await expectJsonError(ctx.g, post({ username: 'badvis', email: 'badvis@example.com', password: 'long-enough-1', visibility: 'secret' }), 422, '[Visibility]: In');
  await expectJsonError(ctx.g, post({ username: 7, email: 'n@example.com' }), 422, '[]: json: cannot unmarshal number into Go struct field CreateUserOption.username of type string');
  // Passwords shorter than MIN_PASSWORD_LENGTH (8), or none: 400, checked before the name (as Gitea).
  await expectJsonError(ctx.g, post({ username: 'shorty', email: 'shorty@example.com', password: 'short' }), 400, 'PasswordIsRequired');
  await expectJsonError(ctx.g, post({ username: 'nopw', email: 'nopw@example.com' }), 400, 'PasswordIsRequired');
  await expectJsonError(ctx.g, post({ username: 'carol', email: 'carol@example.com', password: 'short' }), 400, 'PasswordIsRequired');
  const none = await g.api('GET', '/api/v1/users/shorty');
  assert.is(none.status, 404, 'nothing was created');
});

test('POST /admin/users: concurrent requests for one name or email create one account', async () => {
  const { g } = ctx;
  const sameName = await Promise.all(
    Array.from({ length: 6 }, (_, i) => g.api('POST', '/api/v1/admin/users', { json: { username: 'twin', email: `twin${i}@example.com`, password: 'twin-password-1' } })),
  );
  assert.equal(sameName.map((r) => r.status).sort(), [201, 422, 422, 422, 422, 422]);
  for (const r of sameName.filter((x) => x.status === 422)) assert.equal(r.body, apiError(g, 'user already exists [name: twin]'));
  const sameEmail = await Promise.all(
    Array.from({ length: 4 }, (_, i) => g.api('POST', '/api/v1/admin/users', { json: { username: `mail${i}`, email: 'shared@example.com', password: 'mail-password-1' } })),
  );
  assert.equal(sameEmail.map((r) => r.status).sort(), [201, 422, 422, 422]);
  for (const r of sameEmail.filter((x) => x.status === 422)) assert.equal(r.body, apiError(g, 'e-mail already in use [email: shared@example.com]'));
});

test('tokens: creation needs Basic auth as that user (or an admin); the token is shown once', async () => {
  const { g } = ctx;
  const dave = await g.user('dave');
  const erin = await g.user('erin');
  secrets.add(dave.password).add(dave.token).add(erin.password).add(erin.token);
  const path = '/api/v1/users/dave/tokens';
  // Token auth is refused, even with every scope.
  await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'x', scopes: ['all'] }, auth: dave.auth }), 401, 'auth required');
  await expectJsonError(ctx.g, g.api('GET', path, { auth: dave.auth }), 401, 'auth required');
  await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'x', scopes: ['all'] }, auth: { query: dave.token } }), 401, 'auth required');
  // A token without the user scope gets the scope error first.
  const repoOnly = await g.token(dave, ['write:repository']);
  secrets.add(repoOnly);
  await expectJsonError(
    ctx.g,
    g.api('POST', path, { json: { name: 'x', scopes: ['all'] }, auth: { token: repoOnly } }),
    403,
    'token does not have at least one of required scope(s), required=[write:user], token scope=write:repository',
  );
  // Another (non-admin) user.
  await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'x', scopes: ['all'] }, auth: basic('erin', erin.password) }), 403, 'doer should be the site admin or be same as the contextUser');
  await expectJsonError(ctx.g, g.api('GET', path, { auth: basic('erin', erin.password) }), 403, 'doer should be the site admin or be same as the contextUser');
  await expectJsonError(ctx.g, g.api('POST', '/api/v1/users/nobody/tokens', { json: { name: 'x', scopes: ['all'] }, auth: basic('dave', dave.password) }), 404, 'user does not exist [uid: 0, name: nobody]');
  // Anonymous: Gitea's reqSelfOrAdmin runs before the Basic check.
  await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'x', scopes: ['all'] }, auth: null }), 403, 'doer should be the site admin or be same as the contextUser');

  const made = await g.api('POST', path, { json: { name: 'ci', scopes: ['read:repository', 'write:user'] }, auth: basic('dave', dave.password) });
  assert.is(made.status, 201);
  assert.equal(Object.keys(made.body), TOKEN_KEYS);
  assert.match(made.body.sha1, /^[0-9a-f]{40}$/);
  secrets.add(made.body.sha1);
  assert.is(made.body.name, 'ci');
  assert.is(made.body.token_last_eight, made.body.sha1.slice(-8));
  assert.equal(made.body.scopes, ['read:repository', 'write:user']);
  assert.match(made.body.created_at, GO_TIME);
  assert.is(made.body.last_used_at, '0001-01-01T00:00:00Z');
  // The site admin may create a token for dave too (with Basic auth).
  const byAdmin = await g.api('POST', path, { json: { name: 'by-admin', scopes: ['read:user'] }, auth: basic(ADMIN.name, ADMIN.password) });
  assert.is(byAdmin.status, 201);
  secrets.add(byAdmin.body.sha1);

  const list = await g.api('GET', path, { auth: basic('dave', dave.password) });
  assert.is(list.status, 200);
  assert.is(list.headers.get('x-total-count'), '4');
  // Newest first, the secret never shown again, no Link header (Gitea sets only the count here).
  assert.equal(
    list.body.map((t: any) => [t.sha1, t.token_last_eight, t.scopes]),
    [
      ['', byAdmin.body.sha1.slice(-8), ['read:user']],
      ['', made.body.sha1.slice(-8), ['read:repository', 'write:user']],
      ['', repoOnly.slice(-8), ['write:repository']],
      ['', dave.token.slice(-8), ['all']],
    ],
  );
  assert.equal(list.body.slice(0, 2).map((t: any) => t.name), ['by-admin', 'ci']);
  assert.is(list.headers.get('link'), null);
  for (const t of list.body) assert.equal(Object.keys(t), TOKEN_KEYS);
  // A token that was used has a last_used_at.
  const used = list.body[3];
  assert.match(used.last_used_at, GO_TIME);
  assert.is.not(used.last_used_at, '0001-01-01T00:00:00Z');
  // Paging.
  const page2 = await g.api('GET', `${path}?page=2&limit=3`, { auth: basic('dave', dave.password) });
  assert.equal(page2.body.map((t: any) => t.token_last_eight), [dave.token.slice(-8)]);
  assert.is(page2.headers.get('link'), null);
  assert.is(page2.headers.get('x-total-count'), '4');
});

test('tokens: name and scope rules (400), binding (422)', async () => {
  const { g } = ctx;
  const frank = await g.user('frank');
  const path = '/api/v1/users/frank/tokens';
  const auth = basic('frank', frank.password);
  assert.is((await g.api('POST', path, { json: { name: 'dup', scopes: ['read:user'] }, auth })).status, 201);
  await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'dup', scopes: ['read:user'] }, auth }), 400, 'access token name has been used already');
  await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'none' }, auth }), 400, 'access token must have a scope');
  await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'none', scopes: [] }, auth }), 400, 'access token must have a scope');
  await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'bad', scopes: ['read:repository', 'write:everything'] }, auth }), 400, 'invalid access token scope provided: invalid access token scope: write:everything');
  await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'bad', scopes: ['read:project'] }, auth }), 400, 'invalid access token scope provided: invalid access token scope: read:project');
  await expectJsonError(ctx.g, g.api('POST', path, { json: { scopes: ['all'] }, auth }), 422, '[Name]: Required');
  await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'x', scopes: 'all' }, auth }), 422, '[]: json: cannot unmarshal string into Go struct field CreateAccessTokenOption.scopes of type []string');
  // Normalisation: write implies read; every write scope collapses to `all`; a comma list is split.
  const norm = async (name: string, scopes: string[]) => (await g.api('POST', path, { json: { name, scopes }, auth })).body.scopes;
  assert.equal(await norm('n1', ['read:repository', 'write:repository']), ['write:repository']);
  assert.equal(await norm('n2', ['write:user', 'read:issue', 'public-only']), ['public-only', 'read:issue', 'write:user']);
  assert.equal(
    await norm('n3', ['write:activitypub', 'write:admin', 'write:misc', 'write:notification', 'write:organization', 'write:package', 'write:issue', 'write:repository', 'write:user']),
    ['all'],
  );
  assert.equal(await norm('n4', ['read:user,read:repository']), ['read:repository', 'read:user']);
  assert.equal(await norm('n5', ['all', 'read:user']), ['all']);
  // As Gitea, `public-only` alone is a scope list (a token that reaches nothing scoped).
  assert.equal(await norm('n6', ['public-only']), ['public-only']);
});

test('tokens: DELETE by id or by name (204), unknown (404); another user\'s token id is unknown', async () => {
  const { g } = ctx;
  const gina = await g.user('gina');
  const hank = await g.user('hank');
  const auth = basic('gina', gina.password);
  const path = '/api/v1/users/gina/tokens';
  const a = await g.api('POST', path, { json: { name: 'by-id', scopes: ['read:user'] }, auth });
  const b = await g.api('POST', path, { json: { name: 'by-name', scopes: ['read:user'] }, auth });
  const hanks = await g.api('POST', '/api/v1/users/hank/tokens', { json: { name: 'hanks', scopes: ['read:user'] }, auth: basic('hank', hank.password) });
  assert.is((await g.api('GET', '/api/v1/user', { auth: { token: a.body.sha1 } })).status, 200);
  const del = await g.api('DELETE', `${path}/${a.body.id}`, { auth });
  assert.is(del.status, 204);
  assert.is(del.text, '');
  // The deleted token no longer authenticates.
  await expectJsonError(ctx.g, g.api('GET', '/api/v1/user', { auth: { token: a.body.sha1 } }), 401, 'invalid username, password or token');
  assert.is((await g.api('DELETE', `${path}/by-name`, { auth })).status, 204);
  await expectJsonError(ctx.g, g.api('GET', '/api/v1/user', { auth: { token: b.body.sha1 } }), 401, 'invalid username, password or token');
  await expectJsonError(ctx.g, g.api('DELETE', `${path}/by-name`, { auth }), 404, 'not found');
  await expectJsonError(ctx.g, g.api('DELETE', `${path}/${a.body.id}`, { auth }), 404, 'not found');
  await expectJsonError(ctx.g, g.api('DELETE', `${path}/${hanks.body.id}`, { auth }), 404, 'not found');
  await expectJsonError(ctx.g, g.api('DELETE', `${path}/${hanks.body.id}`, { auth: gina.auth }), 401, 'auth required');
  await expectJsonError(ctx.g, g.api('DELETE', `/api/v1/users/hank/tokens/${hanks.body.id}`, { auth }), 403, 'doer should be the site admin or be same as the contextUser');
  assert.is((await g.api('GET', '/api/v1/user', { auth: { token: hanks.body.sha1 } })).status, 200, 'hank\'s token is untouched');
  // The site admin may delete it (Basic).
  assert.is((await g.api('DELETE', `/api/v1/users/hank/tokens/hanks`, { auth: basic(ADMIN.name, ADMIN.password) })).status, 204);
});

test('authentication: every form Gitea accepts', async () => {
  const { g } = ctx;
  const ivy = await g.user('ivy');
  secrets.add(ivy.password).add(ivy.token);
  const who = async (init: { headers?: Record<string, string>; query?: string }) => {
    const res = await fetch(`${g.url}/api/v1/user${init.query ?? ''}`, { headers: init.headers ?? {} });
    const body = (await res.json()) as any;
    return res.status === 200 ? body.login : `${res.status} ${body.message}`;
  };
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  assert.is(await who({ headers: { authorization: `token ${ivy.token}` } }), 'ivy');
  assert.is(await who({ headers: { authorization: `Bearer ${ivy.token}` } }), 'ivy');
  assert.is(await who({ headers: { authorization: `bearer ${ivy.token}` } }), 'ivy');
  assert.is(await who({ headers: { authorization: `Basic ${b64(`ivy:${ivy.password}`)}` } }), 'ivy');
  assert.is(await who({ headers: { authorization: `Basic ${b64(`IVY:${ivy.password}`)}` } }), 'ivy', 'user names are case-insensitive');
  assert.is(await who({ headers: { authorization: `Basic ${b64(`ivy:${ivy.token}`)}` } }), 'ivy', 'a token as the password');
  assert.is(await who({ headers: { authorization: `Basic ${b64(`whoever:${ivy.token}`)}` } }), 'ivy', 'a token as the password names its owner');
  assert.is(await who({ headers: { authorization: `Basic ${b64(`${ivy.token}:`)}` } }), 'ivy', 'a token as the user name, empty password');
  assert.is(await who({ headers: { authorization: `Basic ${b64(`${ivy.token}:x-oauth-basic`)}` } }), 'ivy', 'a token as the user name, x-oauth-basic');
  assert.is(await who({ query: `?token=${ivy.token}` }), 'ivy');
  assert.is(await who({ query: `?access_token=${ivy.token}` }), 'ivy');
  // Wrong credentials of any kind: 401, even where anonymous callers are welcome.
  const bad = '401 invalid username, password or token';
  assert.is(await who({ headers: { authorization: 'token 0123456789012345678901234567890123456789' } }), bad);
  assert.is(await who({ headers: { authorization: 'token not-hex' } }), bad);
  assert.is(await who({ headers: { authorization: `Bearer ${ivy.token}x` } }), bad);
  assert.is(await who({ headers: { authorization: `Basic ${b64('ivy:wrong-password')}` } }), bad);
  assert.is(await who({ headers: { authorization: `Basic ${b64(`nobody:${ivy.password}`)}` } }), bad);
  assert.is(await who({ headers: { authorization: `Basic ${b64('ivy:')}` } }), bad);
  assert.is(await who({ headers: { authorization: `Basic ${b64('0123456789abcdef0123456789abcdef01234567:x-oauth-basic')}` } }), bad);
  assert.is(await who({ query: '?token=0123456789abcdef0123456789abcdef01234567' }), bad);
  assert.is(await who({ query: '?access_token=nope' }), bad);
  const version = await fetch(`${g.url}/api/v1/version`, { headers: { authorization: `Basic ${b64('ivy:wrong-password')}` } });
  assert.is(version.status, 401);
  assert.equal(await version.json(), apiError(g, 'invalid username, password or token'));
  // No credentials: 401 where a user is needed. Gitea reads `token` case-sensitively: `Token X` is no credential.
  assert.is(await who({}), '401 token is required');
  assert.is(await who({ headers: { authorization: `Token ${ivy.token}` } }), '401 token is required');
  assert.is(await who({ headers: { authorization: `Digest ${ivy.token}` } }), '401 token is required');
  // A query token is read before the header (Gitea's order): a wrong one fails even with a good header,
  // and a good one wins over Basic credentials (so the token endpoints see a token, not Basic).
  assert.is(await who({ query: '?token=0123456789abcdef0123456789abcdef01234567', headers: { authorization: `token ${ivy.token}` } }), bad);
  assert.is(await who({ query: `?token=${ivy.token}`, headers: { authorization: `Basic ${b64('root:wrong')}` } }), 'ivy');
  const viaQuery = await fetch(`${g.url}/api/v1/users/ivy/tokens?token=${ivy.token}`, { headers: { authorization: `Basic ${b64(`ivy:${ivy.password}`)}` } });
  assert.is(viaQuery.status, 401);
  assert.equal(await viaQuery.json(), apiError(g, 'auth required'));
});

test('DISABLE_QUERY_AUTH_TOKEN=true: ?token= and ?access_token= are not credentials (the caller is anonymous)', async () => {
  const t = await startTestServer({ DISABLE_QUERY_AUTH_TOKEN: 'true' });
  try {
    const made = await fetch(`${t.url}/api/v1/users/root/tokens`, {
      method: 'POST',
      headers: { authorization: basicAuth(`${ADMIN.name}:${ADMIN.password}`), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'q', scopes: ['all'] }),
    });
    const token = ((await made.json()) as { sha1: string }).sha1;
    secrets.add(token);
    for (const q of ['token', 'access_token']) {
      const r = await fetch(`${t.url}/api/v1/user?${q}=${token}`);
      assert.is(r.status, 401);
      assert.equal(await r.json(), { message: 'token is required', url: `${t.url}/api/swagger` });
    }
    assert.is((await fetch(`${t.url}/api/v1/user`, { headers: { authorization: `token ${token}` } })).status, 200);
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test('scopes: read vs write by method, `all`, the exact 403 text, checked before the repository lookup', async () => {
  const { g } = ctx;
  const jack = await g.user('jack');
  await g.repo('scoped', { owner: jack });
  const read = await g.token(jack, ['read:repository']);
  const write = await g.token(jack, ['write:repository']);
  const userOnly = await g.token(jack, ['read:user']);
  const both = await g.token(jack, ['read:repository', 'read:user']);
  const all = await g.token(jack, ['all']);
  const repo = '/api/v1/repos/jack/scoped';
  assert.is((await g.api('GET', repo, { auth: { token: read } })).status, 200);
  assert.is((await g.api('HEAD', repo, { auth: { token: read } })).status, 200);
  assert.is((await g.api('GET', repo, { auth: { token: write } })).status, 200, 'write implies read');
  assert.is((await g.api('GET', repo, { auth: { token: all } })).status, 200);
  const needWrite = 'token does not have at least one of required scope(s), required=[write:repository], token scope=read:repository';
  await expectJsonError(ctx.g, g.api('PATCH', repo, { json: { description: 'x' }, auth: { token: read } }), 403, needWrite);
  await expectJsonError(ctx.g, g.api('DELETE', repo, { auth: { token: read } }), 403, needWrite);
  await expectJsonError(ctx.g, g.api('PATCH', '/api/v1/repos/jack/no-such-repo', { json: {}, auth: { token: read } }), 403, needWrite);
  await expectJsonError(ctx.g, g.api('PATCH', '/api/v1/repos/nobody/nothing', { json: {}, auth: { token: read } }), 403, needWrite);
  await expectJsonError(ctx.g, g.api('GET', '/api/v1/repos/nobody/nothing', { auth: { token: userOnly } }), 403, 'token does not have at least one of required scope(s), required=[read:repository], token scope=read:user');
  await expectJsonError(ctx.g, g.api('GET', '/api/v1/user', { auth: { token: read } }), 403, 'token does not have at least one of required scope(s), required=[read:user], token scope=read:repository');
  await expectJsonError(
    ctx.g,
    g.api('POST', '/api/v1/user/repos', { json: { name: 'nope' }, auth: { token: write } }),
    403,
    'token does not have at least one of required scope(s), required=[write:user], token scope=write:repository',
  );
  await expectJsonError(
    ctx.g,
    g.api('POST', '/api/v1/user/repos', { json: { name: 'nope' }, auth: { token: both } }),
    403,
    'token does not have at least one of required scope(s), required=[write:user], token scope=read:repository,read:user',
  );
  const writeBoth = await g.token(jack, ['write:user', 'read:repository']);
  await expectJsonError(
    ctx.g,
    g.api('POST', '/api/v1/user/repos', { json: { name: 'nope' }, auth: { token: writeBoth } }),
    403,
    'token does not have at least one of required scope(s), required=[write:repository], token scope=read:repository,write:user',
  );
  assert.is((await g.api('PATCH', repo, { json: { description: 'ok' }, auth: { token: write } })).status, 200);
  assert.is((await g.api('PATCH', repo, { json: { description: 'ok' }, auth: { token: all } })).status, 200);
  assert.is((await g.api('GET', '/api/v1/user', { auth: { token: both } })).status, 200);
  // Password sessions are never scope-checked.
  assert.is((await g.api('PATCH', repo, { json: { description: 'pw' }, auth: basic('jack', jack.password) })).status, 200);
  // /version needs no scope at all.
  assert.is((await g.api('GET', '/api/v1/version', { auth: { token: userOnly } })).status, 200);
});

test('scopes: a public-only token reaches public repositories only (403 on a private one it could otherwise read)', async () => {
  const { g } = ctx;
  const kim = await g.user('kim');
  await g.repo('open', { owner: kim });
  await g.repo('closed', { owner: kim, private: true });
  const pub = await g.token(kim, ['public-only', 'read:repository']);
  assert.is((await g.api('GET', '/api/v1/repos/kim/open', { auth: { token: pub } })).status, 200);
  await expectJsonError(ctx.g, g.api('GET', '/api/v1/repos/kim/closed', { auth: { token: pub } }), 403, 'token scope is limited to public repos');
  const full = await g.token(kim, ['read:repository']);
  assert.is((await g.api('GET', '/api/v1/repos/kim/closed', { auth: { token: full } })).status, 200);
  // Someone else's private repository is still just not there.
  await g.repo('hidden', { private: true });
  await expectJsonError(ctx.g, g.api('GET', '/api/v1/repos/root/hidden', { auth: { token: pub } }), 404, 'not found');
});

test('secrets at rest: passwords are scrypt hashes, tokens SHA-256; nothing secret in any log line', async () => {
  const { g } = ctx;
  const db = g.t.server.db;
  const rows = db.prepare('SELECT name, password_hash FROM users').all() as Array<{ name: string; password_hash: string }>;
  assert.ok(rows.length > 5);
  for (const r of rows) {
    assert.match(r.password_hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/, r.name);
    assert.not.ok(r.password_hash.includes(`${r.name}-password-1`));
  }
  // Two users with the same password get different hashes (salted).
  const lee = await g.api('POST', '/api/v1/admin/users', { json: { username: 'lee1', email: 'lee1@example.com', password: 'same-password-1' } });
  const lee2 = await g.api('POST', '/api/v1/admin/users', { json: { username: 'lee2', email: 'lee2@example.com', password: 'same-password-1' } });
  assert.is(lee.status, 201);
  assert.is(lee2.status, 201);
  const [h1, h2] = ['lee1', 'lee2'].map((n) => (db.prepare('SELECT password_hash FROM users WHERE name = ?').get(n) as { password_hash: string }).password_hash);
  assert.is.not(h1, h2);
  secrets.add('same-password-1');

  const made = await g.api('POST', '/api/v1/users/lee1/tokens', { json: { name: 'hashcheck', scopes: ['read:user'] }, auth: basic('lee1', 'same-password-1') });
  const token: string = made.body.sha1;
  secrets.add(token);
  const row = db.prepare('SELECT * FROM access_tokens WHERE name = ?').get('hashcheck') as Record<string, unknown>;
  assert.is(row.token_hash, createHash('sha256').update(token).digest('hex'));
  assert.is(row.last_eight, token.slice(-8));
  const everyColumn = JSON.stringify(db.prepare('SELECT * FROM access_tokens').all()) + JSON.stringify(db.prepare('SELECT * FROM users').all());
  for (const s of secrets) assert.not.ok(everyColumn.includes(s), 'no secret stored in clear');

  // Failed attempts with secrets in every place, then the logs.
  await g.api('GET', `/api/v1/user?token=${token}x`, { auth: null });
  await g.api('GET', `/api/v1/user?access_token=${token}`, { auth: null });
  await g.api('GET', '/api/v1/user', { auth: basic('lee1', 'wrong-secret-pw') });
  secrets.add('wrong-secret-pw');
  const logs = g.t.logs.join('\n');
  assert.ok(g.t.logs.length > 0);
  for (const s of secrets) assert.not.ok(logs.includes(s), `a secret (${s.slice(0, 4)}…) is in the log`);
  assert.not.ok(logs.includes(Buffer.from(`${ADMIN.name}:${ADMIN.password}`).toString('base64')));
});

test('GET /user, GET /users/{username}: what each viewer sees', async () => {
  const { g } = ctx;
  const mia = await g.user('mia');
  const ned = await g.user('ned');
  const self = await g.api('GET', '/api/v1/user', { auth: mia.auth });
  assert.is(self.status, 200);
  assert.equal(Object.keys(self.body), USER_KEYS);
  assert.is(self.body.login, 'mia');
  assert.is(self.body.email, 'mia@example.com');
  assert.is(self.body.active, true);
  // Another signed-in user sees the email but not the account's private details (Gitea's ToUser).
  const other = await g.api('GET', '/api/v1/users/mia', { auth: ned.auth });
  assert.is(other.status, 200);
  assert.is(other.body.email, 'mia@example.com');
  assert.is(other.body.active, false);
  assert.is(other.body.last_login, '0001-01-01T00:00:00Z');
  const admin = await g.api('GET', '/api/v1/users/root', { auth: ned.auth });
  assert.is(admin.body.is_admin, false, 'is_admin is shown to the user and site admins only');
  assert.is((await g.api('GET', '/api/v1/users/root')).body.is_admin, true);
  assert.is((await g.api('GET', '/api/v1/users/mia')).body.active, true, 'a site admin sees everything');
  // Anonymous callers see a placeholder email.
  const anon = await g.api('GET', '/api/v1/users/MIA', { auth: null });
  assert.is(anon.status, 200);
  assert.equal(Object.keys(anon.body), USER_KEYS);
  assert.is(anon.body.login, 'mia');
  assert.is(anon.body.email, 'mia@noreply.127.0.0.1');
  await expectJsonError(ctx.g, g.api('GET', '/api/v1/users/nobody'), 404, 'user does not exist [uid: 0, name: nobody]');
  await expectJsonError(ctx.g, g.api('GET', '/api/v1/user', { auth: null }), 401, 'token is required');
});

test('GET /version: anyone, no scope', async () => {
  const { g } = ctx;
  const r = await g.api('GET', '/api/v1/version', { auth: null });
  assert.is(r.status, 200);
  assert.equal(Object.keys(r.body), ['version']);
  assert.match(r.body.version, /^1\.\d+\.\d+\+trunkline$/);
});

test.run();
