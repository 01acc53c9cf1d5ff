import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expectError } from '../_helpers/api-error.js';
import { useGitea, type Account } from '../_helpers/gitea.js';
import { useCast, withBodyPending } from './_orgs.js';
import { rawRequest } from '../_helpers/raw-request.js';

// Organisations: creation (names shared with users), reads by visibility, lists, editing, deletion,
// the Owners team and its members, and the team endpoints' guards.
const test = suite('gitea: organisations');
const ctx = useGitea(test);

const cast = useCast(test, ctx);


const org = (name: string, over: Record<string, unknown> = {}) => ({
  id: over.id,
  name,
  full_name: '',
  email: '',
  avatar_url: '',
  description: '',
  website: '',
  location: '',
  visibility: 'public',
  repo_admin_change_team_access: false,
  username: name,
  ...over,
});

test('POST /orgs: 201 with the Organization, every option kept; the creator is its only owner', async () => {
  const { g } = ctx;
  const r = await g.api('POST', '/api/v1/orgs', {
    json: { username: 'Acme', full_name: 'Acme Inc.', email: 'hello@acme.test', description: 'Widgets', website: 'https://acme.test', location: 'Lyon', visibility: 'limited', repo_admin_change_team_access: true },
    auth: cast.olga.auth,
  });
  assert.is(r.status, 201, r.text);
  assert.equal(Object.keys(r.body), ['id', 'name', 'full_name', 'email', 'avatar_url', 'description', 'website', 'location', 'visibility', 'repo_admin_change_team_access', 'username']);
  assert.equal(r.body, org('Acme', { id: r.body.id, full_name: 'Acme Inc.', email: 'hello@acme.test', description: 'Widgets', website: 'https://acme.test', location: 'Lyon', visibility: 'limited', repo_admin_change_team_access: true }));
  const got = await g.api('GET', '/api/v1/orgs/acme', { auth: cast.olga.auth });
  assert.is(got.status, 200);
  assert.equal(got.body, r.body, 'names are matched without case');
  const members = await g.api('GET', '/api/v1/orgs/acme/members', { auth: cast.olga.auth });
  assert.is(members.status, 200);
  assert.equal(members.body.map((u: { login: string }) => u.login), ['olga']);
  assert.is(members.headers.get('x-total-count'), '1');
  // The organisation is an owner like a user: GET /users/{name} answers it too.
  const asUser = await g.api('GET', '/api/v1/users/acme', { auth: cast.olga.auth });
  assert.is(asUser.status, 200);
  assert.is(asUser.body.id, r.body.id);
  assert.is(asUser.body.location, 'Lyon');
});

test('POST /orgs: names are one namespace with users (422), Gitea\'s name rules (422), binding rules (422), sign-in (401)', async () => {
  const { g } = ctx;
  await expectError(g, g.api('POST', '/api/v1/orgs', { json: { username: 'pete' }, auth: cast.olga.auth }), 422, 'user already exists [name: pete]');
  assert.is((await g.api('POST', '/api/v1/orgs', { json: { username: 'taken-org' }, auth: cast.olga.auth })).status, 201);
  await expectError(g, g.api('POST', '/api/v1/orgs', { json: { username: 'TAKEN-org' }, auth: cast.pete.auth }), 422, 'user already exists [name: TAKEN-org]');
  // ...and a user cannot take an organisation's name either.
  const user = await g.api('POST', '/api/v1/admin/users', { json: { username: 'taken-org', email: 'x@example.com', password: 'long-enough-1' } });
  await expectError(g, user, 422, 'user already exists [name: taken-org]');
  await expectError(g, g.api('POST', '/api/v1/orgs', { json: { username: 'api' }, auth: cast.olga.auth }), 422, 'name is reserved [name: api]');
  await expectError(g, g.api('POST', '/api/v1/orgs', { json: { username: 'logo.png' }, auth: cast.olga.auth }), 422, 'name pattern is not allowed [pattern: *.png]');
  await expectError(g, g.api('POST', '/api/v1/orgs', { json: { username: 'a b' }, auth: cast.olga.auth }), 422, '[UserName]: Username');
  await expectError(g, g.api('POST', '/api/v1/orgs', { json: {}, auth: cast.olga.auth }), 422, '[UserName]: Required');
  await expectError(g, g.api('POST', '/api/v1/orgs', { json: { username: 'vis', visibility: 'secret' }, auth: cast.olga.auth }), 422, '[Visibility]: In');
  await expectError(g, g.api('POST', '/api/v1/orgs', { json: { username: 'loc', location: 'x'.repeat(51) }, auth: cast.olga.auth }), 422, '[Location]: MaxSize');
  await expectError(g, g.api('POST', '/api/v1/orgs', { json: { username: 'anon' }, auth: null }), 401, 'token is required');
  const scoped = await g.token(cast.olga, ['write:repository', 'write:user']);
  await expectError(
    g,
    g.api('POST', '/api/v1/orgs', { json: { username: 'noscope' }, auth: { token: scoped } }),
    403,
    'token does not have at least one of required scope(s), required=[write:organization], token scope=write:repository,write:user',
  );
  // An organisation never signs in, whatever it is sent.
  const asOrg = await g.api('GET', '/api/v1/user', { auth: { basic: 'taken-org:' } });
  assert.is(asOrg.status, 401);
});

