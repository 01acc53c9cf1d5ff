import { Hono } from 'hono';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { ConfigError, loadConfig } from '../../server/config.js';
import { createCors } from '../../server/http/cors.js';
import { useGitea } from '../_helpers/gitea.js';
import { basicAuth, request, type Reply } from '../_helpers/request.js';

// Gitea's [cors] as CORS_* settings: preflights on /api/v1 answered before authentication with
// go-chi/cors's headers, answers naming an allowed origin, and the origin policy letting an allowed
// origin write to /api/v1 unless the browser could have added credentials it keeps. Off by default,
// where /api/v1 answers exactly as before.

const CMS = 'https://cms.example.test';
const EVIL = 'https://evil.example';
const PREFLIGHT_VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';

/** The Access-Control-* and Vary headers of an answer, by name (lowercase). */
function corsHeadersOf(r: Reply): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of r.headers) if (k.startsWith('access-control-') || k === 'vary') out[k] = v;
  return out;
}

/** A preflight as a browser sends it: no credentials, the page's origin, the method and headers it means to use. */
function preflight(url: string, path: string, origin: string | undefined, method: string, headers?: string): Promise<Reply> {
  return request(url, 'OPTIONS', path, {
    headers: { ...(origin ? { origin } : {}), 'access-control-request-method': method, ...(headers ? { 'access-control-request-headers': headers } : {}) },
  });
}

