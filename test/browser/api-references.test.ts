import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chromiumPath, TestBrowser, waitForCount, type WatchedPage } from '../_helpers/browser.js';
import { basicAuth, request } from '../_helpers/request.js';
import { skip } from '../_helpers/skip.js';
import { useTestServer } from '../_helpers/use-test-server.js';
import { WAIT_MS } from '../_helpers/wait.js';

// The API reference page in a real browser: Swagger UI, served by the server itself, renders
// each of the three documents and "Try it out" reaches the server, with no request leaving
// 127.0.0.1 and no console error. UPDATE_SCREENSHOTS=1 saves the screenshots the README shows.
const test = suite('browser: API references (Swagger UI at /api/swagger)');
const ctx = useTestServer(test);
const ARI_USER = { username: 'asterisk', password: 'asterisk' };
const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];

let browser: TestBrowser | undefined;
/** The file's one browser, launched by the first test that needs it; undefined (the test skipped) without chromium. */
async function browserFor(name: string): Promise<TestBrowser | undefined> {
  if (!chromiumPath()) {
    skip(name, 'chromium');
    return undefined;
  }
  browser ??= await TestBrowser.launch(name);
  return browser;
}
test.after(async () => {
  await browser?.close();
});

/** A document's operations as `METHOD path`, and how many blocks Swagger UI draws for them (one per tag an operation has). */
async function operationsOf(docPath: string, auth = false): Promise<{ ops: string[]; blocks: number }> {
  const res = await fetch(`${ctx.t.url}${docPath}`, auth ? { headers: { authorization: basicAuth('asterisk:asterisk') } } : {});
  assert.is(res.status, 200, docPath);
  const doc = (await res.json()) as { paths: Record<string, Record<string, { tags?: string[] }>> };
  const all = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).filter(([m]) => METHODS.includes(m)).map(([m, op]) => ({ op: `${m.toUpperCase()} ${path}`, tags: op.tags?.length || 1 })));
  return { ops: all.map((o) => o.op).sort(), blocks: all.reduce((n, o) => n + o.tags, 0) };
}

/** Opens the page on one document and waits until it has rendered `expected` operations; returns what it rendered. */
async function openReference(w: WatchedPage, doc: string, expected: number): Promise<string[]> {
  const res = await w.page.goto(`${ctx.t.url}/api/swagger?doc=${doc}`);
  assert.is(res?.status(), 200);
  await waitForCount(w.page, '.opblock', expected);
  return w.page.$$eval('.opblock', (blocks) =>
    blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
  );
}

/** Expands one operation and checks its parameters and responses are shown. */
async function expand(w: WatchedPage, method: string, path: string): Promise<void> {
  const block = w.page.locator(`.opblock-${method}`, { has: w.page.locator(`.opblock-summary-path[data-path="${path}"]`) }).first();
  await block.locator('.opblock-summary').first().click();
  await block.locator('.opblock-body .responses-wrapper').waitFor({ timeout: WAIT_MS });
}

/** "Try it out", then "Execute", on an expanded operation; returns the status the page shows, after checking the request really went out. */
async function tryItOut(w: WatchedPage, method: string, path: string, url: string): Promise<string> {
  const block = w.page.locator(`.opblock-${method}`, { has: w.page.locator(`.opblock-summary-path[data-path="${path}"]`) }).first();
  await block.locator('.try-out__btn').click();
  const answered = w.page.waitForResponse((r) => r.url() === url, { timeout: WAIT_MS });
  await block.locator('.execute').click();
  const response = await answered;
  assert.is(response.status(), 200, `${method} ${url} through the page`);
  const status = block.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: WAIT_MS });
  return (await status.textContent())?.trim() ?? '';
}

async function renders(name: string, doc: string, docPath: string, opts: { auth: boolean; expandOp: [string, string] }) {
  const b = await browserFor(name);
  if (!b) return;
  const expected = await operationsOf(docPath, opts.auth);
  const w = await b.newPage(opts.auth ? { httpCredentials: ARI_USER } : {});
  try {
    const shown = await openReference(w, doc, expected.blocks);
    assert.is(shown.length, expected.blocks, 'as many operation blocks on the page as the document has operations (per tag)');
    assert.equal([...new Set(shown)].sort(), expected.ops);
    await expand(w, ...opts.expandOp);
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      // From the top: the document selector, the title, and the operation just expanded.
      await w.page.evaluate(() => globalThis.scrollTo(0, 0));
      await w.screenshot(join(SCREENSHOTS, `api-reference-${doc}.png`));
    }
    assert.ok(w.requests.some((u) => u === `${ctx.t.url}${docPath}`), `the page fetched ${docPath}`);
    w.assertClean();
  } finally {
    await w.close();
  }
}

