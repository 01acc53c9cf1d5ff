import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError } from '../_helpers/api-error.js';
import { sqlWrite, useGitea, type Auth } from '../_helpers/gitea.js';
import { b64 } from './_contents.js';

const test = suite('contents-permissions');
const ctx = useGitea(test);

type Role = 'owner' | 'siteAdmin' | 'collabRead' | 'collabWrite' | 'collabAdmin' | 'stranger' | 'anonymous';
type Kind = 'public' | 'private' | 'archived' | 'mirror';
const ROLES: Role[] = ['owner', 'siteAdmin', 'collabRead', 'collabWrite', 'collabAdmin', 'stranger', 'anonymous'];
const KINDS: Kind[] = ['public', 'private', 'archived', 'mirror'];

/** [status, error message] per cell; a success has no message. */
type Cell = [number, string?];
const NOT_FOUND: Cell = [404, 'not found'];
const NO_WRITE: Cell = [403, 'user should have a permission to write to the target branch'];
const NOT_EDITABLE: Cell = [403, 'repo is not allowed to edit'];

/**
 * decisions.md: a private repository is invisible (404) to whoever cannot
 * read it; writes to archived or mirror repositories are 403 (spec rule 5),
 * checked before sign-in (Gitea's order: reader, editor, token); an
 * anonymous write elsewhere is 401; a reader who may not write is 403.
 */
const READ: Record<Kind, Record<Role, Cell>> = {
  public: { owner: [200], siteAdmin: [200], collabRead: [200], collabWrite: [200], collabAdmin: [200], stranger: [200], anonymous: [200] },
  private: { owner: [200], siteAdmin: [200], collabRead: [200], collabWrite: [200], collabAdmin: [200], stranger: NOT_FOUND, anonymous: NOT_FOUND },
  archived: { owner: [200], siteAdmin: [200], collabRead: [200], collabWrite: [200], collabAdmin: [200], stranger: [200], anonymous: [200] },
  mirror: { owner: [200], siteAdmin: [200], collabRead: [200], collabWrite: [200], collabAdmin: [200], stranger: [200], anonymous: [200] },
};
const WRITE: Record<Kind, Record<Role, Cell>> = {
  public: { owner: [201], siteAdmin: [201], collabRead: NO_WRITE, collabWrite: [201], collabAdmin: [201], stranger: NO_WRITE, anonymous: [401, 'token is required'] },
  private: { owner: [201], siteAdmin: [201], collabRead: NO_WRITE, collabWrite: [201], collabAdmin: [201], stranger: NOT_FOUND, anonymous: NOT_FOUND },
  archived: { owner: NOT_EDITABLE, siteAdmin: NOT_EDITABLE, collabRead: NOT_EDITABLE, collabWrite: NOT_EDITABLE, collabAdmin: NOT_EDITABLE, stranger: NOT_EDITABLE, anonymous: NOT_EDITABLE },
  mirror: { owner: NOT_EDITABLE, siteAdmin: NOT_EDITABLE, collabRead: NOT_EDITABLE, collabWrite: NOT_EDITABLE, collabAdmin: NOT_EDITABLE, stranger: NOT_EDITABLE, anonymous: NOT_EDITABLE },
};

const auths = {} as Record<Role, Auth>;

test.before(async () => {
  const { g } = ctx;
  const owner = await g.user('olivia');
  auths.owner = owner.auth;
  auths.siteAdmin = g.admin.auth;
  auths.anonymous = null;
  const users: Record<string, string> = { collabRead: 'read', collabWrite: 'write', collabAdmin: 'admin' };
  for (const role of ['collabRead', 'collabWrite', 'collabAdmin', 'stranger'] as const) auths[role] = (await g.user(role.toLowerCase())).auth;
  for (const kind of KINDS) {
    const repo = await g.repo(kind, { owner, private: kind === 'private' });
    for (const [role, permission] of Object.entries(users)) {
      const r = await g.api('PUT', `/api/v1/repos/olivia/${kind}/collaborators/${role.toLowerCase()}`, { json: { permission }, auth: owner.auth });
      assert.is(r.status, 204, r.text);
    }
    if (kind === 'archived') {
      const r = await g.api('PATCH', '/api/v1/repos/olivia/archived', { json: { archived: true }, auth: owner.auth });
      assert.is(r.status, 200, r.text);
      assert.is(r.body.archived, true);
    }
    if (kind === 'mirror') sqlWrite(g, 'UPDATE repositories SET is_mirror = 1 WHERE id = ?', repo.id);
  }
});