test('visibility: a private organisation is 404 to outsiders and anonymous callers, visible to members and site admins; limited needs sign-in', async () => {
  const { g } = ctx;
  assert.is((await g.api('POST', '/api/v1/orgs', { json: { username: 'hidden', visibility: 'private', email: 'h@hidden.test' }, auth: cast.olga.auth })).status, 201);
  assert.is((await g.api('POST', '/api/v1/orgs', { json: { username: 'signed', visibility: 'limited', email: 's@signed.test' }, auth: cast.olga.auth })).status, 201);
  assert.is((await g.api('POST', '/api/v1/orgs', { json: { username: 'open', email: 'o@open.test' }, auth: cast.olga.auth })).status, 201);
  await expectError(g, g.api('GET', '/api/v1/orgs/hidden', { auth: cast.sam.auth }), 404, 'not found');
  await expectError(g, g.api('GET', '/api/v1/orgs/hidden', { auth: null }), 404, 'not found');
  await expectError(g, g.api('GET', '/api/v1/orgs/no-such-org', { auth: cast.olga.auth }), 404, 'not found');
  // A user's name is not an organisation's.
  await expectError(g, g.api('GET', '/api/v1/orgs/pete', { auth: cast.olga.auth }), 404, 'not found');
  assert.is((await g.api('GET', '/api/v1/orgs/hidden', { auth: cast.olga.auth })).status, 200);
  // As a user (GET /users/{name}): the same rule, members see their private organisation.
  assert.is((await g.api('GET', '/api/v1/users/hidden', { auth: cast.olga.auth })).status, 200);
  await expectError(g, g.api('GET', '/api/v1/users/hidden', { auth: cast.sam.auth }), 404, 'user does not exist [uid: 0, name: hidden]');
  assert.is((await g.api('GET', '/api/v1/orgs/hidden')).status, 200, 'site admin');
  await expectError(g, g.api('GET', '/api/v1/orgs/signed', { auth: null }), 404, 'not found');
  assert.is((await g.api('GET', '/api/v1/orgs/signed', { auth: cast.sam.auth })).body.email, 's@signed.test');
  const anon = await g.api('GET', '/api/v1/orgs/open', { auth: null });
  assert.is(anon.status, 200);
  assert.is(anon.body.email, '', 'no address for anonymous callers');
  // A public-only token reaches public organisations only.
  const publicOnly = await g.token(cast.olga, ['public-only', 'read:organization']);
  await expectError(g, g.api('GET', '/api/v1/orgs/signed', { auth: { token: publicOnly } }), 403, 'token scope is limited to public orgs');
  assert.is((await g.api('GET', '/api/v1/orgs/open', { auth: { token: publicOnly } })).status, 200);
});

