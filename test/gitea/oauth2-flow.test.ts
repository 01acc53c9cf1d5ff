import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useGitea } from '../_helpers/gitea.js';
import { authorizePath, CookieClient, hiddenFields, pkce, registerApp, signIn, tokenRequest } from './_oauth2.js';

// Decap CMS's sign-in over real HTTP: the authorization-code flow with PKCE from a public client,
// a browser's cookie jar through sign-in (CSRF), consent and the code, then the token endpoint
// called from the CMS's own origin (CORS), the token on /api/v1, refresh, and every refusal.
const test = suite('gitea: OAuth2 authorization code flow');
const CMS = 'https://cms.example.test';
const CALLBACK = `${CMS}/admin/`;
const ctx = useGitea(test, { CORS_ENABLED: 'true', CORS_ALLOW_DOMAIN: CMS });

async function setup(name: string, app: Record<string, unknown> = {}) {
  const { g } = ctx;
  const user = await g.user(name);
  const registered = await registerApp(g, user, { name: `${name}'s CMS`, redirect_uris: [CALLBACK], ...app });
  const web = new CookieClient(g.url);
  return { g, user, app: registered, web };
}

/** Signs in and consents; answers the code and the PKCE verifier it was issued for. */
async function codeFor(web: CookieClient, who: { name: string; password: string }, clientId: string, extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  const q = { client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', state: 'st-1', code_challenge: challenge, code_challenge_method: 'S256', ...extra };
  if (!web.jar.has('i_like_gitea')) await signIn(web, who);
  const consent = await web.get(authorizePath(q));
  assert.is(consent.status, 200, consent.text);
  const granted = await web.post('/login/oauth/grant', { ...hiddenFields(consent.text), granted: 'true' });
  assert.is(granted.status, 303, granted.text);
  const back = new URL(granted.location!);
  return { code: back.searchParams.get('code')!, verifier, back };
}

test('the whole flow: sign in with CSRF, consent, code, token from the CMS origin, /api/v1/user, refresh', async () => {
  const { g, user, app, web } = await setup('fay');
  const { verifier, challenge } = pkce();
  const q = { client_id: app.client_id, redirect_uri: CALLBACK, response_type: 'code', state: 'xyz 1', code_challenge: challenge, code_challenge_method: 'S256' };

  // Not signed in: to the sign-in page, and back to this very request afterwards.
  const first = await web.get(authorizePath(q));
  assert.is(first.status, 303);
  assert.is(first.location, `/user/login?redirect_to=${encodeURIComponent(authorizePath(q))}`);

  const login = await web.get(first.location!);
  assert.is(login.status, 200);
  assert.match(login.headers.get('content-security-policy')!, "form-action 'self'");
  const csrfCookie = web.setCookies.find((c) => c.startsWith('_csrf='))!;
  assert.match(csrfCookie, /; Path=\/; HttpOnly; SameSite=Lax$/);
  const fields = hiddenFields(login.text);
  assert.equal(Object.keys(fields), ['_csrf', 'redirect_to']);
  assert.is(fields.redirect_to, authorizePath(q));

  // A form without this visitor's token, then a wrong password: no session either way.
  const forged = await web.post('/user/login', { ...fields, _csrf: 'forged', user_name: 'fay', password: user.password });
  assert.is(forged.status, 400);
  assert.ok(forged.text.includes('The form has expired'));
  const wrong = await web.post('/user/login', { ...fields, user_name: 'fay', password: 'not-the-password' });
  assert.is(wrong.status, 200);
  assert.ok(wrong.text.includes('Username or password is incorrect.'));
  assert.not.ok(web.jar.has('i_like_gitea'));

  const signed = await web.post('/user/login', { ...fields, user_name: 'fay', password: user.password });
  assert.is(signed.status, 303);
  assert.is(signed.location, authorizePath(q));
  const session = web.setCookies.find((c) => c.startsWith('i_like_gitea='))!;
  assert.match(session, /^i_like_gitea=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=86400$/);

  // The consent page names the application and where the browser goes next; its form may post there.
  const consent = await web.get(signed.location!);
  assert.is(consent.status, 200);
  assert.ok(consent.text.includes("fay&#39;s CMS"));
  assert.ok(consent.text.includes('cms.example.test'));
  assert.ok(consent.text.includes('whatever you can, through the API'));
  assert.match(consent.headers.get('content-security-policy')!, `form-action 'self' ${CMS};`);

  const granted = await web.post('/login/oauth/grant', { ...hiddenFields(consent.text), granted: 'true' });
  assert.is(granted.status, 303);
  const back = new URL(granted.location!);
  assert.is(back.origin + back.pathname, CALLBACK);
  assert.equal([...back.searchParams.keys()], ['code', 'state']);
  assert.is(back.searchParams.get('state'), 'xyz 1');
  const code = back.searchParams.get('code')!;
  assert.match(code, /^gta_[a-z2-7]{52}$/);

  // The CMS exchanges the code from its own origin, as a form post.
  const tok = await tokenRequest(g.url, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: app.client_id, code_verifier: verifier }, CMS);
  assert.is(tok.status, 200, JSON.stringify(tok.body));
  assert.is(tok.headers.get('access-control-allow-origin'), CMS);
  assert.is(tok.headers.get('cache-control'), 'no-store');
  assert.equal(Object.keys(tok.body), ['access_token', 'token_type', 'expires_in', 'refresh_token']);
  assert.is(tok.body.token_type, 'bearer');
  assert.is(tok.body.expires_in, 3600);

  for (const authorization of [`Bearer ${tok.body.access_token}`, `token ${tok.body.access_token}`]) {
    const me = await g.api('GET', '/api/v1/user', { headers: { authorization }, auth: null });
    assert.is(me.status, 200);
    assert.is(me.body.login, 'fay');
  }
  const info = await g.api('GET', '/login/oauth/userinfo', { headers: { authorization: `Bearer ${tok.body.access_token}` }, auth: null });
  assert.is(info.status, 200);
  assert.equal({ ...info.body, sub: '' }, { sub: '', name: 'fay', preferred_username: 'fay', email: info.body.email, picture: '', groups: null });
  // No scope asked for: the token may do what its user may (Gitea's `all`).
  const repo = await g.api('POST', '/api/v1/user/repos', { json: { name: 'site' }, headers: { authorization: `Bearer ${tok.body.access_token}` }, auth: null });
  assert.is(repo.status, 201, repo.text);
  // ...but not manage the user's access tokens (the account password only).
  const minted = await g.api('POST', '/api/v1/users/fay/tokens', { json: { name: 'x', scopes: ['all'] }, headers: { authorization: `Basic ${Buffer.from(`fay:${tok.body.access_token}`).toString('base64')}` }, auth: null });
  assert.is(minted.status, 401);

  // Refresh: new tokens; the refresh token is used once, and a replay revokes the chain.
  const refreshed = await tokenRequest(g.url, { grant_type: 'refresh_token', refresh_token: tok.body.refresh_token, client_id: app.client_id }, CMS);
  assert.is(refreshed.status, 200);
  assert.is.not(refreshed.body.access_token, tok.body.access_token);
  assert.is((await g.api('GET', '/api/v1/user', { headers: { authorization: `Bearer ${refreshed.body.access_token}` }, auth: null })).status, 200);
  const replay = await tokenRequest(g.url, { grant_type: 'refresh_token', refresh_token: tok.body.refresh_token, client_id: app.client_id });
  assert.equal([replay.status, replay.body], [400, { error: 'unauthorized_client', error_description: 'token was already used' }]);
  assert.is((await g.api('GET', '/api/v1/user', { headers: { authorization: `Bearer ${refreshed.body.access_token}` }, auth: null })).status, 401);
});

