import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expectError } from '../_helpers/api-error.js';
import { useGitea, type Account } from '../_helpers/gitea.js';
import { useCast, withBodyPending } from './_orgs.js';

// An organisation's repositories: creation by owners (and nobody else), the list by visibility, and
// the one permission model: members of the Owners team administer every repository of the
// organisation, outsiders read public ones only, private ones do not exist for them.
const test = suite('gitea: organisation repositories');
const ctx = useGitea(test, { MIRROR_ALLOW_LOCAL_NETWORKS: 'true' });

const cast = useCast(test, ctx);

test.before(async () => {
  const { g } = ctx;
  assert.is((await g.api('POST', '/api/v1/orgs', { json: { username: 'guild', email: 'guild@example.com' }, auth: cast.olga.auth })).status, 201);
  const owners = (await g.api('GET', '/api/v1/orgs/guild/teams', { auth: cast.olga.auth })).body[0];
  assert.is((await g.api('PUT', `/api/v1/teams/${owners.id}/members/pete`, { auth: cast.olga.auth })).status, 204);
});

test('POST /orgs/{org}/repos: 201, owned by the organisation (its owner JSON is the organisation as a user), with a first commit', async () => {
  const { g } = ctx;
  const r = await g.api('POST', '/api/v1/orgs/guild/repos', { json: { name: 'site', auto_init: true, description: 'The site' }, auth: cast.pete.auth });
  assert.is(r.status, 201, r.text);
  const orgUser = (await g.api('GET', '/api/v1/users/guild', { auth: cast.pete.auth })).body;
  assert.equal(r.body.owner, orgUser);
  assert.is(r.body.owner.login, 'guild');
  assert.is(r.body.owner.email, 'guild@example.com');
  assert.is(r.body.full_name, 'guild/site');
  assert.is(r.body.empty, false);
  assert.equal(r.body.permissions, { admin: true, push: true, pull: true });
  const readme = await g.api('GET', '/api/v1/repos/guild/site/contents/README.md', { auth: cast.olga.auth });
  assert.is(readme.status, 200);
  assert.is(readme.body.last_committer_date !== undefined || readme.body.sha !== undefined, true);
  // The commit is by the member who made the repository, not by the organisation.
  const commits = await g.api('GET', '/api/v1/repos/guild/site/commits', { auth: cast.olga.auth });
  assert.is(commits.body[0].commit.author.name, 'pete');
});

test('POST /orgs/{org}/repos: outsiders 403 (after the body is read, as Gitea), taken name 409, invalid name 422, unknown org 404, anonymous 401', async () => {
  const { g } = ctx;
  await expectError(g, g.api('POST', '/api/v1/orgs/guild/repos', { json: { name: 'mine' }, auth: cast.sam.auth }), 403, 'Given user is not allowed to create repository in organization.');
  await expectError(g, g.api('POST', '/api/v1/orgs/guild/repos', { json: {}, auth: cast.sam.auth }), 422, '[Name]: Required');
  await expectError(g, g.api('POST', '/api/v1/orgs/guild/repos', { json: { name: 'SITE' }, auth: cast.olga.auth }), 409, 'The repository with the same name already exists.');
  await expectError(g, g.api('POST', '/api/v1/orgs/guild/repos', { json: { name: 'x.git' }, auth: cast.olga.auth }), 422, 'name pattern is not allowed [pattern: *.git]');
  await expectError(g, g.api('POST', '/api/v1/orgs/nowhere/repos', { json: { name: 'x' }, auth: cast.olga.auth }), 404, 'not found');
  await expectError(g, g.api('POST', '/api/v1/orgs/guild/repos', { json: { name: 'x' }, auth: null }), 401, 'token is required');
  const made = await g.api('POST', '/api/v1/orgs/guild/repos', { json: { name: 'by-admin', private: true } });
  assert.is(made.status, 201, 'a site admin may');
  assert.is((await g.api('DELETE', '/api/v1/repos/guild/by-admin')).status, 204);
});

test('POST /repos/migrate with repo_owner = the organisation: owners may (201), other users 403', async () => {
  const { g } = ctx;
  const body = { clone_addr: `${g.url}/guild/site.git`, repo_name: 'site-copy', repo_owner: 'guild' };
  await expectError(g, g.api('POST', '/api/v1/repos/migrate', { json: body, auth: cast.sam.auth }), 403, 'Given user is not owner of organization.');
  const r = await g.api('POST', '/api/v1/repos/migrate', { json: body, auth: cast.pete.auth });
  assert.is(r.status, 201, r.text);
  assert.is(r.body.full_name, 'guild/site-copy');
  assert.is(r.body.empty, false);
  assert.is((await g.api('DELETE', '/api/v1/repos/guild/site-copy', { auth: cast.pete.auth })).status, 204);
});