/** Opens a WebSocket with an Origin; resolves with the handshake's status (101 when opened). */
function handshake(url: string, origin: string): Promise<number> {
  const ws = new WebSocket(url.replace(/^http/, 'ws'), { origin });
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------
const off = suite('gitea: CORS off (the default)');
const plain = useGitea(off);

off('no preflight answer, no Access-Control headers, no Vary; foreign writes refused as before', async () => {
  const g = plain.g;
  const pre = await preflight(g.url, '/api/v1/user/repos', CMS, 'POST', 'authorization, content-type');
  assert.is(pre.status, 404);
  assert.equal(pre.body, { message: 'not found', url: `${g.url}/api/swagger` });
  assert.equal(corsHeadersOf(pre), {});
  const read = await g.api('GET', '/api/v1/version', { headers: { origin: CMS } });
  assert.is(read.status, 200);
  assert.equal(corsHeadersOf(read), {});
  const write = await g.api('POST', '/api/v1/user/repos', { json: { name: 'from-cms' }, headers: { origin: CMS } });
  assert.is(write.status, 403);
  assert.equal(write.body, { message: 'Cross-origin request refused', url: `${g.url}/api/swagger` });
  assert.equal(corsHeadersOf(write), {});
  assert.is((await g.api('GET', '/api/v1/repos/root/from-cms')).status, 404);
});

off.run();

// ---------------------------------------------------------------------------------------------
const named = suite('gitea: CORS for named origins');
const ctx = useGitea(named, { CORS_ENABLED: 'true', CORS_ALLOW_DOMAIN: `${CMS}, https://*.pages.example.test`, TRUSTED_ORIGINS: 'https://console.example.test' });

named('a preflight from an allowed origin: 200, empty, before authentication, with go-chi/cors\'s headers', async () => {
  const g = ctx.g;
  // Decap's save: POST with its two headers; no credentials (a browser sends none on a preflight).
  const pre = await preflight(g.url, '/api/v1/repos/root/site/contents', CMS, 'POST', 'authorization,content-type');
  assert.is(pre.status, 200);
  assert.is(pre.text, '');
  assert.is(pre.headers.get('content-length'), '0');
  assert.equal(corsHeadersOf(pre), {
    'access-control-allow-origin': CMS,
    'access-control-allow-methods': 'POST',
    'access-control-allow-headers': 'Authorization, Content-Type',
    'access-control-max-age': '600',
    vary: PREFLIGHT_VARY,
  });
  // The method as asked, in capitals; the origin as sent; no requested headers, no Allow-Headers.
  const put = await preflight(g.url, '/api/v1/repos/root/site/contents/a.md', 'https://CMS.example.test', 'put');
  assert.equal(corsHeadersOf(put), { 'access-control-allow-origin': 'https://CMS.example.test', 'access-control-allow-methods': 'PUT', 'access-control-max-age': '600', vary: PREFLIGHT_VARY });
  // Every header Gitea always allows, and the default CORS_HEADERS, in any case and spacing.
  const all = await preflight(g.url, '/api/v1/user', CMS, 'GET', 'x-gitea-otp  ORIGIN,user-agent, Content-type');
  assert.is(all.headers.get('access-control-allow-headers'), 'X-Gitea-Otp, Origin, User-Agent, Content-Type');
  // Any path under /api/v1 (routing never runs), the `//` form gitea-js sends included.
  for (const path of ['/api/v1/no/such/route', '//api/v1/version/', '/api/v1']) {
    const r = await preflight(g.url, path, CMS, 'DELETE');
    assert.is(r.status, 200, path);
    assert.is(r.headers.get('access-control-allow-origin'), CMS, path);
  }
});

named('a wildcard entry matches any run of characters in its place, nothing else', async () => {
  const g = ctx.g;
  const allowed = async (origin: string) => (await preflight(g.url, '/api/v1/user', origin, 'GET')).headers.get('access-control-allow-origin');
  assert.is(await allowed('https://blog.pages.example.test'), 'https://blog.pages.example.test');
  assert.is(await allowed('https://a.b.pages.example.test'), 'https://a.b.pages.example.test');
  for (const origin of ['https://pages.example.test', 'http://blog.pages.example.test', 'https://blog.pages.example.test.evil.example', 'https://cms.example.test:8443', EVIL, 'null']) {
    assert.is(await allowed(origin), null, origin);
  }
});

named('a refused preflight is still 200, with only Vary: the browser stops there', async () => {
  const g = ctx.g;
  const refused = { vary: PREFLIGHT_VARY };
  // A foreign origin; no origin at all; a header not allowed; a method not allowed.
  assert.equal(corsHeadersOf(await preflight(g.url, '/api/v1/user/repos', EVIL, 'POST', 'content-type')), refused);
  assert.equal(corsHeadersOf(await preflight(g.url, '/api/v1/user/repos', undefined, 'POST')), refused);
  assert.equal(corsHeadersOf(await preflight(g.url, '/api/v1/user/repos', CMS, 'POST', 'content-type, x-custom')), refused);
  const trace = await preflight(g.url, '/api/v1/user', CMS, 'TRACE');
  assert.equal([trace.status, trace.text, corsHeadersOf(trace)], [200, '', refused]);
});

named('answers vary on Origin and name an allowed origin; the paging headers stay readable', async () => {
  const g = ctx.g;
  await g.repo('listed-1');
  await g.repo('listed-2');
  const r = await g.api('GET', '/api/v1/repos/search?limit=1', { headers: { origin: CMS } });
  assert.is(r.status, 200);
  assert.equal(corsHeadersOf(r), { 'access-control-allow-origin': CMS, 'access-control-expose-headers': 'Link, X-Total-Count', vary: 'Origin' });
  // Errors too (a page reads Gitea's message); a foreign origin or none: only Vary.
  const missing = await g.api('GET', '/api/v1/repos/root/nothing-here', { headers: { origin: CMS } });
  assert.equal([missing.status, corsHeadersOf(missing)], [404, { 'access-control-allow-origin': CMS, vary: 'Origin' }]);
  assert.equal(corsHeadersOf(await g.api('GET', '/api/v1/version', { headers: { origin: EVIL } })), { vary: 'Origin' });
  assert.equal(corsHeadersOf(await g.api('GET', '/api/v1/version')), { vary: 'Origin' });
  // An OPTIONS that is no preflight goes on to routing, as before.
  const options = await request(g.url, 'OPTIONS', '/api/v1/version', { headers: { origin: CMS } });
  assert.equal([options.status, corsHeadersOf(options)], [404, { 'access-control-allow-origin': CMS, vary: 'Origin' }]);
});

named('an allowed origin writes with a token it holds; a foreign one is refused as before', async () => {
  const g = ctx.g;
  const made = await g.api('POST', '/api/v1/user/repos', { json: { name: 'cms-made' }, headers: { origin: CMS } });
  assert.is(made.status, 201, made.text);
  assert.equal(corsHeadersOf(made), { 'access-control-allow-origin': CMS, vary: 'Origin' });
  const wild = await g.api('PATCH', '/api/v1/repos/root/cms-made', { json: { description: 'from a page' }, headers: { origin: 'https://blog.pages.example.test' } });
  assert.equal([wild.status, wild.body.description], [200, 'from a page']);
  const refused = await g.api('POST', '/api/v1/user/repos', { json: { name: 'evil-made' }, headers: { origin: EVIL } });
  assert.is(refused.status, 403);
  assert.equal(refused.body, { message: 'Cross-origin request refused', url: `${g.url}/api/swagger` });
  assert.equal(corsHeadersOf(refused), { vary: 'Origin' });
  assert.is((await g.api('DELETE', '/api/v1/repos/root/cms-made', { headers: { origin: 'null' } })).status, 403);
  assert.is((await g.api('GET', '/api/v1/repos/root/evil-made')).status, 404);
  assert.is((await g.api('GET', '/api/v1/repos/root/cms-made')).status, 200);
});

named('Basic credentials on a write a browser sends unpreflighted are refused even from an allowed origin', async () => {
  const g = ctx.g;
  const basic = { authorization: basicAuth('root:root-password-1'), origin: CMS };
  // A form or `no-cors` POST (no body type, or a form's): the browser may have added Basic credentials it keeps.
  for (const type of [undefined, 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'Multipart/Form-Data; boundary=x']) {
    const r = await request(g.url, 'POST', '/api/v1/user/repos', { headers: { ...basic, ...(type ? { 'content-type': type } : {}) }, body: type ? '{"name":"csrf"}' : undefined });
    assert.is(r.status, 403, `${type}: ${r.text}`);
    assert.equal(r.body, { message: 'Cross-origin request refused', url: `${g.url}/api/swagger` });
  }
  const tok = await request(g.url, 'POST', '/api/v1/users/root/tokens', { headers: { ...basic, 'content-type': 'text/plain' }, body: '{"name":"stolen","scopes":["all"]}' });
  assert.is(tok.status, 403);
  assert.is((await g.api('GET', '/api/v1/repos/root/csrf')).status, 404);
  // The same Basic credentials on a write the browser must preflight (JSON, PUT/PATCH/DELETE): the page set them.
  const json = await g.api('POST', '/api/v1/user/repos', { json: { name: 'basic-json' }, headers: { origin: CMS }, auth: { basic: 'root:root-password-1' } });
  assert.is(json.status, 201, json.text);
  // A token a browser never adds by itself: a simple POST with one passes the origin check (and meets the API's JSON-only rule).
  const simple = await g.api('POST', '/api/v1/user/repos', { body: 'name=x', headers: { origin: CMS, 'content-type': 'text/plain' } });
  assert.equal([simple.status, simple.body.message], [422, '[]: Unsupported Content-Type']);
});

named('CORS covers /api/v1 only: ARI, git, LFS and the event socket keep the origin policy', async () => {
  const g = ctx.g;
  const { t } = g;
  const ari = await preflight(g.url, '/ari/channels', CMS, 'POST');
  assert.is(ari.headers.get('access-control-allow-origin'), null);
  assert.is((await t.http('POST', '/ari/asterisk/variable', { query: { variable: 'G', value: '1' }, headers: { origin: CMS } })).status, 403);
  await g.repo('git-site');
  const lfs = await request(g.url, 'POST', '/root/git-site.git/info/lfs/objects/batch', {
    headers: { origin: CMS, authorization: `token ${g.admin.token}`, 'content-type': 'application/vnd.git-lfs+json' },
    body: JSON.stringify({ operation: 'upload', objects: [] }),
  });
  assert.equal([lfs.status, corsHeadersOf(lfs)], [403, {}]);
  assert.is(await handshake(`${g.url}/api/v1/events?token=${g.admin.token}`, CMS), 403);
  // Our own origin and TRUSTED_ORIGINS are served as ever.
  assert.is(await handshake(`${g.url}/api/v1/events?token=${g.admin.token}`, 'https://console.example.test'), 101);
  assert.is((await g.api('POST', '/api/v1/user/repos', { json: { name: 'own-origin' }, headers: { origin: g.url } })).status, 201);
});

named.run();

// ---------------------------------------------------------------------------------------------
const any = suite('gitea: CORS for every origin, with credentials, own methods, headers and max age');
const wide = useGitea(any, { CORS_ENABLED: 'true', CORS_ALLOW_CREDENTIALS: 'true', CORS_METHODS: 'get,POST', CORS_MAX_AGE: '90s', CORS_HEADERS: 'X-Requested-With' });

any('`*` answers `*` (with credentials, as go-chi/cors does); methods and headers are the settings\' only', async () => {
  const g = wide.g;
  const pre = await preflight(g.url, '/api/v1/user/repos', EVIL, 'POST', 'authorization, x-requested-with');
  assert.equal(corsHeadersOf(pre), {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'POST',
    'access-control-allow-headers': 'Authorization, X-Requested-With',
    'access-control-allow-credentials': 'true',
    'access-control-max-age': '90',
    vary: PREFLIGHT_VARY,
  });
  // CORS_HEADERS replaces the default list: Content-Type is no longer allowed; PUT is not a method here.
  assert.equal(corsHeadersOf(await preflight(g.url, '/api/v1/user/repos', EVIL, 'POST', 'content-type')), { vary: PREFLIGHT_VARY });
  assert.equal(corsHeadersOf(await preflight(g.url, '/api/v1/repos/root/x', EVIL, 'PUT')), { vary: PREFLIGHT_VARY });
  const read = await g.api('GET', '/api/v1/version', { headers: { origin: 'https://anywhere.example' } });
  assert.equal(corsHeadersOf(read), { 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true', vary: 'Origin' });
  // An answer to a method CORS does not allow names no origin.
  const del = await g.api('DELETE', '/api/v1/repos/root/none', { headers: { origin: 'https://anywhere.example' } });
  assert.equal([del.status, corsHeadersOf(del)], [404, { vary: 'Origin' }]);
  // `*` makes any page a CMS page for tokens it holds, never for Basic credentials a browser keeps.
  assert.is((await g.api('POST', '/api/v1/user/repos', { json: { name: 'anywhere' }, headers: { origin: 'https://anywhere.example' } })).status, 201);
  const form = await request(g.url, 'POST', '/api/v1/user/repos', { headers: { origin: EVIL, authorization: basicAuth('root:root-password-1'), 'content-type': 'text/plain' }, body: '{"name":"csrf"}' });
  assert.is(form.status, 403);
});

any.run();

// ---------------------------------------------------------------------------------------------
const settings = suite('gitea: CORS settings');

settings('defaults are Gitea\'s', () => {
  assert.equal(loadConfig({}).cors, {
    enabled: false,
    allowDomain: ['*'],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    maxAgeSeconds: 600,
    allowCredentials: false,
    headers: ['Content-Type', 'User-Agent'],
  });
  // Whole seconds of a Go duration, the fraction dropped; lists trimmed.
  const c = loadConfig({ CORS_ENABLED: 'yes', CORS_MAX_AGE: '1500ms', CORS_ALLOW_DOMAIN: ' https://a.test ,app://x ', CORS_HEADERS: '*' }).cors;
  assert.equal([c.enabled, c.maxAgeSeconds, c.allowDomain, c.headers], [true, 1, ['https://a.test', 'app://x'], ['*']]);
});

settings('a bad value stops the start, naming the setting', () => {
  const cases: [string, string, RegExp][] = [
    ['CORS_ENABLED', 'on', /^invalid CORS_ENABLED: CORS_ENABLED must be true or false \(got "on"\)$/],
    ['CORS_ALLOW_DOMAIN', 'cms.example.com', /^invalid CORS_ALLOW_DOMAIN: CORS_ALLOW_DOMAIN must be \* or origins such as/],
    ['CORS_ALLOW_DOMAIN', 'https://*.*.example.com', /^invalid CORS_ALLOW_DOMAIN:/],
    ['CORS_ALLOW_DOMAIN', 'https://cms.example.com/admin', /^invalid CORS_ALLOW_DOMAIN:/],
    ['CORS_ALLOW_DOMAIN', 'null', /^invalid CORS_ALLOW_DOMAIN:/],
    ['CORS_ALLOW_DOMAIN', ',', /^invalid CORS_ALLOW_DOMAIN:/],
    ['CORS_METHODS', 'GET POST', /^invalid CORS_METHODS: CORS_METHODS must be a comma-separated list of HTTP methods/],
    ['CORS_MAX_AGE', '10 minutes', /^invalid CORS_MAX_AGE: CORS_MAX_AGE must be a Go duration/],
    ['CORS_MAX_AGE', '-1s', /^invalid CORS_MAX_AGE:/],
    ['CORS_ALLOW_CREDENTIALS', 'maybe', /^invalid CORS_ALLOW_CREDENTIALS:/],
    ['CORS_HEADERS', 'Content-Type: x', /^invalid CORS_HEADERS: CORS_HEADERS must be a comma-separated list of header names/],
  ];
  for (const [key, val, re] of cases) {
    try {
      loadConfig({ [key]: val });
      assert.unreachable(`${key}=${val} accepted`);
    } catch (err) {
      assert.instance(err, ConfigError, `${key}=${val}`);
      assert.match((err as Error).message, re);
    }
  }
});

settings('CORS_HEADERS=* allows any requested header (in process)', async () => {
  const app = new Hono();
  app.use('*', createCors({ ...loadConfig({}).cors, enabled: true, headers: ['*'] }).handle);
  const r = await app.request('/api/v1/user', { method: 'OPTIONS', headers: { origin: CMS, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-anything,x_under' } });
  assert.is(r.status, 200);
  assert.equal([r.headers.get('access-control-allow-origin'), r.headers.get('access-control-allow-headers')], ['*', 'X-Anything, X_under']);
});

settings.run();
