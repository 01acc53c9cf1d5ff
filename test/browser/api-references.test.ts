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

/** The block of one operation on the page. */
const opblock = (w: WatchedPage, method: string, path: string) =>
  w.page.locator(`.opblock-${method}`, { has: w.page.locator(`.opblock-summary-path[data-path="${path}"]`) }).first();

/** Expands one operation and waits until its parameters and responses are shown. */
async function expand(w: WatchedPage, method: string, path: string): Promise<void> {
  const block = opblock(w, method, path);
  await block.locator('.opblock-summary').first().click();
  await block.locator('.opblock-body .responses-wrapper').waitFor({ timeout: WAIT_MS });
}

/** "Try it out", then "Execute", on an expanded operation; checks the request really went out and answered 200, and returns what the page shows. */
async function tryItOut(w: WatchedPage, method: string, path: string, url: string): Promise<{ status: string; body: string }> {
  const block = opblock(w, method, path);
  await block.locator('.try-out__btn').click();
  const answered = w.page.waitForResponse((r) => r.url() === url, { timeout: WAIT_MS });
  await block.locator('.execute').click();
  assert.is((await answered).status(), 200, `${method} ${url} through the page`);
  const status = block.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: WAIT_MS });
  const body = await block.locator('.live-responses-table .response-col_description pre').first().textContent();
  return { status: (await status.textContent())?.trim() ?? '', body: body ?? '' };
}

/** Runs `body` on a fresh watched page (signed in as an ARI user when asked), then checks the page stayed clean; skips without chromium. */
async function onPage(name: string, signedIn: boolean, body: (w: WatchedPage) => Promise<void>): Promise<void> {
  const b = await browserFor(name);
  if (!b) return;
  const w = await b.newPage(signedIn ? { httpCredentials: ARI_USER } : {});
  try {
    await body(w);
    w.assertClean();
  } finally {
    await w.close();
  }
}

async function renders(name: string, doc: string, docPath: string, opts: { auth: boolean; expandOp: [string, string] }) {
  await onPage(name, opts.auth, async (w) => {
    const expected = await operationsOf(docPath, opts.auth);
    const shown = await openReference(w, doc, expected.blocks);
    assert.is(shown.length, expected.blocks, 'as many operation blocks on the page as the document has operations (per tag)');
    assert.equal([...new Set(shown)].sort(), expected.ops);
    await expand(w, ...opts.expandOp);
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      // From the top: the document selector, the title, and the operation just expanded.
      await w.page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      await w.screenshot(join(SCREENSHOTS, `api-reference-${doc}.png`));
    }
    assert.ok(w.requests.some((u) => u === `${ctx.t.url}${docPath}`), `the page fetched ${docPath}`);
  });
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

const TRY_GETS = [
  { what: 'ARI GET /asterisk/info answers 200 through the page, with the signed-in user', doc: 'ari', docPath: '/ari/openapi.json', signedIn: true, path: '/asterisk/info', url: '/ari/asterisk/info', shows: /"system"/ },
  { what: 'Gitea GET /version answers 200 through the page, without credentials', doc: 'gitea', docPath: '/api/swagger.v1.json', signedIn: false, path: '/version', url: '/api/v1/version', shows: /"version"/ },
];
for (const c of TRY_GETS) {
  test(`Try it out: ${c.what}`, async ({ __test__ }) => {
    await onPage(__test__, c.signedIn, async (w) => {
      await openReference(w, c.doc, (await operationsOf(c.docPath, c.signedIn)).blocks);
      await expand(w, 'get', c.path);
      const { status, body } = await tryItOut(w, 'get', c.path, `${ctx.t.url}${c.url}`);
      assert.is(status, '200');
      assert.match(body, c.shows);
    });
  });
}

test('Try it out with a token given under Authorize: Gitea GET /user answers as the token\'s user', async ({ __test__ }) => {
  await onPage(__test__, false, async (w) => {
    const made = await request(ctx.t.url, 'POST', '/api/v1/users/root/tokens', {
      headers: { authorization: basicAuth('root:root-password-1') },
      json: { name: 'swagger-ui', scopes: ['read:user'] },
    });
    assert.is(made.status, 201);
    await openReference(w, 'gitea', (await operationsOf('/api/swagger.v1.json')).blocks);
    await w.page.locator('.auth-wrapper .authorize').first().click();
    const scheme = w.page.locator('.modal-ux .auth-container', { hasText: 'AuthorizationHeaderToken' });
    await scheme.locator('input').fill(`token ${made.body.sha1}`);
    await scheme.locator('button.authorize').click();
    await scheme.locator('.btn-done').click();
    await expand(w, 'get', '/user');
    const { status, body } = await tryItOut(w, 'get', '/user', `${ctx.t.url}/api/v1/user`);
    assert.is(status, '200');
    assert.match(body, /"login": "root"/);
  });
});

test('the selector switches to another document, and the address follows the choice', async ({ __test__ }) => {
  await onPage(__test__, true, async (w) => {
    await openReference(w, 'gitea', (await operationsOf('/api/swagger.v1.json')).blocks);
    assert.is(await w.page.locator('#api-document').inputValue(), 'gitea');
    const sim = await operationsOf('/sim/openapi.json', true);
    await w.page.locator('#api-document').selectOption('sim');
    await w.page.locator('.info .title', { hasText: 'Trunkline simulation API' }).waitFor({ timeout: WAIT_MS });
    await waitForCount(w.page, '.opblock', sim.blocks, true);
    assert.is(new URL(w.page.url()).search, '?doc=sim');
  });
});

test.run();