for (const kind of KINDS) {
  test(`${kind} repository: read (GET contents) and write (POST create file) for every role`, async () => {
    const { g } = ctx;
    const problems: string[] = [];
    for (const role of ROLES) {
      const read = await g.api('GET', `/api/v1/repos/olivia/${kind}/contents/README.md`, { auth: auths[role] });
      const [rs, rm] = READ[kind][role];
      if (read.status !== rs) problems.push(`read ${role}: ${read.status} ${read.text}`);
      else if (rm !== undefined) assert.equal(read.body, apiError(g, rm), `read ${kind} ${role}`);
      else assert.is(Buffer.from(read.body.content, 'base64').toString(), `# ${kind}\n`);

      const path = `by-${role}.txt`;
      const write = await g.api('POST', `/api/v1/repos/olivia/${kind}/contents/${path}`, { json: { content: b64(role) }, auth: auths[role] });
      const [ws, wm] = WRITE[kind][role];
      if (write.status !== ws) problems.push(`write ${role}: ${write.status} ${write.text}`);
      else if (wm !== undefined) assert.equal(write.body, apiError(g, wm), `write ${kind} ${role}`);
      else assert.is(write.body.content.path, path);
      // A refused write leaves nothing behind.
      if (ws !== 201 && read.status === 200) {
        const after = await g.api('GET', `/api/v1/repos/olivia/${kind}/contents/${path}`, { auth: auths.owner });
        assert.is(after.status, 404, `${kind} ${role}: refused write left ${path}`);
      }
    }
    assert.equal(problems, [], `${kind}:\n${problems.join('\n')}`);
  });
}

test('the same matrix holds for every write endpoint (update, delete, ChangeFiles)', async () => {
  const { g } = ctx;
  const sha = (await g.api('GET', '/api/v1/repos/olivia/public/contents/README.md', { auth: auths.owner })).body.sha;
  for (const [kind, role, cell] of [
    ['public', 'collabRead', NO_WRITE],
    ['public', 'stranger', NO_WRITE],
    ['public', 'anonymous', [401, 'token is required']],
    ['private', 'stranger', NOT_FOUND],
    ['private', 'anonymous', NOT_FOUND],
    ['archived', 'owner', NOT_EDITABLE],
    ['mirror', 'collabWrite', NOT_EDITABLE],
  ] as [Kind, Role, Cell][]) {
    const base = `/api/v1/repos/olivia/${kind}/contents`;
    for (const [method, path, json] of [
      ['PUT', `${base}/README.md`, { content: b64('x'), sha }],
      ['DELETE', `${base}/README.md`, { sha }],
      ['POST', base, { files: [{ operation: 'create', path: 'n.txt', content: b64('n') }] }],
    ] as const) {
      const r = await g.api(method, path, { json, auth: auths[role] });
      assert.is(r.status, cell[0], `${method} ${kind} ${role}: ${r.text}`);
      assert.equal(r.body, apiError(g, cell[1]!), `${method} ${kind} ${role}`);
    }
  }
});

test('checks run in Gitea\'s order: scope, repository, reader, editor, token, body, branch write', async () => {
  const { g } = ctx;
  const olivia = { name: 'olivia', password: 'olivia-password-1' };
  // A read-only token may not write, whatever the repository (the scope check comes first).
  const readOnly = await g.token(olivia, ['read:repository']);
  for (const kind of ['public', 'archived', 'nonexistent']) {
    const r = await g.api('POST', `/api/v1/repos/olivia/${kind}/contents/x.txt`, { json: { content: b64('x') }, auth: { token: readOnly } });
    assert.is(r.status, 403, kind);
    assert.equal(r.body, apiError(g, 'token does not have at least one of required scope(s), required=[write:repository], token scope=read:repository'), kind);
  }
  // A public-only token with write scope cannot reach the private repository.
  const publicOnly = await g.token(olivia, ['public-only', 'write:repository']);
  const priv = await g.api('POST', '/api/v1/repos/olivia/private/contents/x.txt', { json: { content: b64('x') }, auth: { token: publicOnly } });
  assert.is(priv.status, 403);
  assert.equal(priv.body, apiError(g, 'token scope is limited to public repos'));
  const pub = await g.api('POST', '/api/v1/repos/olivia/public/contents/po.txt', { json: { content: b64('x') }, auth: { token: publicOnly } });
  assert.is(pub.status, 201, pub.text);
  // An invalid body on an archived repository: the editor check (403) comes before binding (422).
  const arch = await g.api('POST', '/api/v1/repos/olivia/archived/contents/x.txt', { json: {}, auth: auths.owner });
  assert.equal([arch.status, arch.body], [403, apiError(g, 'repo is not allowed to edit')]);
  // Anonymous with an invalid body on a public repository: the token check (401) comes before binding.
  const anon = await g.api('POST', '/api/v1/repos/olivia/public/contents/x.txt', { json: {}, auth: null });
  assert.equal([anon.status, anon.body], [401, apiError(g, 'token is required')]);
  // A read collaborator with an invalid body: binding (422) comes before the branch-write check (403).
  const bad = await g.api('POST', '/api/v1/repos/olivia/public/contents/x.txt', { json: {}, auth: auths.collabRead });
  assert.equal([bad.status, bad.body], [422, apiError(g, '[ContentBase64]: Required')]);
  // Basic authentication with a password works for writes like a token.
  const basic = await g.api('POST', '/api/v1/repos/olivia/public/contents/basic.txt', { json: { content: b64('b') }, auth: { basic: 'olivia:olivia-password-1' } });
  assert.is(basic.status, 201, basic.text);
});

test.run();