test('GET /orgs/{org}/repos: oldest first; private ones for members and site admins only; paged', async () => {
  const { g } = ctx;
  assert.is((await g.api('POST', '/api/v1/orgs/guild/repos', { json: { name: 'secret', private: true }, auth: cast.olga.auth })).status, 201);
  assert.is((await g.api('POST', '/api/v1/orgs/guild/repos', { json: { name: 'docs' }, auth: cast.olga.auth })).status, 201);
  const names = async (auth: Account['auth'] | undefined) => {
    const r = await g.api('GET', '/api/v1/orgs/guild/repos', { auth });
    assert.is(r.status, 200, r.text);
    return r.body.map((x: { name: string }) => x.name);
  };
  assert.equal(await names(cast.pete.auth), ['site', 'secret', 'docs']);
  assert.equal(await names(undefined), ['site', 'secret', 'docs']);
  assert.equal(await names(cast.sam.auth), ['site', 'docs']);
  assert.equal(await names(null), ['site', 'docs']);
  const page = await g.api('GET', '/api/v1/orgs/guild/repos?limit=1&page=3', { auth: cast.pete.auth });
  assert.equal(page.body.map((x: { name: string }) => x.name), ['docs']);
  assert.is(page.headers.get('x-total-count'), '3');
  // A member's own list (/user/repos) holds the organisation's repositories it reaches through its team.
  const mine = await g.api('GET', '/api/v1/user/repos', { auth: cast.pete.auth });
  assert.equal(mine.body.map((x: { full_name: string }) => x.full_name).sort(), ['guild/docs', 'guild/secret', 'guild/site']);
  const samRepos = await g.api('GET', '/api/v1/user/repos', { auth: cast.sam.auth });
  assert.equal(samRepos.body, []);
});

test('permissions: a private repository of the organisation is 404 to outsiders; members read, write, and administer it', async () => {
  const { g } = ctx;
  await expectError(g, g.api('GET', '/api/v1/repos/guild/secret', { auth: cast.sam.auth }), 404, 'not found');
  await expectError(g, g.api('GET', '/api/v1/repos/guild/secret', { auth: null }), 404, 'not found');
  const seen = await g.api('GET', '/api/v1/repos/guild/secret', { auth: cast.pete.auth });
  assert.is(seen.status, 200);
  assert.equal(seen.body.permissions, { admin: true, push: true, pull: true });
  // write: a file through the contents API
  const put = await g.api('POST', '/api/v1/repos/guild/secret/contents/a.txt', { json: { content: Buffer.from('a\n').toString('base64') }, auth: cast.pete.auth });
  assert.is(put.status, 201, put.text);
  // settings: PATCH, branch protections, collaborators, push mirrors list
  assert.is((await g.api('PATCH', '/api/v1/repos/guild/secret', { json: { description: 'hidden' }, auth: cast.pete.auth })).status, 200);
  assert.is((await g.api('POST', '/api/v1/repos/guild/secret/branch_protections', { json: { rule_name: 'main' }, auth: cast.pete.auth })).status, 201);
  assert.is((await g.api('PUT', '/api/v1/repos/guild/secret/collaborators/sam', { json: { permission: 'read' }, auth: cast.pete.auth })).status, 204);
  assert.is((await g.api('GET', '/api/v1/repos/guild/secret/push_mirrors', { auth: cast.pete.auth })).status, 200);
  const perm = await g.api('GET', '/api/v1/repos/guild/secret/collaborators/pete/permission', { auth: cast.olga.auth });
  assert.is(perm.body.permission, 'owner');
  // The read collaborator now sees it, read-only.
  const collab = await g.api('GET', '/api/v1/repos/guild/secret', { auth: cast.sam.auth });
  assert.equal(collab.body.permissions, { admin: false, push: false, pull: true });
  await expectError(g, g.api('PATCH', '/api/v1/repos/guild/secret', { json: { description: 'x' }, auth: cast.sam.auth }), 403, 'user should be an owner or a collaborator with admin write of a repository');
  assert.is((await g.api('DELETE', '/api/v1/repos/guild/secret/collaborators/sam', { auth: cast.pete.auth })).status, 204);
  await expectError(g, g.api('GET', '/api/v1/repos/guild/secret', { auth: cast.sam.auth }), 404, 'not found');
});

