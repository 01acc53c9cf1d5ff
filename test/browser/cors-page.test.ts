import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { launchChromium, servePage } from '../_helpers/browser.js';
import { useGitea } from '../_helpers/gitea.js';

// A real browser's CORS checks against the repository API with CORS_ENABLED: a page served from a
// second loopback origin (a small node:http server on its own port) signs in with a token, reads a
// paged list's headers, and creates, updates and deletes a file through the contents API, as a CMS
// page does; a page on an origin CORS does not allow, and a request with a header it does not allow,
// are stopped by the browser.
//
// Not TestBrowser's pages: they route every request (to refuse any leaving 127.0.0.1), and with
// routing on Playwright answers CORS preflights itself, allowing anything, so the server's own
// answers would never be tested. Here nothing is routed; launchChromium's host resolver rules
// keep every name but 127.0.0.1 from resolving, and the test checks what the page asked for and
// what it logged.
const test = suite('browser: CORS for a CMS page on another origin');

const emptyPage = () => '<!doctype html><meta charset="utf-8"><title>CMS</title><p>CMS page</p>';
const cms = await servePage(emptyPage);
const foreign = await servePage(emptyPage);
const ctx = useGitea(test, { CORS_ENABLED: 'true', CORS_ALLOW_DOMAIN: cms.origin });
let browser: Browser | undefined;

test.after(async () => {
  await browser?.close();
  for (const s of [cms.server, foreign.server]) await new Promise((resolve) => s.close(resolve));
});

/** A page opened at `origin`, its requests and console errors recorded; undefined (skipped) without chromium. */
async function openAt(name: string, origin: string): Promise<{ page: Page; requests: string[]; errors: string[] } | undefined> {
  browser ??= await launchChromium(name);
  if (!browser) return undefined;
  const page = await (await browser.newContext()).newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  const res = await page.goto(`${origin}/`);
  assert.is(res?.status(), 200);
  return { page, requests, errors };
}

/** Every request stayed on 127.0.0.1. */
const local = (requests: string[]) => requests.every((u) => new URL(u).hostname === '127.0.0.1');

test('a page on an allowed origin signs in, reads paging headers and writes a file with its token', async () => {
  const w = await openAt('cors: allowed page', cms.origin);
  if (!w) return;
  const g = ctx.g;
  await g.repo('cms-site');
  await g.repo('cms-other');
  const api = g.url;
  const out = await w.page.evaluate(
    async ({ api, token }) => {
      const auth = { authorization: `token ${token}` };
      const json = { ...auth, 'content-type': 'application/json' };
      const file = `${api}/api/v1/repos/root/cms-site/contents/notes/page.md`;
      const user = await fetch(`${api}/api/v1/user`, { headers: auth });
      const search = await fetch(`${api}/api/v1/repos/search?limit=1`, { headers: auth });
      const created = await fetch(file, { method: 'POST', headers: json, body: JSON.stringify({ content: btoa('first'), message: 'Create from the page' }) });
      const made = (await created.json()) as { content: { sha: string } };
      const updated = await fetch(file, { method: 'PUT', headers: json, body: JSON.stringify({ content: btoa('second'), sha: made.content.sha, message: 'Update from the page' }) });
      const changed = (await updated.json()) as { content: { sha: string } };
      const read = await fetch(`${file}?ref=main`, { headers: auth });
      const content = atob(((await read.json()) as { content: string }).content);
      const gone = await fetch(file, { method: 'DELETE', headers: json, body: JSON.stringify({ sha: changed.content.sha, message: 'Delete from the page' }) });
      return {
        login: ((await user.json()) as { login: string }).login,
        total: search.headers.get('x-total-count'),
        link: search.headers.get('link')?.includes('rel="next"') ?? false,
        statuses: [user.status, search.status, created.status, updated.status, read.status, gone.status],
        content,
      };
    },
    { api, token: g.admin.token },
  );
  assert.equal(out, { login: 'root', total: '2', link: true, statuses: [200, 200, 201, 200, 200, 200], content: 'second' });
  // The three writes are three commits on main, the file gone after the last.
  const commits = await g.api('GET', '/api/v1/repos/root/cms-site/commits?sha=main&limit=3&stat=false');
  assert.equal(commits.body.map((c: { commit: { message: string } }) => c.commit.message), ['Delete from the page\n', 'Update from the page\n', 'Create from the page\n']);
  assert.is((await g.api('GET', '/api/v1/repos/root/cms-site/contents/notes/page.md')).status, 404);
  assert.ok(local(w.requests), w.requests.join('\n'));
  assert.equal(w.errors, []);
});

test('the browser stops a page on another origin, and a header CORS does not allow', async () => {
  const g = ctx.g;
  const probe = (page: Page, headers: Record<string, string>) =>
    page.evaluate(
      async ({ url, headers }) => {
        try {
          return String((await fetch(url, { headers })).status);
        } catch (err) {
          return (err as Error).name;
        }
      },
      { url: `${g.url}/api/v1/user`, headers },
    );
  const w = await openAt('cors: foreign page', foreign.origin);
  if (!w) return;
  // The server answers (a preflight, then nothing); the browser keeps the page from going on.
  assert.is(await probe(w.page, { authorization: `token ${g.admin.token}` }), 'TypeError');
  // Chromium's own words: the preflight answer (ours: 200 with only Vary) names no origin.
  assert.equal(w.errors, [
    `Access to fetch at '${g.url}/api/v1/user' from origin '${foreign.origin}' has been blocked by CORS policy: Response to preflight request doesn't pass access control check: No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
    'Failed to load resource: net::ERR_FAILED',
  ]);
  const ok = await openAt('cors: allowed page', cms.origin);
  if (!ok) return;
  assert.is(await probe(ok.page, { authorization: `token ${g.admin.token}` }), '200');
  // A header CORS does not allow: the preflight answer names no origin at all (go-chi/cors says nothing more).
  assert.is(await probe(ok.page, { authorization: `token ${g.admin.token}`, 'x-custom': '1' }), 'TypeError');
  assert.equal(ok.errors, [
    `Access to fetch at '${g.url}/api/v1/user' from origin '${cms.origin}' has been blocked by CORS policy: Response to preflight request doesn't pass access control check: No 'Access-Control-Allow-Origin' header is present on the requested resource.`,
    'Failed to load resource: net::ERR_FAILED',
  ]);
  assert.ok(local([...w.requests, ...ok.requests]));
});

test.run();