test('a code is used once: a second exchange is refused and revokes what the first issued', async () => {
  const { g, user, app, web } = await setup('gus');
  const { code, verifier } = await codeFor(web, user, app.client_id);
  const form = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: app.client_id, code_verifier: verifier };
  const tok = await tokenRequest(g.url, form);
  assert.is(tok.status, 200);
  const again = await tokenRequest(g.url, form);
  assert.equal([again.status, again.body], [400, { error: 'invalid_grant', error_description: 'authorization code already used' }]);
  assert.is((await g.api('GET', '/api/v1/user', { headers: { authorization: `Bearer ${tok.body.access_token}` }, auth: null })).status, 401);
  const refresh = await tokenRequest(g.url, { grant_type: 'refresh_token', refresh_token: tok.body.refresh_token, client_id: app.client_id });
  assert.equal([refresh.status, refresh.body], [400, { error: 'unauthorized_client', error_description: 'unable to parse refresh token' }]);
});

test('token endpoint refusals: Gitea\'s errors, all 400 {error, error_description}', async () => {
  const { g, user, app, web } = await setup('hal');
  const { code, verifier } = await codeFor(web, user, app.client_id);
  const form = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: app.client_id, code_verifier: verifier };
  const cases: [Record<string, string>, string, string][] = [
    [{ ...form, code_verifier: 'x'.repeat(43) }, 'unauthorized_client', 'failed PKCE code challenge'],
    [{ ...form, code_verifier: '' }, 'unauthorized_client', 'failed PKCE code challenge'],
    [{ ...form, redirect_uri: 'https://evil.example.test/' }, 'unauthorized_client', 'unexpected redirect URI'],
    [{ ...form, code: 'gta_nothing' }, 'unauthorized_client', 'client is not authorized'],
    [{ ...form, client_id: 'nobody' }, 'invalid_client', "cannot load client with client id: 'nobody'"],
    [{ ...form, grant_type: 'password' }, 'unsupported_grant_type', 'Only refresh_token or authorization_code grant type is supported'],
    [{ grant_type: 'refresh_token', refresh_token: 'gtrt_x', client_id: app.client_id }, 'unauthorized_client', 'unable to parse refresh token'],
  ];
  for (const [body, error, description] of cases) {
    const r = await tokenRequest(g.url, body);
    assert.equal([r.status, r.body], [400, { error, error_description: description }], JSON.stringify(body));
    assert.is(r.headers.get('content-type'), 'application/json;charset=utf-8');
  }
  // The wrong verifiers did not use the code up: the right one still works, once (JSON body this time).
  const ok = await g.api('POST', '/login/oauth/access_token', { json: form, auth: null });
  assert.is(ok.status, 200, ok.text);
  // Basic credentials that disagree with the body.
  const mixed = await g.api('POST', '/login/oauth/access_token', { json: { ...form, client_id: app.client_id }, headers: { authorization: `Basic ${Buffer.from('other:secret').toString('base64')}` }, auth: null });
  assert.equal([mixed.status, mixed.body], [400, { error: 'invalid_request', error_description: 'client_id in request body inconsistent with Authorization header' }]);
});

