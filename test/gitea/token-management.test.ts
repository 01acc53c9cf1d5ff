import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expectJsonError } from '../_helpers/api-error.js';
import { useGitea } from '../_helpers/gitea.js';

// Access tokens are managed with the account password only: a token (whatever its scopes, however
// it is sent) never lists, mints or deletes one, so a leaked token cannot widen itself.
const test = suite('gitea: token management needs the password');
const ctx = useGitea(test);

const basic = (name: string, password: string) => ({ basic: `${name}:${password}` });

test('tokens: only the account password manages tokens; a token never mints, lists or deletes one, whatever its scopes', async () => {
  const { g } = ctx;
  const olga = await g.user('olga');
  const path = '/api/v1/users/olga/tokens';
  const keep = await g.api('POST', path, { json: { name: 'keep', scopes: ['read:user'] }, auth: basic('olga', olga.password) });
  assert.is(keep.status, 201);
  const count = () => (g.t.server.db.prepare('SELECT count(*) AS n FROM access_tokens WHERE user_id = (SELECT id FROM users WHERE name = ?)').get('olga') as { n: number }).n;
  const before = count();
  const writeUser = await g.token(olga, ['write:user']);
  const readUser = await g.token(olga, ['read:user']);
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  // Every way a token can be sent in the Basic header: as the password (any user name), as the user name.
  for (const tok of [writeUser, olga.token]) {
    for (const header of [`Basic ${b64(`olga:${tok}`)}`, `Basic ${b64(`someone-else:${tok}`)}`, `Basic ${b64(`${tok}:`)}`, `Basic ${b64(`${tok}:x-oauth-basic`)}`]) {
      const headers = { authorization: header };
      await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'minted', scopes: ['all'] }, headers, auth: null }), 401, 'auth method not allowed');
      await expectJsonError(ctx.g, g.api('GET', path, { headers, auth: null }), 401, 'auth method not allowed');
      await expectJsonError(ctx.g, g.api('DELETE', `${path}/keep`, { headers, auth: null }), 401, 'auth method not allowed');
      await expectJsonError(ctx.g, g.api('DELETE', `${path}/${keep.body.id}`, { headers, auth: null }), 401, 'auth method not allowed');
    }
  }
  // A read:user token as the Basic password lists nothing either; for writes its scope refuses it first.
  const readBasic = { authorization: `Basic ${b64(`olga:${readUser}`)}` };
  await expectJsonError(ctx.g, g.api('GET', path, { headers: readBasic, auth: null }), 401, 'auth method not allowed');
  await expectJsonError(
    ctx.g,
    g.api('POST', path, { json: { name: 'minted', scopes: ['all'] }, headers: readBasic, auth: null }),
    403,
    'token does not have at least one of required scope(s), required=[write:user], token scope=read:user',
  );
  // A token in the header or the query: Gitea's "auth required".
  for (const auth of [{ token: writeUser }, { token: olga.token }, { query: writeUser }, { query: olga.token }]) {
    await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'minted', scopes: ['all'] }, auth }), 401, 'auth required');
    await expectJsonError(ctx.g, g.api('GET', path, { auth }), 401, 'auth required');
    await expectJsonError(ctx.g, g.api('DELETE', `${path}/keep`, { auth }), 401, 'auth required');
  }
  // The site admin's `all` token as a Basic password does not manage olga's tokens either.
  await expectJsonError(ctx.g, g.api('POST', path, { json: { name: 'minted', scopes: ['all'] }, headers: { authorization: `Basic ${b64(`root:${g.admin.token}`)}` }, auth: null }), 401, 'auth method not allowed');
  assert.is(count(), before + 2, 'nothing minted, nothing deleted (the two tokens are the ones made with the password)');
  // The password: 201, 200, 204.
  const made = await g.api('POST', path, { json: { name: 'minted', scopes: ['all'] }, auth: basic('olga', olga.password) });
  assert.is(made.status, 201);
  assert.equal(made.body.scopes, ['all'], 'with the password the user may choose any scope');
  assert.is((await g.api('GET', path, { auth: basic('olga', olga.password) })).status, 200);
  assert.is((await g.api('DELETE', `${path}/keep`, { auth: basic('olga', olga.password) })).status, 204);
});

test.run();