test('GET /orgs: by name; public to anonymous callers, limited too when signed in, private only to site admins; paged', async () => {
  const { g } = ctx;
  const names = async (auth: Account['auth'] | undefined) => {
    const r = await g.api('GET', '/api/v1/orgs', { auth });
    assert.is(r.status, 200, r.text);
    return r.body.map((o: { name: string }) => o.name);
  };
  const anonymous = await names(null);
  assert.ok(anonymous.includes('open') && !anonymous.includes('signed') && !anonymous.includes('hidden'), anonymous.join());
  const signed = await names(cast.sam.auth);
  assert.ok(signed.includes('open') && signed.includes('signed') && !signed.includes('hidden'), signed.join());
  // Gitea lists private organisations to site admins only, not to their members.
  assert.ok(!(await names(cast.olga.auth)).includes('hidden'));
  const all = await names(undefined);
  assert.ok(all.includes('hidden'));
  assert.equal(all, [...all].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
  const page = await g.api('GET', '/api/v1/orgs?limit=1&page=2');
  assert.is(page.body.length, 1);
  assert.is(page.body[0].name, all[1]);
  assert.is(page.headers.get('x-total-count'), String(all.length));
});

test('GET /user/orgs and /users/{u}/orgs: memberships, filtered by what the caller may see', async () => {
  const { g } = ctx;
  const mine = await g.api('GET', '/api/v1/user/orgs', { auth: cast.olga.auth });
  assert.is(mine.status, 200);
  assert.equal(mine.body.map((o: { name: string }) => o.name), ['Acme', 'hidden', 'open', 'signed', 'taken-org']);
  const pete0 = await g.api('GET', '/api/v1/user/orgs', { auth: cast.pete.auth });
  assert.equal(pete0.body, []);
  // Another user sees olga's public and limited organisations, not the private one.
  const seen = await g.api('GET', '/api/v1/users/olga/orgs', { auth: cast.sam.auth });
  assert.equal(seen.body.map((o: { name: string }) => o.name), ['Acme', 'open', 'signed', 'taken-org']);
  assert.equal((await g.api('GET', '/api/v1/users/olga/orgs')).body.length, 5, 'a site admin sees all');
  await expectError(g, g.api('GET', '/api/v1/users/olga/orgs', { auth: null }), 401, 'token is required');
  await expectError(g, g.api('GET', '/api/v1/users/nobody/orgs', { auth: cast.sam.auth }), 404, 'user does not exist [uid: 0, name: nobody]');
  await expectError(g, g.api('GET', '/api/v1/user/orgs', { auth: null }), 401, 'token is required');
});

test('PATCH /orgs/{org}: owners change details and visibility (200); others 403; a field left out keeps its value', async () => {
  const { g } = ctx;
  const r = await g.api('PATCH', '/api/v1/orgs/open', { json: { full_name: 'Open Org', visibility: 'limited' }, auth: cast.olga.auth });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, org('open', { id: r.body.id, full_name: 'Open Org', email: 'o@open.test', visibility: 'limited' }));
  await expectError(g, g.api('GET', '/api/v1/orgs/open', { auth: null }), 404, 'not found');
  await expectError(g, g.api('PATCH', '/api/v1/orgs/open', { json: { full_name: 'x' }, auth: cast.sam.auth }), 403, 'Must be an organization owner');
  // A limited organisation does not exist for anonymous callers, whatever they ask.
  await expectError(g, g.api('PATCH', '/api/v1/orgs/open', { json: { full_name: 'x' }, auth: null }), 404, 'not found');
  await expectError(g, g.api('PATCH', '/api/v1/orgs/open', { json: { visibility: 'everyone' }, auth: cast.olga.auth }), 422, '[Visibility]: In');
  const back = await g.api('PATCH', '/api/v1/orgs/open', { json: { visibility: 'public' } });
  assert.is(back.status, 200, 'a site admin may');
  assert.is(back.body.full_name, 'Open Org');
  await expectError(g, g.api('PATCH', '/api/v1/orgs/open', { json: { full_name: 'x' }, auth: null }), 401, 'token is required');
});

