import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILD_CONSOLE_COMMAND, mountConsole, wantsHtml } from '../../server/http/console.js';
import { request } from '../_helpers/request.js';
import { useTestServer } from '../_helpers/use-test-server.js';

// What the server sends for the console, without a browser: the HTML shell only to clients
// that ask for HTML (every other client keeps the JSON index at `/`), its CSP, the built
// files under content-hashed URLs, and a clear 503 when the bundle was never built.
const test = suite('console: the shell at / and its files');
const ctx = useTestServer(test);
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const INDEX = {
  name: 'Trunkline',
  ari: { docs: '/ari/api-docs/resources.json', events: '/ari/events?app=<name>' },
  sim: { docs: '/sim/api-docs.json' },
  gitea: { api: '/api/v1', docs: '/api/swagger.v1.json' },
};

test('clients that do not ask for HTML keep the JSON index', async () => {
  for (const accept of [undefined, 'application/json', '*/*', 'application/json, text/html;q=0.5', 'text/html;q=0']) {
    const r = await request(ctx.t.url, 'GET', '/', { headers: accept ? { accept } : {} });
    assert.is(r.status, 200, String(accept));
    assert.equal(r.body, INDEX, String(accept));
  }
});

test('a browser gets the shell with a strict CSP naming its own host for event sockets', async () => {
  const r = await request(ctx.t.url, 'GET', '/', { headers: { accept: BROWSER_ACCEPT } });
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-type'), 'text/html; charset=UTF-8');
  const host = new URL(ctx.t.url).host;
  assert.is(
    r.headers.get('content-security-policy'),
    `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src blob:; connect-src 'self' ws://${host} wss://${host}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  );
  assert.is(r.headers.get('vary'), 'accept');
  const script = /<script src="(\/assets\/console\/[0-9a-f]{16}\/console\.js)"><\/script>/.exec(r.text)?.[1];
  const style = /<link rel="stylesheet" href="(\/assets\/console\/[0-9a-f]{16}\/console\.css)">/.exec(r.text)?.[1];
  assert.ok(script && style, r.text);
  assert.not.match(r.text, /<script>/, 'no inline script (the CSP would refuse it)');
  const js = await request(ctx.t.url, 'GET', script!);
  assert.is(js.status, 200);
  assert.is(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.is(js.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.ok(js.text.length > 1000);
  const css = await request(ctx.t.url, 'GET', style!);
  assert.is(css.headers.get('content-type'), 'text/css; charset=utf-8');
  assert.is((await request(ctx.t.url, 'GET', script!.replace(/[0-9a-f]{16}/, '0000000000000000'))).status, 404, 'another version is not served');
  assert.is((await request(ctx.t.url, 'GET', script!.replace('console.js', 'other.js'))).status, 404, 'only the bundle files are served');
});

test('a Host header that is not a plain host and port is not repeated in the CSP', async () => {
  const app = new Hono();
  mountConsole(app, { basePath: '' });
  const r = await app.request('/', { headers: { accept: 'text/html', host: "evil.example; script-src 'unsafe-inline'" } });
  assert.is(r.status, 200);
  assert.match(r.headers.get('content-security-policy')!, /; connect-src 'self'; /);
});

test('without a built bundle a browser gets a 503 page naming the command that builds it', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'console-unbuilt-'));
  try {
    const app = new Hono();
    mountConsole(app, { basePath: '' }, empty);
    app.get('/', (c) => c.json({ index: true }));
    const page = await app.request('/', { headers: { accept: BROWSER_ACCEPT } });
    assert.is(page.status, 503);
    const text = await page.text();
    assert.match(text, '<h1>The console is not built</h1>');
    assert.match(text, `<code>${BUILD_CONSOLE_COMMAND}</code>`);
    assert.is(BUILD_CONSOLE_COMMAND, 'node scripts/build-console.mjs');
    // API clients are not affected.
    const json = await app.request('/', { headers: { accept: 'application/json' } });
    assert.equal(await json.json(), { index: true });
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test('content negotiation: HTML only when asked for at least as much as JSON', () => {
  const cases: [string | undefined, boolean][] = [
    [undefined, false], ['', false], ['*/*', false], ['application/json', false], ['text/*', false],
    ['text/html', true], [BROWSER_ACCEPT, true], ['text/html;q=0.4, application/json', false],
    ['application/json;q=0.5, text/html', true], ['text/html;q=0', false], ['TEXT/HTML', true], ['x'.repeat(3000) + ',text/html', false],
  ];
  for (const [accept, want] of cases) assert.is(wantsHtml(accept), want, String(accept).slice(0, 60));
});

test.run();
