import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiError, expectJsonError } from '../_helpers/api-error.js';
import { useGitea } from '../_helpers/gitea.js';

// The OAuth2 application API (/user/applications/oauth2): Gitea's statuses and bodies, the secret
// shown once (on create, and on each edit, which issues a new one), stored hashed, and the user scope.
const test = suite('gitea: OAuth2 applications');
const ctx = useGitea(test);

const PATH = '/api/v1/user/applications/oauth2';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SECRET = /^gto_[a-z2-7]{52}$/;
const GO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;

test('create, list, get, edit, delete: exact bodies, the secret once, newest first', async () => {
  const { g } = ctx;
  const ann = await g.user('ann');
  const made = await g.api('POST', PATH, { json: { name: 'Decap', redirect_uris: ['https://cms.example.test/admin/'] }, auth: ann.auth });
  assert.is(made.status, 201);
  assert.is(made.headers.get('content-type'), 'application/json;charset=utf-8');
  const app = made.body;
  assert.equal(Object.keys(app), ['id', 'name', 'client_id', 'client_secret', 'confidential_client', 'skip_secondary_authorization', 'redirect_uris', 'created']);
  assert.ok(UUID.test(app.client_id), app.client_id);
  assert.ok(SECRET.test(app.client_secret), app.client_secret);
  assert.ok(GO_TIME.test(app.created), app.created);
  assert.equal({ ...app, client_id: '', client_secret: '', created: '' }, {
    id: app.id, name: 'Decap', client_id: '', client_secret: '', confidential_client: false, skip_secondary_authorization: false,
    redirect_uris: ['https://cms.example.test/admin/'], created: '',
  });
  // Stored as a hash: the secret itself is nowhere in the database.
  const row = g.t.server.db.prepare('SELECT * FROM oauth2_applications WHERE id = ?').get(app.id) as Record<string, unknown>;
  assert.is.not(row.secret_hash, app.client_secret);
  assert.not.ok(JSON.stringify(row).includes(app.client_secret));

  const second = await g.api('POST', PATH, { json: { name: 'Server', redirect_uris: ['https://a.example.test/cb', 'http://127.0.0.1/cb'], confidential_client: true, skip_secondary_authorization: true }, auth: ann.auth });
  assert.is(second.status, 201);
  assert.is(second.body.confidential_client, true);
  assert.is(second.body.skip_secondary_authorization, true);

  const list = await g.api('GET', PATH, { auth: ann.auth });
  assert.is(list.status, 200);
  assert.is(list.headers.get('x-total-count'), '2');
  assert.equal(list.body.map((a: any) => [a.id, a.client_secret]), [[second.body.id, ''], [app.id, '']]);
  const paged = await g.api('GET', `${PATH}?page=2&limit=1`, { auth: ann.auth });
  assert.equal(paged.body.map((a: any) => a.id), [app.id]);
  assert.is(paged.headers.get('x-total-count'), '2');

  const one = await g.api('GET', `${PATH}/${app.id}`, { auth: ann.auth });
  assert.is(one.status, 200);
  assert.equal(one.body, { ...app, client_secret: '' });

  // An edit replaces every setting and issues a new secret, shown in its answer only.
  const edited = await g.api('PATCH', `${PATH}/${app.id}`, { json: { name: 'Decap 2', redirect_uris: ['https://cms.example.test/'], confidential_client: true }, auth: ann.auth });
  assert.is(edited.status, 200);
  assert.ok(SECRET.test(edited.body.client_secret));
  assert.is.not(edited.body.client_secret, app.client_secret);
  assert.equal({ ...edited.body, client_secret: '' }, { ...app, name: 'Decap 2', redirect_uris: ['https://cms.example.test/'], confidential_client: true, client_secret: '' });
  assert.is((await g.api('GET', `${PATH}/${app.id}`, { auth: ann.auth })).body.client_secret, '');

  const del = await g.api('DELETE', `${PATH}/${app.id}`, { auth: ann.auth });
  assert.is(del.status, 204);
  assert.is(del.text, '');
  await expectJsonError(g, g.api('GET', `${PATH}/${app.id}`, { auth: ann.auth }), 404, "The target couldn't be found.");
  await expectJsonError(g, g.api('DELETE', `${PATH}/${app.id}`, { auth: ann.auth }), 404, "The target couldn't be found.");
});

test('another user\'s application is answered as one that does not exist', async () => {
  const { g } = ctx;
  const bea = await g.user('bea');
  const cid = await g.user('cid');
  const app = (await g.api('POST', PATH, { json: { name: 'Mine', redirect_uris: ['https://b.example.test/'] }, auth: bea.auth })).body;
  for (const [method, json] of [['GET', undefined], ['PATCH', { name: 'x', redirect_uris: ['https://x.example.test/'] }], ['DELETE', undefined]] as const) {
    await expectJsonError(g, g.api(method, `${PATH}/${app.id}`, { json, auth: cid.auth }), 404, "The target couldn't be found.");
  }
  // The admin too: Gitea's API manages the caller's own applications only.
  await expectJsonError(g, g.api('GET', `${PATH}/${app.id}`), 404, "The target couldn't be found.");
  assert.equal((await g.api('GET', PATH, { auth: cid.auth })).body, []);
  assert.is((await g.api('GET', `${PATH}/${app.id}`, { auth: bea.auth })).body.name, 'Mine');
  await expectJsonError(g, g.api('GET', `${PATH}/abc`, { auth: bea.auth }), 404, "The target couldn't be found.");
});

