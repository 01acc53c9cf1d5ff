import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expectError } from '../_helpers/api-error.js';
import { useGitea, type Account } from '../_helpers/gitea.js';

// Collaborators: add/update/remove with read, write or admin, the check and list endpoints, the
// permission endpoint, and what each permission really allows.
const test = suite('gitea: collaborators');
const ctx = useGitea(test);

let owen: Account;
let cara: Account;
let dirk: Account;
let emma: Account;
let stan: Account;

test.before(async () => {
  const { g } = ctx;
  const made = await Promise.all(['owen', 'cara', 'dirk', 'emma', 'stan'].map((n) => g.user(n)));
  [owen, cara, dirk, emma, stan] = made as [Account, Account, Account, Account, Account];
});

const collab = (repo: string, user: string) => `/api/v1/repos/owen/${repo}/collaborators/${user}`;

test('PUT: 204; permission defaults to write; read, write and admin; a second PUT changes it', async () => {
  const { g } = ctx;
  await g.repo('team', { owner: owen });
  const put = (user: string, json: unknown) => g.api('PUT', collab('team', user), { json, auth: owen.auth });
  const r = await put('cara', {});
  assert.is(r.status, 204);
  assert.is(r.text, '');
  const perm = async (user: string) => (await g.api('GET', `${collab('team', user)}/permission`, { auth: owen.auth })).body.permission;
  assert.is(await perm('cara'), 'write');
  assert.is((await put('dirk', { permission: 'read' })).status, 204);
  assert.is(await perm('dirk'), 'read');
  assert.is((await put('emma', { permission: 'admin' })).status, 204);
  assert.is(await perm('emma'), 'admin');
  assert.is((await put('cara', { permission: 'read' })).status, 204);
  assert.is(await perm('cara'), 'read');
  assert.is((await put('cara', { permission: null })).status, 204, 'null is absent: write');
  assert.is(await perm('cara'), 'write');
  // No body at all is the default too.
  assert.is((await g.api('PUT', collab('team', 'stan'), { auth: owen.auth })).status, 204);
  assert.is(await perm('stan'), 'write');
  assert.is((await g.api('DELETE', collab('team', 'stan'), { auth: owen.auth })).status, 204);
});

test('PUT: unknown user 422, bad permission 422, only repository admins (403), signed in (401)', async () => {
  const { g } = ctx;
  await g.repo('strict', { owner: owen });
  await expectError(ctx.g, g.api('PUT', collab('strict', 'ghosty'), { json: { permission: 'read' }, auth: owen.auth }), 422, 'user does not exist [uid: 0, name: ghosty]');
  // Gitea parses an unknown permission as "none" and then fails with a 500; a 422 says what is wrong.
  for (const permission of ['owner', 'none', 'WRITE', '']) {
    await expectError(ctx.g, g.api('PUT', collab('strict', 'cara'), { json: { permission }, auth: owen.auth }), 422, `invalid permission [${permission}]: must be read, write or admin`);
  }
  await expectError(ctx.g, g.api('PUT', collab('strict', 'cara'), { json: { permission: 1 }, auth: owen.auth }), 422, '[]: json: cannot unmarshal number into Go struct field AddCollaboratorOption.permission of type string');
  assert.is((await g.api('PUT', collab('strict', 'dirk'), { json: { permission: 'write' }, auth: owen.auth })).status, 204);
  assert.is((await g.api('PUT', collab('strict', 'emma'), { json: { permission: 'admin' }, auth: owen.auth })).status, 204);
  const NOT_ADMIN = 'user should be an owner or a collaborator with admin write of a repository';
  await expectError(ctx.g, g.api('PUT', collab('strict', 'stan'), { json: {}, auth: dirk.auth }), 403, NOT_ADMIN);
  await expectError(ctx.g, g.api('PUT', collab('strict', 'stan'), { json: {}, auth: stan.auth }), 403, NOT_ADMIN);
  await expectError(ctx.g, g.api('DELETE', collab('strict', 'dirk'), { auth: dirk.auth }), 403, NOT_ADMIN);
  await expectError(ctx.g, g.api('PUT', collab('strict', 'stan'), { json: {}, auth: null }), 401, 'token is required');
  // An admin collaborator manages collaborators.
  assert.is((await g.api('PUT', collab('strict', 'stan'), { json: { permission: 'read' }, auth: emma.auth })).status, 204);
  assert.is((await g.api('DELETE', collab('strict', 'stan'), { auth: emma.auth })).status, 204);
  // The repository is looked up first.
  await expectError(ctx.g, g.api('PUT', '/api/v1/repos/owen/none/collaborators/cara', { json: {}, auth: owen.auth }), 404, 'not found');
});

