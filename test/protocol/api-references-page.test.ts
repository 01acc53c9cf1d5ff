import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rawRequest } from '../_helpers/raw-request.js';
import { request } from '../_helpers/request.js';
import { startTestServer } from '../_helpers/server.js';
import { useTestServer } from '../_helpers/use-test-server.js';

// The API reference page over plain HTTP (test/browser/api-references.test.ts runs it in a
// browser): a public page with a strict CSP, naming only assets the server itself serves,
// from memory, under a content-hashed URL with long caching, ETags and 304s; anything else
// under that prefix is a 404.
const test = suite('API reference page: /api/swagger and its assets');
const ctx = useTestServer(test);
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The asset URLs a page links to (scripts, stylesheets, icons), in order. */
const assetsOf = (html: string) => [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
const configOf = (html: string) => JSON.parse(/<script type="application\/json" id="api-references-config">(.*?)<\/script>/s.exec(html)![1]!);
const get = (path: string, headers: Record<string, string> = {}) => request(ctx.t.url, 'GET', path, { headers });

test('the page is public, under a strict CSP, and lists the three documents with the chosen one selected', async () => {
  const credentials: Array<Record<string, string>> = [{}, { authorization: 'token 0000000000000000000000000000000000000000' }];
  for (const headers of credentials) {
    const res = await get('/api/swagger', headers);
    assert.is(res.status, 200);
    assert.is(res.headers.get('content-type'), 'text/html; charset=UTF-8');
    assert.is(res.headers.get('content-security-policy'), CSP);
    assert.is(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(configOf(res.text), { documents: { gitea: '/api/swagger.v1.json', ari: '/ari/openapi.json', sim: '/sim/openapi.json' }, selected: 'gitea' });
    assert.match(res.text, '<option value="gitea" selected>Gitea API (/api/v1)</option><option value="ari">ARI (/ari)</option><option value="sim">Simulation (/sim)</option>');
  }
  for (const doc of ['ari', 'sim']) {
    const res = await get(`/api/swagger?doc=${doc}`);
    assert.is(res.status, 200);
    assert.is(configOf(res.text).selected, doc);
    assert.match(res.text, `<option value="${doc}" selected>`);
  }
});

test('an unknown ?doc= is a 400 naming the choices', async () => {
  for (const doc of ['nope', '', 'ARI', '<script>']) {
    const res = await get(`/api/swagger?doc=${encodeURIComponent(doc)}`);
    assert.is(res.status, 400, doc);
    assert.equal(res.body, { message: 'unknown doc: use one of gitea, ari, sim' });
  }
});

test('every asset the page names is served, with its type, a year of caching and an ETag; the bundle is the package\'s own file', async () => {
  const page = await get('/api/swagger');
  const urls = assetsOf(page.text);
  assert.equal(urls.map((u) => u.replace(/^\/assets\/api-references\/[0-9a-f]{16}\//, '')), [
    'favicon-32x32.png', 'favicon-16x16.png', 'swagger-ui.css', 'api-references.css', 'swagger-ui-bundle.js', 'api-references.js',
  ]);
  const types: Record<string, string> = { png: 'image/png', css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' };
  for (const url of urls) {
    const res = await get(url);
    assert.is(res.status, 200, url);
    assert.is(res.headers.get('content-type'), types[url.split('.').pop()!], url);
    assert.is(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', url);
    assert.match(res.headers.get('etag') ?? '', /^"[A-Za-z0-9_-]{32}"$/, url);
  }
  const bundle = await get(urls.find((u) => u.endsWith('/swagger-ui-bundle.js'))!);
  assert.ok(bundle.bytes.equals(readFileSync(join(SWAGGER_UI, 'swagger-ui-bundle.js'))), 'served as installed');
});

test('a matching If-None-Match gets 304 with no body; gzip only when the client takes it', async () => {
  const url = assetsOf((await get('/api/swagger')).text).find((u) => u.endsWith('/swagger-ui.css'))!;
  const first = await get(url, { 'accept-encoding': 'identity' });
  const etag = first.headers.get('etag')!;
  for (const inm of [etag, `W/${etag}`, `"other", ${etag}`]) {
    const again = await get(url, { 'if-none-match': inm });
    assert.is(again.status, 304, inm);
    assert.is(again.text, '');
    assert.is(again.headers.get('etag'), etag);
  }
  assert.is((await get(url, { 'if-none-match': '"other"' })).status, 200);
  assert.is(first.headers.get('content-encoding'), null);
  const zipped = await get(url, { 'accept-encoding': 'gzip, deflate' });
  assert.is(zipped.headers.get('content-encoding'), 'gzip');
  assert.is(zipped.text, first.text, 'the same file once unzipped');
  assert.is((await get(url, { 'accept-encoding': 'gzip;q=0, identity' })).headers.get('content-encoding'), null);
});

test('anything else under the asset prefix is a 404: unknown names, other versions, files of the package not listed, dot segments', async () => {
  const url = assetsOf((await get('/api/swagger')).text).find((u) => u.endsWith('/swagger-ui.css'))!;
  const prefix = url.slice(0, url.lastIndexOf('/'));
  for (const path of [`${prefix}/nope.js`, `${prefix}/index.html`, `${prefix}/package.json`, '/assets/api-references/0000000000000000/swagger-ui.css', `${prefix}/swagger-ui.css/x`]) {
    const res = await get(path);
    assert.is(res.status, 404, path);
  }
  for (const path of [`${prefix}/..%2fpackage.json`, `${prefix}/%2e%2e/%2e%2e/package.json`, `${prefix}/../../../package.json`]) {
    const res = await rawRequest(ctx.t.url, 'GET', path);
    assert.is(res.status, 404, path);
    assert.not.match(res.text, '"name"');
  }
});

test('behind a sub-path (ROOT_URL), the page names documents and assets under it', async () => {
  const t = await startTestServer({ ROOT_URL: 'http://docs.example.test/trunk/' });
  try {
    const res = await request(t.url, 'GET', '/api/swagger');
    assert.is(res.status, 200);
    assert.equal(configOf(res.text).documents, { gitea: '/trunk/api/swagger.v1.json', ari: '/trunk/ari/openapi.json', sim: '/trunk/sim/openapi.json' });
    for (const u of assetsOf(res.text)) assert.match(u, /^\/trunk\/assets\/api-references\/[0-9a-f]{16}\//);
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test.run();