test('permissions: outsiders read a public repository of the organisation but cannot write to it; owners delete it', async () => {
  const { g } = ctx;
  const seen = await g.api('GET', '/api/v1/repos/guild/docs', { auth: cast.sam.auth });
  assert.is(seen.status, 200);
  assert.equal(seen.body.permissions, { admin: false, push: false, pull: true });
  await expectError(
    g,
    g.api('POST', '/api/v1/repos/guild/docs/contents/x.txt', { json: { content: 'eA==' }, auth: cast.sam.auth }),
    403,
    'user should have a permission to write to the target branch',
  );
  await expectError(g, g.api('DELETE', '/api/v1/repos/guild/docs', { auth: cast.sam.auth }), 403, 'user should be the owner of the repo');
  // An organisation that becomes private hides even its public repositories from outsiders.
  assert.is((await g.api('PATCH', '/api/v1/orgs/guild', { json: { visibility: 'private' }, auth: cast.olga.auth })).status, 200);
  await expectError(g, g.api('GET', '/api/v1/repos/guild/docs', { auth: cast.sam.auth }), 404, 'not found');
  assert.is((await g.api('GET', '/api/v1/repos/guild/docs', { auth: cast.pete.auth })).status, 200);
  assert.is((await g.api('PATCH', '/api/v1/orgs/guild', { json: { visibility: 'public' }, auth: cast.olga.auth })).status, 200);
  assert.is((await g.api('DELETE', '/api/v1/repos/guild/docs', { auth: cast.pete.auth })).status, 204, 'a second owner deletes');
});

test('permissions: leaving the Owners team takes the access away at once', async () => {
  const { g } = ctx;
  const owners = (await g.api('GET', '/api/v1/orgs/guild/teams', { auth: cast.olga.auth })).body[0];
  assert.is((await g.api('PUT', `/api/v1/teams/${owners.id}/members/sam`, { auth: cast.olga.auth })).status, 204);
  assert.is((await g.api('GET', '/api/v1/repos/guild/secret', { auth: cast.sam.auth })).status, 200);
  // The web side (what download_url points to) follows the same model.
  const raw = await g.api('GET', '/guild/secret/raw/branch/main/a.txt', { auth: cast.sam.auth });
  assert.is(raw.status, 200);
  assert.is(raw.text, 'a\n');
  assert.is((await g.api('DELETE', `/api/v1/teams/${owners.id}/members/sam`, { auth: cast.olga.auth })).status, 204);
  await expectError(g, g.api('GET', '/api/v1/repos/guild/secret', { auth: cast.sam.auth }), 404, 'not found');
  assert.is((await g.api('GET', '/guild/secret/raw/branch/main/a.txt', { auth: cast.sam.auth })).status, 404);
});

test('token scopes: creating an organisation repository needs write:organization', async () => {
  const { g } = ctx;
  const tok = await g.token(cast.olga, ['write:repository', 'read:organization']);
  await expectError(
    g,
    g.api('POST', '/api/v1/orgs/guild/repos', { json: { name: 'scoped' }, auth: { token: tok } }),
    403,
    'token does not have at least one of required scope(s), required=[write:organization], token scope=read:organization,write:repository',
  );
  const list = await g.api('GET', '/api/v1/orgs/guild/repos', { auth: { token: tok } });
  assert.is(list.status, 200);
});

test('race: the organisation is deleted while a POST /orgs/{org}/repos body is still arriving: 404, nothing created', async () => {
  const { g } = ctx;
  assert.is((await g.api('POST', '/api/v1/orgs', { json: { username: 'fleeting' }, auth: cast.olga.auth })).status, 201);
  const r = await withBodyPending(g, 'POST', '/api/v1/orgs/fleeting/repos', ['{"name":', '"late"}'], async () => {
    const del = await g.api('DELETE', '/api/v1/orgs/fleeting');
    assert.is(del.status, 204, del.text);
  });
  assert.is(r.status, 404);
  assert.equal(r.body, { message: 'not found', url: `${g.url}/api/swagger` });
  assert.is((await g.api('GET', '/api/v1/repos/fleeting/late')).status, 404);
});

test.run();