test('GET /collaborators/{user}: 204 when a collaborator, 404 when not, 422 for an unknown user; DELETE 204', async () => {
  const { g } = ctx;
  await g.repo('check', { owner: owen });
  assert.is((await g.api('PUT', collab('check', 'cara'), { json: { permission: 'read' }, auth: owen.auth })).status, 204);
  const yes = await g.api('GET', collab('check', 'cara'), { auth: owen.auth });
  assert.is(yes.status, 204);
  assert.is(yes.text, '');
  assert.is((await g.api('GET', collab('check', 'CARA'), { auth: owen.auth })).status, 204, 'names are case-insensitive');
  await expectError(ctx.g, g.api('GET', collab('check', 'dirk'), { auth: owen.auth }), 404, 'not found');
  await expectError(ctx.g, g.api('GET', collab('check', 'owen'), { auth: owen.auth }), 404, 'not found');
  await expectError(ctx.g, g.api('GET', collab('check', 'ghosty'), { auth: owen.auth }), 422, 'user does not exist [uid: 0, name: ghosty]');
  // Anyone who can read the repository may ask; anonymous callers may not.
  assert.is((await g.api('GET', collab('check', 'cara'), { auth: stan.auth })).status, 204);
  await expectError(ctx.g, g.api('GET', collab('check', 'cara'), { auth: null }), 401, 'token is required');
  const del = await g.api('DELETE', collab('check', 'cara'), { auth: owen.auth });
  assert.is(del.status, 204);
  assert.is(del.text, '');
  await expectError(ctx.g, g.api('GET', collab('check', 'cara'), { auth: owen.auth }), 404, 'not found');
  // Removing someone who is not a collaborator is fine; an unknown user is 422.
  assert.is((await g.api('DELETE', collab('check', 'cara'), { auth: owen.auth })).status, 204);
  await expectError(ctx.g, g.api('DELETE', collab('check', 'ghosty'), { auth: owen.auth }), 422, 'user does not exist [uid: 0, name: ghosty]');
});

