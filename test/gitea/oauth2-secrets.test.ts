import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sqlWrite, useGitea } from '../_helpers/gitea.js';
import { waitUntil } from '../_helpers/wait.js';
import { authorizePath, CookieClient, hiddenFields, pkce, registerApp, signIn, tokenRequest } from './_oauth2.js';

// What the OAuth2 provider keeps to itself and for how long: no secret in any log line (debug
// request lines included), codes and tokens that expire, the session cookie marked Secure behind
// an https ROOT_URL, and the sign-in form under the login throttle.
const test = suite('gitea: OAuth2 secrets, expiry, throttle');
const CALLBACK = 'https://cms.example.test/admin/';
const ctx = useGitea(test, { LOG_LEVEL: 'debug', LOGIN_THROTTLE: '3/15m', ROOT_URL: 'https://git.example.test/' });

async function flow(name: string) {
  const { g } = ctx;
  const user = await g.user(name);
  const app = await registerApp(g, user, { name: 'CMS', redirect_uris: [CALLBACK], confidential_client: true });
  const web = new CookieClient(g.url);
  await signIn(web, user);
  const { verifier, challenge } = pkce();
  const consent = await web.get(authorizePath({ client_id: app.client_id, redirect_uri: CALLBACK, response_type: 'code', state: 's', code_challenge: challenge, code_challenge_method: 'S256' }));
  assert.is(consent.status, 200, consent.text);
  const granted = await web.post('/login/oauth/grant', { ...hiddenFields(consent.text), granted: 'true' });
  const code = new URL(granted.location!).searchParams.get('code')!;
  return { g, user, app, web, verifier, code };
}

test('no secret in any log line: password, client secret, code, verifier, tokens, session id', async () => {
  const { g, user, app, web, verifier, code } = await flow('mia');
  const form = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: app.client_id, client_secret: app.client_secret, code_verifier: verifier };
  const tok = await tokenRequest(g.url, form);
  assert.is(tok.status, 200);
  const refreshed = await tokenRequest(g.url, { grant_type: 'refresh_token', refresh_token: tok.body.refresh_token, client_id: app.client_id, client_secret: app.client_secret });
  assert.is(refreshed.status, 200);
  assert.is((await g.api('GET', `/api/v1/user?access_token=${refreshed.body.access_token}`, { auth: null })).status, 200);
  // A client that puts secrets in the query (wrongly): the request line masks them all.
  const query = new URLSearchParams({ code, code_verifier: verifier, refresh_token: tok.body.refresh_token, client_secret: app.client_secret });
  await web.get(`/login/oauth/authorize?${query}`);
  await waitUntil(() => ctx.t.logs.some((l) => l.includes('code=[redacted]&code_verifier=[redacted]&refresh_token=[redacted]')), 'the masked request line');
  const session = web.jar.get('i_like_gitea')!;
  const all = ctx.t.logs.join('\n');
  for (const s of [user.password, app.client_secret, code, verifier, tok.body.access_token, tok.body.refresh_token, refreshed.body.access_token, refreshed.body.refresh_token, session]) {
    assert.ok(s && s.length >= 12, `a secret of the test: ${s}`);
    assert.not.ok(all.includes(s), `found a secret in the log: ${s.slice(0, 8)}…`);
  }
  // Nor in the database: each is stored as its hash only.
  const dump = JSON.stringify(['oauth2_applications', 'oauth2_codes', 'oauth2_tokens', 'web_sessions'].map((t) => g.t.server.db.prepare(`SELECT * FROM ${t}`).all()));
  for (const s of [app.client_secret, code, tok.body.access_token, tok.body.refresh_token, session]) assert.not.ok(dump.includes(s));
});

test('behind an https ROOT_URL the session cookie is Secure; links and redirects stay local', async () => {
  const { g } = ctx;
  const user = await g.user('ned');
  const web = new CookieClient(g.url);
  const r = await signIn(web, user);
  assert.is(r.location, '/');
  const cookie = web.setCookies.find((c) => c.startsWith('i_like_gitea='))!;
  assert.match(cookie, /; Path=\/; HttpOnly; SameSite=Lax; Max-Age=86400; Secure$/);
  assert.match(web.setCookies.find((c) => c.startsWith('_csrf='))!, /; HttpOnly; SameSite=Lax; Secure$/);
});

test('an expired code, and an expired access token, are refused', async () => {
  const { g, app, verifier, code } = await flow('ola');
  sqlWrite(g, 'UPDATE oauth2_codes SET valid_until = valid_until - 601');
  const form = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: app.client_id, client_secret: app.client_secret, code_verifier: verifier };
  const late = await tokenRequest(g.url, form);
  assert.equal([late.status, late.body], [400, { error: 'invalid_grant', error_description: 'authorization code expired' }]);

  const second = await flow('pat');
  const tok = await tokenRequest(g.url, { ...form, code: second.code, client_id: second.app.client_id, client_secret: second.app.client_secret, code_verifier: second.verifier });
  assert.is(tok.status, 200);
  const bearer = { authorization: `Bearer ${tok.body.access_token}` };
  assert.is((await g.api('GET', '/api/v1/user', { headers: bearer, auth: null })).status, 200);
  sqlWrite(g, "UPDATE oauth2_tokens SET expires_at = expires_at - 3601 WHERE kind = 'access'");
  assert.is((await g.api('GET', '/api/v1/user', { headers: bearer, auth: null })).status, 401);
  // The refresh token lives on (730 hours) and buys a new one.
  const refreshed = await tokenRequest(g.url, { grant_type: 'refresh_token', refresh_token: tok.body.refresh_token, client_id: second.app.client_id, client_secret: second.app.client_secret });
  assert.is(refreshed.status, 200);
  assert.is((await g.api('GET', '/api/v1/user', { headers: { authorization: `Bearer ${refreshed.body.access_token}` }, auth: null })).status, 200);
});

// Last: it uses up this address's failures for the window.
test('the sign-in form is under the login throttle: after LOGIN_THROTTLE failures, 429 with Retry-After, even for the right password', async () => {
  const { g } = ctx;
  const user = await g.user('quin');
  const web = new CookieClient(g.url);
  const fields = hiddenFields((await web.get('/user/login')).text);
  for (let i = 0; i < 3; i++) {
    const r = await web.post('/user/login', { ...fields, user_name: 'quin', password: `wrong-${i}-password` });
    assert.is(r.status, 200);
  }
  const refused = await web.post('/user/login', { ...fields, user_name: 'quin', password: user.password });
  assert.is(refused.status, 429);
  assert.match(refused.headers.get('retry-after')!, /^\d+$/);
  assert.ok(refused.text.includes('Too many failed sign-in attempts'));
  assert.not.ok(web.jar.has('i_like_gitea'));
});

test.run();