test('bad input: Gitea binding texts (422), a redirect URI that is not an http(s) URL (400)', async () => {
  const { g } = ctx;
  const dan = await g.user('dan');
  await expectJsonError(g, g.api('POST', PATH, { json: { redirect_uris: ['https://d.example.test/'] }, auth: dan.auth }), 422, '[Name]: Required');
  await expectJsonError(g, g.api('POST', PATH, { json: { name: 'x' }, auth: dan.auth }), 422, '[RedirectURIs]: Required');
  await expectJsonError(g, g.api('POST', PATH, { json: { name: 'x', redirect_uris: [] }, auth: dan.auth }), 422, '[RedirectURIs]: Required');
  await expectJsonError(g, g.api('POST', PATH, { json: { name: 'x', redirect_uris: 'https://d.example.test/' }, auth: dan.auth }), 422,
    '[]: json: cannot unmarshal string into Go struct field CreateOAuth2ApplicationOptions.redirect_uris of type []string');
  await expectJsonError(g, g.api('POST', PATH, { json: { name: 'x'.repeat(256), redirect_uris: ['https://d.example.test/'] }, auth: dan.auth }), 422, '[Name]: MaxSize');
  await expectJsonError(g, g.api('POST', PATH, { json: { name: 'x', redirect_uris: Array(21).fill('https://d.example.test/') }, auth: dan.auth }), 422, '[RedirectURIs]: MaxSize');
  for (const bad of ['javascript:alert(1)', 'ftp://d.example.test/', '/relative', 'https://d.example.test/#frag', 'https://user:pw@d.example.test/', `https://d.example.test/${'a'.repeat(2048)}`]) {
    await expectJsonError(g, g.api('POST', PATH, { json: { name: 'x', redirect_uris: ['https://ok.example.test/', bad] }, auth: dan.auth }), 400, `invalid redirect URI: ${bad}`);
  }
  const app = (await g.api('POST', PATH, { json: { name: 'x', redirect_uris: ['https://d.example.test/'] }, auth: dan.auth })).body;
  await expectJsonError(g, g.api('PATCH', `${PATH}/${app.id}`, { json: { name: 'x', redirect_uris: ['data:,x'] }, auth: dan.auth }), 400, 'invalid redirect URI: data:,x');
  // A refused edit changes nothing (the secret included).
  const row = () => g.t.server.db.prepare('SELECT * FROM oauth2_applications WHERE id = ?').get(app.id);
  const before = row();
  await expectJsonError(g, g.api('PATCH', `${PATH}/${app.id}`, { json: { redirect_uris: ['https://d.example.test/'] }, auth: dan.auth }), 422, '[Name]: Required');
  assert.equal(row(), before);
  assert.equal((await g.api('GET', PATH, { auth: dan.auth })).body.length, 1);
});

test('scopes: the user category (read lists and reads, write changes); credentials required', async () => {
  const { g } = ctx;
  const eve = await g.user('eve');
  const readUser = await g.token(eve, ['read:user']);
  const readRepo = await g.token(eve, ['read:repository']);
  const app = (await g.api('POST', PATH, { json: { name: 'x', redirect_uris: ['https://e.example.test/'] }, auth: eve.auth })).body;
  assert.is((await g.api('GET', PATH, { auth: { token: readUser } })).status, 200);
  assert.is((await g.api('GET', `${PATH}/${app.id}`, { auth: { token: readUser } })).status, 200);
  await expectJsonError(g, g.api('POST', PATH, { json: { name: 'y', redirect_uris: ['https://e.example.test/'] }, auth: { token: readUser } }), 403,
    'token does not have at least one of required scope(s), required=[write:user], token scope=read:user');
  await expectJsonError(g, g.api('DELETE', `${PATH}/${app.id}`, { auth: { token: readUser } }), 403,
    'token does not have at least one of required scope(s), required=[write:user], token scope=read:user');
  await expectJsonError(g, g.api('GET', PATH, { auth: { token: readRepo } }), 403,
    'token does not have at least one of required scope(s), required=[read:user], token scope=read:repository');
  await expectJsonError(g, g.api('GET', PATH, { auth: null }), 401, 'token is required');
  // The account password works as for any API call.
  const basic = await g.api('GET', PATH, { auth: { basic: `eve:${eve.password}` } });
  assert.is(basic.status, 200);
  assert.equal(basic.body.map((a: any) => a.id), [app.id]);
  assert.equal((await g.api('GET', PATH, { auth: null })).body, apiError(g, 'token is required'));
});

test.run();