test('GET /collaborators: the list (Users, not the owner), X-Total-Count, Link paging; limit capped at 50', async () => {
  const { g } = ctx;
  await g.repo('crowd', { owner: owen });
  const empty = await g.api('GET', '/api/v1/repos/owen/crowd/collaborators', { auth: owen.auth });
  assert.is(empty.status, 200);
  assert.equal(empty.body, []);
  assert.is(empty.headers.get('x-total-count'), '0');
  assert.is(empty.headers.get('link'), null);
  assert.is(empty.headers.get('access-control-expose-headers'), 'X-Total-Count');

  // 55 collaborators, added in a known order.
  const names = Array.from({ length: 55 }, (_, i) => `m${String(i).padStart(2, '0')}`);
  for (let i = 0; i < names.length; i += 8) {
    await Promise.all(
      names.slice(i, i + 8).map(async (n) => {
        const r = await g.api('POST', '/api/v1/admin/users', { json: { username: n, email: `${n}@example.com`, password: `${n}-password-1` } });
        assert.is(r.status, 201);
      }),
    );
  }
  for (const n of names) assert.is((await g.api('PUT', `/api/v1/repos/owen/crowd/collaborators/${n}`, { json: { permission: 'read' }, auth: owen.auth })).status, 204);
  const base = `${g.url}/api/v1/repos/owen/crowd/collaborators`;
  const list = async (query: string) => g.api('GET', `/api/v1/repos/owen/crowd/collaborators${query}`, { auth: owen.auth });

  const first = await list('');
  assert.is(first.body.length, 30, 'default page size 30');
  assert.equal(first.body.map((u: any) => u.login), names.slice(0, 30));
  assert.is(first.headers.get('x-total-count'), '55');
  assert.is(first.headers.get('link'), `<${base}?page=2>; rel="next",<${base}?page=2>; rel="last"`);
  assert.is(first.headers.get('access-control-expose-headers'), 'Link, X-Total-Count');
  assert.equal(Object.keys(first.body[0]).slice(0, 3), ['id', 'login', 'login_name']);
  assert.is(first.body[0].email, 'm00@example.com');

  const mid = await list('?page=2&limit=20');
  assert.equal(mid.body.map((u: any) => u.login), names.slice(20, 40));
  assert.is(
    mid.headers.get('link'),
    `<${base}?limit=20&page=3>; rel="next",<${base}?limit=20&page=3>; rel="last",<${base}?limit=20&page=1>; rel="first",<${base}?limit=20&page=1>; rel="prev"`,
  );
  const last = await list('?limit=20&page=3');
  assert.equal(last.body.map((u: any) => u.login), names.slice(40));
  assert.is(last.headers.get('link'), `<${base}?limit=20&page=1>; rel="first",<${base}?limit=20&page=2>; rel="prev"`);

  const capped = await list('?limit=100');
  assert.is(capped.body.length, 50, 'MAX_RESPONSE_ITEMS');
  assert.is(capped.headers.get('link'), `<${base}?limit=100&page=2>; rel="next",<${base}?limit=100&page=2>; rel="last"`);
  assert.is((await list('?limit=100&page=2')).body.length, 5);

  // Past the end: an empty page, links as if on the last page; page ≤ 0 is page 1; junk is 0.
  const past = await list('?limit=20&page=9');
  assert.equal(past.body, []);
  assert.is(past.headers.get('x-total-count'), '55');
  assert.is(past.headers.get('link'), `<${base}?limit=20&page=1>; rel="first",<${base}?limit=20&page=2>; rel="prev"`);
  assert.equal((await list('?page=0&limit=5')).body.map((u: any) => u.login), names.slice(0, 5));
  assert.equal((await list('?page=-3&limit=5')).body.map((u: any) => u.login), names.slice(0, 5));
  assert.is((await list('?page=x&limit=y')).body.length, 30);
  // Other query parameters are kept, keys in Go's sorted order; the path as routed.
  const odd = await g.api('GET', '/api/v1/repos/owen/crowd/collaborators/?zeta=1&limit=50&alpha=a%20b', { auth: owen.auth });
  assert.is(odd.headers.get('link'), `<${base}?alpha=a+b&limit=50&page=2&zeta=1>; rel="next",<${base}?alpha=a+b&limit=50&page=2&zeta=1>; rel="last"`);

  // Any reader may list; anonymous callers may not.
  assert.is((await g.api('GET', '/api/v1/repos/owen/crowd/collaborators', { auth: stan.auth })).status, 200);
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/owen/crowd/collaborators', { auth: null }), 401, 'token is required');
});