test('race: PATCH /orgs/{org} whose organisation is deleted while its body arrives: 404', async () => {
  const { g } = ctx;
  assert.is((await g.api('POST', '/api/v1/orgs', { json: { username: 'brief' }, auth: cast.olga.auth })).status, 201);
  const r = await withBodyPending(g, 'PATCH', '/api/v1/orgs/brief', ['{"description":', '"late"}'], async () => {
    assert.is((await g.api('DELETE', '/api/v1/orgs/brief')).status, 204);
  });
  assert.is(r.status, 404);
  assert.equal(r.body, { message: 'not found', url: `${g.url}/api/swagger` });
});

test('teams: the Owners team with its creator; members only (403), team members, owners and site admins for a team', async () => {
  const { g } = ctx;
  const teams = await g.api('GET', '/api/v1/orgs/acme/teams', { auth: cast.olga.auth });
  assert.is(teams.status, 200, teams.text);
  assert.is(teams.body.length, 1);
  const owners = teams.body[0];
  assert.equal(Object.keys(owners), ['id', 'name', 'description', 'organization', 'includes_all_repositories', 'permission', 'units', 'units_map', 'can_create_org_repo']);
  assert.is(owners.name, 'Owners');
  assert.is(owners.permission, 'owner');
  assert.is(owners.includes_all_repositories, true);
  assert.is(owners.can_create_org_repo, true);
  assert.is(owners.organization.name, 'Acme');
  assert.is(owners.units_map['repo.code'], 'owner');
  assert.is(owners.units_map['repo.ext_issues'], 'read');
  await expectError(g, g.api('GET', '/api/v1/orgs/acme/teams', { auth: cast.sam.auth }), 403, 'Must be an organization member');
  await expectError(g, g.api('GET', '/api/v1/orgs/open/teams', { auth: null }), 401, 'token is required');
  const team = `/api/v1/teams/${owners.id}`;
  assert.equal((await g.api('GET', team, { auth: cast.olga.auth })).body, owners);
  await expectError(g, g.api('GET', team, { auth: cast.sam.auth }), 404, 'not found');
  await expectError(g, g.api('GET', '/api/v1/teams/999999', { auth: cast.olga.auth }), 404, 'not found');
  await expectError(g, g.api('GET', '/api/v1/teams/abc', { auth: cast.olga.auth }), 404, 'not found');
  const listed = await g.api('GET', `${team}/members`, { auth: cast.olga.auth });
  assert.equal(listed.body.map((u: { login: string }) => u.login), ['olga']);
  // An outsider cannot add itself (404: the team's existence is not confirmed), a stranger is 404 as a user.
  await expectError(g, g.api('PUT', `${team}/members/sam`, { auth: cast.sam.auth }), 404, 'not found');
  await expectError(g, g.api('PUT', `${team}/members/nobody`, { auth: cast.olga.auth }), 404, 'user does not exist [uid: 0, name: nobody]');
  await expectError(g, g.api('PUT', `${team}/members/open`, { auth: cast.olga.auth }), 422, 'open is an organization and cannot be a team member');
});

