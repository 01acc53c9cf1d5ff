import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { launchChromium, servePage } from '../_helpers/browser.js';
import { useGitea } from '../_helpers/gitea.js';

// Decap CMS's Gitea sign-in in a real browser: a CMS page on a second loopback origin does what
// Decap's PkceAuthenticator does (a verifier in sessionStorage, the browser sent to
// /login/oauth/authorize, the code exchanged with fetch from the page's origin, the token sent as
// Bearer), and a person signs in and grants access on our pages. Chromium enforces everything a
// browser would: the cookies' SameSite, the consent page's CSP form-action on the redirect back,
// and CORS on the token endpoint. Nothing is routed (as in cors-page.test.ts), so the server's own
// answers are what the browser sees.
const test = suite('browser: Decap CMS signs in with OAuth2 (PKCE)');

/** What the CMS page needs to know; set once the application is registered. */
const config = { api: '', clientId: '' };

// The page Decap's PkceAuthenticator amounts to, in a few lines.
const CMS_PAGE = `<!doctype html><meta charset="utf-8"><title>CMS</title><p>CMS page</p>
<script>
const b64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
(async () => {
  const { api, clientId } = JSON.parse(document.getElementById('config').textContent);
  const redirect = location.origin + location.pathname;
  const params = new URLSearchParams(location.search);
  if (!params.has('code') && !params.has('error')) {
    const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
    const state = b64url(crypto.getRandomValues(new Uint8Array(16)));
    const challenge = b64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
    sessionStorage.setItem('pkce', JSON.stringify({ verifier, state }));
    location.assign(api + '/login/oauth/authorize?' + new URLSearchParams({ client_id: clientId, redirect_uri: redirect, response_type: 'code', state, code_challenge: challenge, code_challenge_method: 'S256' }));
    return;
  }
  const saved = JSON.parse(sessionStorage.getItem('pkce') || '{}');
  history.replaceState(null, '', location.pathname);
  if (params.get('state') !== saved.state) { window.__result = { error: 'state mismatch' }; return; }
  if (params.has('error')) { window.__result = { error: params.get('error') }; return; }
  const res = await fetch(api + '/login/oauth/access_token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, code: params.get('code'), grant_type: 'authorization_code', redirect_uri: redirect, code_verifier: saved.verifier }),
  });
  const token = await res.json();
  const user = await fetch(api + '/api/v1/user', { headers: { Authorization: 'Bearer ' + token.access_token } });
  window.__result = { tokenStatus: res.status, tokenType: token.token_type, userStatus: user.status, login: (await user.json()).login };
})();
</script>`;

const cms = await servePage(() => CMS_PAGE.replace('<script>', `<script type="application/json" id="config">${JSON.stringify(config)}</script><script>`));
const ctx = useGitea(test, { CORS_ENABLED: 'true', CORS_ALLOW_DOMAIN: cms.origin });
let browser: Browser | undefined;

test.after(async () => {
  await browser?.close();
  await new Promise((resolve) => cms.server.close(resolve));
});

test('sign in, grant, exchange the code from the CMS origin, call the API with the token', async () => {
  browser = await launchChromium('oauth2: Decap sign-in');
  if (!browser) return;
  const { g } = ctx;
  const editor = await g.user('editor');
  const app = await g.api('POST', '/api/v1/user/applications/oauth2', { json: { name: 'Decap', redirect_uris: [`${cms.origin}/admin/`] }, auth: editor.auth });
  assert.is(app.status, 201, app.text);
  config.api = g.url;
  config.clientId = app.body.client_id;

  const page = await (await browser.newContext()).newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  page.on('console', (m) => {
    // Chromium asks each origin for /favicon.ico on its own; ours has none (a 404, as for any unknown path).
    if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));

  // The CMS sends the browser to authorize, which sends it on to sign in.
  await page.goto(`${cms.origin}/admin/`);
  await page.waitForURL(`${g.url}/user/login?**`);
  await page.fill('#user_name', 'editor');
  await page.fill('#password', editor.password);
  await page.click('button[type=submit]');
  // Back at authorize, signed in: the consent page names the application.
  await page.waitForURL(`${g.url}/login/oauth/authorize?**`);
  assert.ok((await page.textContent('h1'))!.includes('Decap'));
  await page.click('button[value=true]');
  // Back on the CMS page, which finishes on its own.
  await page.waitForURL(`${cms.origin}/admin/`);
  await page.waitForFunction(() => (globalThis as unknown as { __result?: unknown }).__result !== undefined);
  const result = await page.evaluate(() => (globalThis as unknown as { __result: unknown }).__result);
  assert.equal(result, { tokenStatus: 200, tokenType: 'bearer', userStatus: 200, login: 'editor' });
  assert.ok(requests.every((u) => new URL(u).hostname === '127.0.0.1'), requests.join('\n'));
  assert.equal(failed, []);
  assert.equal(errors, []);
  // The session cookie the browser holds is HttpOnly, SameSite=Lax, and not readable by a page.
  const cookies = await page.context().cookies(g.url);
  const session = cookies.find((c) => c.name === 'i_like_gitea')!;
  assert.equal([session.httpOnly, session.sameSite, session.secure], [true, 'Lax', false]);

  // A second sign-in: the grant is remembered, but Decap is a public client, so Gitea asks again.
  await page.goto(`${cms.origin}/admin/`);
  await page.waitForURL(`${g.url}/login/oauth/authorize?**`);
  await page.click('button[value=false]');
  await page.waitForURL(`${cms.origin}/admin/`);
  await page.waitForFunction(() => (globalThis as unknown as { __result?: unknown }).__result !== undefined);
  assert.equal(await page.evaluate(() => (globalThis as unknown as { __result: unknown }).__result), { error: 'access_denied' });
});

test.run();