test('GET /collaborators/{user}/permission: owner, admin, write, read, none; who may ask (403)', async () => {
  const { g } = ctx;
  await g.repo('perms', { owner: owen, private: true });
  await g.repo('perms-pub', { owner: owen });
  for (const repo of ['perms', 'perms-pub']) {
    assert.is((await g.api('PUT', collab(repo, 'cara'), { json: { permission: 'read' }, auth: owen.auth })).status, 204);
    assert.is((await g.api('PUT', collab(repo, 'dirk'), { json: { permission: 'write' }, auth: owen.auth })).status, 204);
    assert.is((await g.api('PUT', collab(repo, 'emma'), { json: { permission: 'admin' }, auth: owen.auth })).status, 204);
  }
  const ask = (repo: string, user: string, auth: Account['auth'] = owen.auth) => g.api('GET', `${collab(repo, user)}/permission`, { auth });
  const r = await ask('perms', 'owen');
  assert.is(r.status, 200);
  assert.equal(Object.keys(r.body), ['permission', 'role_name', 'user']);
  assert.equal([r.body.permission, r.body.role_name, r.body.user.login, r.body.user.email], ['owner', 'owner', 'owen', 'owen@example.com']);
  const modeOf = async (repo: string, user: string, auth?: Account['auth']) => (await ask(repo, user, auth)).body.permission;
  assert.is(await modeOf('perms', 'emma'), 'admin');
  assert.is(await modeOf('perms', 'dirk'), 'write');
  assert.is(await modeOf('perms', 'cara'), 'read');
  assert.is(await modeOf('perms', 'stan'), 'none');
  assert.is(await modeOf('perms', 'root'), 'admin', 'a site admin');
  assert.is(await modeOf('perms-pub', 'stan'), 'read', 'anyone reads a public repository');
  // Collaborators may ask about themselves; repo admins and site admins about anyone.
  assert.is(await modeOf('perms', 'cara', cara.auth), 'read');
  assert.is(await modeOf('perms', 'CARA', cara.auth), 'read');
  assert.is(await modeOf('perms', 'dirk', emma.auth), 'write');
  assert.is(await modeOf('perms', 'dirk', undefined), 'write');
  const NOT_YOURS = 'Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own';
  await expectError(ctx.g, ask('perms', 'dirk', cara.auth), 403, NOT_YOURS);
  await expectError(ctx.g, ask('perms', 'owen', dirk.auth), 403, NOT_YOURS);
  await expectError(ctx.g, ask('perms-pub', 'cara', stan.auth), 403, NOT_YOURS);
  await expectError(ctx.g, ask('perms-pub', 'ghosty', stan.auth), 403, NOT_YOURS);
  assert.is(await modeOf('perms-pub', 'stan', stan.auth), 'read');
  await expectError(ctx.g, ask('perms', 'stan', stan.auth), 404, 'not found');
  await expectError(ctx.g, ask('perms', 'ghosty'), 404, 'user does not exist [uid: 0, name: ghosty]');
  await expectError(ctx.g, ask('perms-pub', 'cara', null), 401, 'token is required');
});

test('permissions are enforced: read cannot write or edit, write can write but not edit, admin can edit', async () => {
  const { g } = ctx;
  await g.repo('real', { owner: owen, private: true });
  const put = (user: string, permission: string) => g.api('PUT', collab('real', user), { json: { permission }, auth: owen.auth });
  const write = (auth: Account['auth'], path: string) => g.api('POST', `/api/v1/repos/owen/real/contents/${path}`, { json: { content: Buffer.from(path).toString('base64') }, auth });
  const edit = (auth: Account['auth']) => g.api('PATCH', '/api/v1/repos/owen/real', { json: { description: 'edited' }, auth });
  const NOT_ADMIN = 'user should be an owner or a collaborator with admin write of a repository';

  // Not a collaborator: the private repository does not exist.
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/owen/real/contents/README.md', { auth: cara.auth }), 404, 'not found');
  assert.is((await put('cara', 'read')).status, 204);
  assert.is((await g.api('GET', '/api/v1/repos/owen/real/contents/README.md', { auth: cara.auth })).status, 200);
  assert.is((await write(cara.auth, 'by-reader.txt')).status, 403);
  await expectError(ctx.g, edit(cara.auth), 403, NOT_ADMIN);

  assert.is((await put('cara', 'write')).status, 204);
  assert.is((await write(cara.auth, 'by-writer.txt')).status, 201);
  await expectError(ctx.g, edit(cara.auth), 403, NOT_ADMIN);
  await expectError(ctx.g, g.api('PUT', collab('real', 'dirk'), { json: {}, auth: cara.auth }), 403, NOT_ADMIN);

  assert.is((await put('cara', 'admin')).status, 204);
  const edited = await edit(cara.auth);
  assert.is(edited.status, 200);
  assert.equal(edited.body.permissions, { admin: true, push: true, pull: true });
  assert.is((await g.api('PUT', collab('real', 'dirk'), { json: { permission: 'read' }, auth: cara.auth })).status, 204);
  await expectError(ctx.g, g.api('DELETE', '/api/v1/repos/owen/real', { auth: cara.auth }), 403, 'user should be the owner of the repo');

  // Removed: the repository is gone for them again.
  assert.is((await g.api('DELETE', collab('real', 'cara'), { auth: owen.auth })).status, 204);
  await expectError(ctx.g, g.api('GET', '/api/v1/repos/owen/real', { auth: cara.auth }), 404, 'not found');
  await expectError(ctx.g, edit(cara.auth), 404, 'not found');
});

test.run();