test('team members: PUT adds a second owner (204, twice is fine), membership checks, DELETE keeps the last owner (422)', async () => {
  const { g } = ctx;
  const owners = (await g.api('GET', '/api/v1/orgs/acme/teams', { auth: cast.olga.auth })).body[0];
  const member = (u: string) => `/api/v1/teams/${owners.id}/members/${u}`;
  await expectError(g, g.api('GET', '/api/v1/orgs/acme/members/pete', { auth: cast.olga.auth }), 404, 'not found');
  const put = await g.api('PUT', member('pete'), { auth: cast.olga.auth });
  assert.is(put.status, 204, put.text);
  assert.is(put.text, '');
  assert.is((await g.api('PUT', member('pete'), { auth: cast.olga.auth })).status, 204);
  const check = await g.api('GET', '/api/v1/orgs/acme/members/pete', { auth: cast.olga.auth });
  assert.is(check.status, 204);
  assert.is((await g.api('GET', '/api/v1/orgs/acme/members/pete')).status, 204, 'a site admin learns the answer');
  // An outsider asking about someone else is sent to the public check, which answers 404 (memberships are not public).
  const other = await rawRequest(g.url, 'GET', '/api/v1/orgs/acme/members/pete', { headers: { authorization: `token ${cast.sam.token}` } });
  assert.is(other.status, 303);
  assert.is(other.headers.location, '/api/v1/orgs/Acme/public_members/pete');
  await expectError(g, g.api('GET', '/api/v1/orgs/acme/public_members/pete', { auth: cast.sam.auth }), 404, 'not found');
  await expectError(g, g.api('GET', '/api/v1/orgs/acme/members/sam', { auth: cast.sam.auth }), 404, 'not found');
  // The second owner is an owner: it edits the organisation.
  assert.is((await g.api('PATCH', '/api/v1/orgs/acme', { json: { description: 'by pete' }, auth: cast.pete.auth })).status, 200);
  const members = await g.api('GET', '/api/v1/orgs/acme/members', { auth: cast.pete.auth });
  assert.equal(members.body.map((u: { login: string }) => u.login), ['olga', 'pete']);
  assert.equal((await g.api('GET', '/api/v1/orgs/acme/members', { auth: cast.sam.auth })).body, [], 'outsiders see no (public) member');
  assert.equal((await g.api('GET', '/api/v1/user/orgs', { auth: cast.pete.auth })).body.map((o: { name: string }) => o.name), ['Acme']);
  // Removing: one of two owners goes, the last one stays.
  assert.is((await g.api('DELETE', member('olga'), { auth: cast.pete.auth })).status, 204);
  const pid = (await g.api('GET', '/api/v1/users/pete')).body.id;
  await expectError(g, g.api('DELETE', member('pete'), { auth: cast.pete.auth }), 422, `user is the last member of owner team [uid: ${pid}]`);
  assert.is((await g.api('DELETE', member('sam'), { auth: cast.pete.auth })).status, 204, 'not a member: nothing to do');
  // olga is no member any more: the team is hidden from her, and PATCH is refused.
  await expectError(g, g.api('GET', `/api/v1/teams/${owners.id}`, { auth: cast.olga.auth }), 404, 'not found');
  await expectError(g, g.api('PATCH', '/api/v1/orgs/acme', { json: { description: 'x' }, auth: cast.olga.auth }), 403, 'Must be an organization owner');
  assert.is((await g.api('PUT', member('olga'), { auth: cast.pete.auth })).status, 204);
});

test('DELETE /orgs/{org}: 422 while it owns repositories, 204 once they are gone; owners only', async () => {
  const { g } = ctx;
  assert.is((await g.api('POST', '/api/v1/orgs', { json: { username: 'doomed' }, auth: cast.olga.auth })).status, 201);
  const made = await g.api('POST', '/api/v1/orgs/doomed/repos', { json: { name: 'left' }, auth: cast.olga.auth });
  assert.is(made.status, 201, made.text);
  await expectError(g, g.api('DELETE', '/api/v1/orgs/doomed', { auth: cast.sam.auth }), 403, 'Must be an organization owner');
  const oid = (await g.api('GET', '/api/v1/orgs/doomed')).body.id;
  await expectError(g, g.api('DELETE', '/api/v1/orgs/doomed', { auth: cast.olga.auth }), 422, `user still has ownership of repositories [uid: ${oid}]`);
  assert.is((await g.api('DELETE', '/api/v1/repos/doomed/left', { auth: cast.olga.auth })).status, 204);
  const del = await g.api('DELETE', '/api/v1/orgs/doomed', { auth: cast.olga.auth });
  assert.is(del.status, 204, del.text);
  await expectError(g, g.api('GET', '/api/v1/orgs/doomed', { auth: cast.olga.auth }), 404, 'not found');
  // The name is free again.
  assert.is((await g.api('POST', '/api/v1/orgs', { json: { username: 'doomed' }, auth: cast.sam.auth })).status, 201);
});

test.run();
