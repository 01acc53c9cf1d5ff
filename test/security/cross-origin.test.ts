import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { useGitea } from '../_helpers/gitea.js';

// A page on another site can make a browser send our credentials (Basic auth it has cached) with a
// form POST, or open our event WebSockets. Requests that change state and WebSocket handshakes from a
// foreign Origin are refused; clients that send no Origin (ARI libraries, git, curl) are unaffected.
const test = suite('security: cross-origin requests');
const ctx = useGitea(test, { TRUSTED_ORIGINS: 'https://console.example.test' });
const EVIL = 'https://evil.example';

/** Opens a WebSocket with an Origin; resolves with the handshake's status (101 when opened). */
function handshake(path: string, origin: string | undefined, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const ws = new WebSocket(`${ctx.g.url.replace(/^http/, 'ws')}${path}`, { ...(origin ? { origin } : {}), headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, body: '' });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

test('ARI: a form POST from a foreign page is refused before anything happens', async () => {
  const { t } = ctx.g;
  const r = await t.http('POST', '/ari/channels', { form: { endpoint: 'PJSIP/alice', app: 'x', channelId: 'csrf-1' }, headers: { origin: EVIL } });
  assert.is(r.status, 403);
  assert.equal(r.body, { message: 'Cross-origin request refused' });
  assert.is((await t.http('GET', '/ari/channels/csrf-1')).status, 404);
  // Also with a JSON body, on the simulation API, and with Origin: null (sandboxed frames, local files).
  assert.is((await t.http('POST', '/sim/calls', { json: { endpoint: 'PJSIP/bob', extension: '1000' }, headers: { origin: EVIL } })).status, 403);
  assert.is((await t.http('POST', '/ari/asterisk/variable', { query: { variable: 'G', value: '1' }, headers: { origin: 'null' } })).status, 403);
  assert.equal((await t.http('GET', '/ari/asterisk/variable', { query: { variable: 'G' } })).body, { value: '' });
});

test('ARI: our own origin, a trusted origin and no origin at all are served', async () => {
  const { t } = ctx.g;
  for (const [origin, id] of [[t.url, 'own'], ['https://console.example.test', 'trusted'], [undefined, 'none']] as const) {
    const r = await t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'x', channelId: `o-${id}` }, headers: origin ? { origin } : {} });
    assert.is(r.status, 200, `${id}: ${r.text}`);
  }
  // Reads are not refused (the browser itself keeps a foreign page from reading the answer).
  assert.is((await t.http('GET', '/ari/asterisk/ping', { headers: { origin: EVIL } })).status, 200);
});

test('repository API: foreign-origin writes are refused in Gitea\'s body; forms are never accepted', async () => {
  const g = ctx.g;
  const r = await g.api('POST', '/api/v1/user/repos', { json: { name: 'csrf-repo' }, headers: { origin: EVIL } });
  assert.is(r.status, 403);
  assert.equal(r.body, { message: 'Cross-origin request refused', url: `${g.url}/api/swagger` });
  assert.is((await g.api('GET', '/api/v1/repos/root/csrf-repo')).status, 404);
  // Minting a token from another site, with the Basic credentials a browser keeps.
  const tok = await g.api('POST', '/api/v1/users/root/tokens', { json: { name: 'stolen', scopes: ['all'] }, headers: { origin: EVIL }, auth: { basic: 'root:root-password-1' } });
  assert.is(tok.status, 403);
  // A form body is what a foreign page can send without Origin checks in old browsers: JSON only.
  const form = await g.api('POST', '/api/v1/user/repos', { body: 'name=csrf-form', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.is(form.status, 422);
  assert.equal(form.body, { message: '[]: Unsupported Content-Type', url: `${g.url}/api/swagger` });
  assert.is((await g.api('GET', '/api/v1/repos/root/csrf-form')).status, 404);
  // Our own origin works.
  assert.is((await g.api('POST', '/api/v1/user/repos', { json: { name: 'same-origin' }, headers: { origin: g.url } })).status, 201);
});

test('event WebSockets: a foreign origin is refused before the upgrade, ours is accepted', async () => {
  const g = ctx.g;
  const ari = '/ari/events?app=ws-origin&api_key=asterisk:asterisk';
  const refused = await handshake(ari, EVIL);
  assert.is(refused.status, 403);
  assert.equal(JSON.parse(refused.body), { message: 'Cross-origin request refused' });
  assert.is((await handshake(ari, g.url)).status, 101);
  assert.is((await handshake(ari, 'https://console.example.test')).status, 101);
  assert.is((await handshake(ari, undefined)).status, 101);

  const repo = `/api/v1/events?token=${g.admin.token}`;
  const r2 = await handshake(repo, EVIL);
  assert.is(r2.status, 403);
  assert.equal(JSON.parse(r2.body), { message: 'Cross-origin request refused', url: `${g.url}/api/swagger` });
  assert.is((await handshake(repo, g.url)).status, 101);
});

test('git over HTTP: a foreign-origin push is refused; git itself sends no Origin', async () => {
  const g = ctx.g;
  await g.repo('pushme');
  const r = await g.api('POST', '/root/pushme.git/git-receive-pack', { body: '0000', headers: { origin: EVIL, 'content-type': 'application/x-git-receive-pack-request' } });
  assert.is(r.status, 403);
});

test.run();