test('the Gitea document (Swagger 2.0) renders every operation, and one expands', async ({ __test__ }) => {
  await renders(__test__, 'gitea', '/api/swagger.v1.json', { auth: false, expandOp: ['get', '/version'] });
});

test('the ARI document (OpenAPI 3) renders every operation after the Basic sign-in, and one expands', async ({ __test__ }) => {
  await renders(__test__, 'ari', '/ari/openapi.json', { auth: true, expandOp: ['get', '/asterisk/info'] });
});

test('the simulation document (OpenAPI 3) renders every operation, and one expands', async ({ __test__ }) => {
  await renders(__test__, 'sim', '/sim/openapi.json', { auth: true, expandOp: ['post', '/calls'] });
});

test('Try it out: ARI GET /asterisk/info answers 200 through the page, with the signed-in user', async ({ __test__ }) => {
  const b = await browserFor(__test__);
  if (!b) return;
  const w = await b.newPage({ httpCredentials: ARI_USER });
  try {
    await openReference(w, 'ari', (await operationsOf('/ari/openapi.json', true)).blocks);
    await expand(w, 'get', '/asterisk/info');
    assert.is(await tryItOut(w, 'get', '/asterisk/info', `${ctx.t.url}/ari/asterisk/info`), '200');
    w.assertClean();
  } finally {
    await w.close();
  }
});

test('Try it out: Gitea GET /version answers 200 through the page', async ({ __test__ }) => {
  const b = await browserFor(__test__);
  if (!b) return;
  const w = await b.newPage();
  try {
    await openReference(w, 'gitea', (await operationsOf('/api/swagger.v1.json')).blocks);
    await expand(w, 'get', '/version');
    assert.is(await tryItOut(w, 'get', '/version', `${ctx.t.url}/api/v1/version`), '200');
    const body = await w.page.locator('.opblock-get', { has: w.page.locator('.opblock-summary-path[data-path="/version"]') }).locator('.live-responses-table .response-col_description pre').first().textContent();
    assert.match(body ?? '', /"version"/);
    w.assertClean();
  } finally {
    await w.close();
  }
});

test('Try it out with a token given under Authorize: Gitea GET /user answers as the token\'s user', async ({ __test__ }) => {
  const b = await browserFor(__test__);
  if (!b) return;
  const made = await request(ctx.t.url, 'POST', '/api/v1/users/root/tokens', {
    headers: { authorization: basicAuth('root:root-password-1') },
    json: { name: 'swagger-ui', scopes: ['read:user'] },
  });
  assert.is(made.status, 201);
  const w = await b.newPage();
  try {
    await openReference(w, 'gitea', (await operationsOf('/api/swagger.v1.json')).blocks);
    await w.page.locator('.auth-wrapper .authorize').first().click();
    const scheme = w.page.locator('.modal-ux .auth-container', { hasText: 'AuthorizationHeaderToken' });
    await scheme.locator('input').fill(`token ${made.body.sha1}`);
    await scheme.locator('button.authorize').click();
    await scheme.locator('.btn-done').click();
    await expand(w, 'get', '/user');
    assert.is(await tryItOut(w, 'get', '/user', `${ctx.t.url}/api/v1/user`), '200');
    const body = await w.page.locator('.opblock-get', { has: w.page.locator('.opblock-summary-path[data-path="/user"]') }).locator('.live-responses-table .response-col_description pre').first().textContent();
    assert.match(body ?? '', /"login": "root"/);
    w.assertClean();
  } finally {
    await w.close();
  }
});

test('the selector switches to another document, and the address follows the choice', async ({ __test__ }) => {
  const b = await browserFor(__test__);
  if (!b) return;
  const w = await b.newPage({ httpCredentials: ARI_USER });
  try {
    await openReference(w, 'gitea', (await operationsOf('/api/swagger.v1.json')).blocks);
    assert.is(await w.page.locator('#api-document').inputValue(), 'gitea');
    const sim = await operationsOf('/sim/openapi.json', true);
    await w.page.locator('#api-document').selectOption('sim');
    await w.page.locator('.info .title', { hasText: 'Trunkline simulation API' }).waitFor({ timeout: WAIT_MS });
    await waitForCount(w.page, '.opblock', sim.blocks, true);
    assert.is(new URL(w.page.url()).search, '?doc=sim');
    w.assertClean();
  } finally {
    await w.close();
  }
});

test.run();