test('a confidential client authenticates with its secret (body or Basic); an edit\'s new secret replaces the old', async () => {
  const { g, user, app, web } = await setup('ida', { confidential_client: true });
  const first = await codeFor(web, user, app.client_id);
  const form = { grant_type: 'authorization_code', code: first.code, redirect_uri: CALLBACK, client_id: app.client_id, code_verifier: first.verifier };
  assert.equal((await tokenRequest(g.url, form)).body, { error: 'unauthorized_client', error_description: 'invalid empty client secret' });
  assert.equal((await tokenRequest(g.url, { ...form, client_secret: 'gto_wrong' })).body, { error: 'unauthorized_client', error_description: 'invalid client secret' });
  const basic = await g.api('POST', '/login/oauth/access_token', {
    body: new URLSearchParams({ grant_type: 'authorization_code', code: first.code, redirect_uri: CALLBACK, code_verifier: first.verifier }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}` },
    auth: null,
  });
  assert.is(basic.status, 200, basic.text);

  // Consent given once to a confidential client: the next authorization skips the page (Gitea).
  const { challenge } = pkce();
  const skip = await web.get(authorizePath({ client_id: app.client_id, redirect_uri: CALLBACK, response_type: 'code', state: 's', code_challenge: challenge, code_challenge_method: 'S256' }));
  assert.is(skip.status, 303);
  assert.ok(skip.location!.startsWith(`${CALLBACK}?code=gta_`), skip.location!);

  const edited = await g.api('PATCH', `/api/v1/user/applications/oauth2/${app.id}`, { json: { name: 'x', redirect_uris: [CALLBACK], confidential_client: true }, auth: user.auth });
  const code = new URL(skip.location!).searchParams.get('code')!;
  const old = await tokenRequest(g.url, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: app.client_id, client_secret: app.client_secret });
  assert.equal(old.body, { error: 'unauthorized_client', error_description: 'invalid client secret' });
  // (PKCE was sent at authorize time, so the verifier is still required.)
  const fresh = await tokenRequest(g.url, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: app.client_id, client_secret: edited.body.client_secret });
  assert.equal(fresh.body, { error: 'unauthorized_client', error_description: 'failed PKCE code challenge' });
});

test('authorize: untrusted redirect URIs are shown, never followed; then errors go back to the client', async () => {
  const { g, user, app, web } = await setup('jon');
  await signIn(web, user);
  const { challenge } = pkce();
  const base = { client_id: app.client_id, redirect_uri: CALLBACK, response_type: 'code', state: 'st', code_challenge: challenge, code_challenge_method: 'S256' };
  const shown = async (q: Record<string, string>, text: string) => {
    const r = await web.get(authorizePath(q));
    assert.is(r.status, 400);
    assert.is(r.location, null);
    assert.ok(r.text.includes(text), r.text);
  };
  await shown({ ...base, redirect_uri: 'https://evil.example.test/admin/' }, 'Unregistered Redirect URI');
  await shown({ ...base, redirect_uri: `${CALLBACK}x` }, 'Unregistered Redirect URI');
  await shown({ ...base, client_id: 'nobody' }, 'Client ID not registered');
  await shown({ ...base, state: 's'.repeat(1025) }, 'state is too long');
  const sent = async (q: Record<string, string>, error: string, description: string) => {
    const r = await web.get(authorizePath(q));
    assert.is(r.status, 303);
    const u = new URL(r.location!);
    assert.is(u.origin + u.pathname, CALLBACK);
    assert.equal(Object.fromEntries(u.searchParams), { error, error_description: description, state: 'st' });
  };
  await sent({ ...base, response_type: 'token' }, 'unsupported_response_type', 'Only code response type is supported.');
  await sent({ ...base, code_challenge_method: '', code_challenge: '' }, 'invalid_request', 'PKCE is required for public clients');
  await sent({ ...base, code_challenge_method: 'S512' }, 'invalid_request', 'unsupported code challenge method');

  // Cancel on the consent page: access_denied, with the state.
  const consent = await web.get(authorizePath(base));
  const cancel = await web.post('/login/oauth/grant', { ...hiddenFields(consent.text), granted: 'false' });
  assert.is(cancel.status, 303);
  assert.is(cancel.location, `${CALLBACK}?error=access_denied&error_description=the+request+is+denied&state=st`);
  // A grant form tampered to another redirect URI is checked again and shown, not followed.
  const tampered = await web.post('/login/oauth/grant', { ...hiddenFields(consent.text), redirect_uri: 'https://evil.example.test/', granted: 'true' });
  assert.is(tampered.status, 400);
  assert.is(tampered.location, null);
  // And one without this session's CSRF token does nothing.
  const forged = await web.post('/login/oauth/grant', { ...hiddenFields(consent.text), _csrf: 'x', granted: 'true' });
  assert.is(forged.status, 400);
  assert.is(forged.location, null);
  assert.is((g.t.server.db.prepare('SELECT count(*) AS n FROM oauth2_codes').get() as { n: number }).n > 0, true);
});

test('a public client on a loopback IP may use any port; scopes asked for bind the token', async () => {
  const { g, user, web } = await setup('kim');
  const app = await registerApp(g, user, { name: 'cli', redirect_uris: ['http://127.0.0.1/callback'] });
  const redirect = 'http://127.0.0.1:54321/callback';
  const { code, verifier, back } = await codeFor(web, user, app.client_id, { redirect_uri: redirect, scope: 'openid read:user' });
  // A public client is asked again each time (RFC 6749 10.2); the page says what the token may do.
  const asked = await web.get(authorizePath({ client_id: app.client_id, redirect_uri: redirect, response_type: 'code', scope: 'openid read:user', code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
  assert.ok(asked.text.includes('with these scopes only: <strong>read:user</strong>'), asked.text);
  assert.is(back.origin, 'http://127.0.0.1:54321');
  const tok = await tokenRequest(g.url, { grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: app.client_id, code_verifier: verifier });
  assert.is(tok.status, 200);
  const bearer = { authorization: `Bearer ${tok.body.access_token}` };
  assert.is((await g.api('GET', '/api/v1/user', { headers: bearer, auth: null })).status, 200);
  const write = await g.api('POST', '/api/v1/user/repos', { json: { name: 'nope' }, headers: bearer, auth: null });
  assert.is(write.status, 403);
  assert.is(write.body.message, 'token does not have at least one of required scope(s), required=[write:user], token scope=read:user');
  // Another host, or localhost by name, gets no such rule.
  for (const other of ['http://localhost:54321/callback', 'http://127.0.0.1:54321/other']) {
    const r = await web.get(authorizePath({ client_id: app.client_id, redirect_uri: other, response_type: 'code', code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
    assert.is(r.status, 400);
  }
  // Deleting the application revokes its tokens at once.
  assert.is((await g.api('DELETE', `/api/v1/user/applications/oauth2/${app.id}`, { auth: user.auth })).status, 204);
  assert.is((await g.api('GET', '/api/v1/user', { headers: bearer, auth: null })).status, 401);
});

test('a warm read with an OAuth2 token is never sent again from memory: revoking the application takes effect at once', async () => {
  const { g, user, app, web } = await setup('mo');
  await g.repo('notes', { owner: user });
  const { code, verifier } = await codeFor(web, user, app.client_id);
  const tok = await tokenRequest(g.url, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: app.client_id, code_verifier: verifier });
  const bearer = { authorization: `Bearer ${tok.body.access_token}` };
  const served = () => g.t.server.answers.counts.served;
  const before = served();
  for (let i = 0; i < 3; i++) assert.is((await g.api('GET', '/api/v1/repos/mo/notes', { headers: bearer, auth: null })).status, 200);
  assert.is(served(), before);
  assert.is((await g.api('DELETE', `/api/v1/user/applications/oauth2/${app.id}`, { auth: user.auth })).status, 204);
  assert.is((await g.api('GET', '/api/v1/repos/mo/notes', { headers: bearer, auth: null })).status, 401);
});

test('CORS on the token endpoint: the preflight and the answer for an allowed origin; none for another', async () => {
  const { g } = ctx;
  const pre = await fetch(`${g.url}/login/oauth/access_token`, { method: 'OPTIONS', headers: { origin: CMS, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
  assert.is(pre.status, 200);
  assert.is(pre.headers.get('access-control-allow-origin'), CMS);
  assert.is(pre.headers.get('access-control-allow-methods'), 'POST');
  assert.is(pre.headers.get('access-control-allow-headers'), 'Content-Type');
  // Gitea adds no headers of its own here: Authorization must be configured to be allowed.
  const auth = await fetch(`${g.url}/login/oauth/access_token`, { method: 'OPTIONS', headers: { origin: CMS, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' } });
  assert.is(auth.headers.get('access-control-allow-origin'), null);
  const other = await tokenRequest(g.url, { grant_type: 'x' }, 'https://other.example.test');
  assert.is(other.status, 400);
  assert.is(other.headers.get('access-control-allow-origin'), null);
  // An OPTIONS that is no preflight: 405, as Gitea.
  assert.is((await fetch(`${g.url}/login/oauth/access_token`, { method: 'OPTIONS' })).status, 405);
});

test('sign-out needs the form (CSRF); redirect_to goes to local paths only', async () => {
  const { user, web } = await setup('lea');
  const r = await signIn(web, user, '//evil.example.test/x');
  assert.is(r.location, '/');
  assert.ok(web.jar.has('i_like_gitea'));
  const page = await web.get('/user/logout');
  assert.is((await web.post('/user/logout', { _csrf: 'x' })).status, 200);
  assert.ok(web.jar.has('i_like_gitea'));
  const out = await web.post('/user/logout', hiddenFields(page.text));
  assert.equal([out.status, out.location], [303, '/']);
  assert.not.ok(web.jar.has('i_like_gitea'));
  const again = await web.get(authorizePath({ client_id: 'x', redirect_uri: CALLBACK, response_type: 'code' }));
  assert.is(again.status, 303);
  assert.ok(again.location!.startsWith('/user/login?'));
});

test.run();
