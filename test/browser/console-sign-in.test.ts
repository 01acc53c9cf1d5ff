import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useTestServer } from '../_helpers/use-test-server.js';
import { WAIT_MS } from '../_helpers/wait.js';
import { ARI, fillSignIn, signIn, useBrowser } from './_console.js';

// Signing in to the console: the ARI credentials are checked before they are kept, a wrong
// password is refused with a clear message, and the session lasts as long as the tab.
const test = suite('browser: console sign-in');
const ctx = useTestServer(test);
const b = useBrowser(test);

test('the right ARI password opens the console; the header links to the three API references', async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.t.url, []);
    assert.is(await w.page.locator('#tap-status').textContent(), 'no applications to follow');
    const links = await w.page.$$eval('.refs a', (as) => as.map((a) => a.getAttribute('href')));
    assert.equal(links, ['/api/swagger?doc=ari', '/api/swagger?doc=sim', '/api/swagger?doc=gitea']);
    const kept = await w.page.evaluate(() => (globalThis as any).sessionStorage.getItem('trunkline-console-session'));
    assert.equal(JSON.parse(kept), { ari: { user: ARI.user, password: ARI.password } });
    // A reload keeps the session (same tab); signing out forgets it.
    await w.page.reload();
    await w.page.locator('#tap-status').waitFor({ timeout: WAIT_MS });
    await w.page.locator('#sign-out').click();
    await w.page.locator('#sign-in').waitFor({ timeout: WAIT_MS });
    assert.is(await w.page.evaluate(() => (globalThis as any).sessionStorage.getItem('trunkline-console-session')), null);
  });
});

test('a wrong password is refused with a clear message, and nothing is kept', async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await fillSignIn(w, ctx.t.url, { user: ARI.user, password: 'wrong' });
    const error = w.page.locator('#sign-in-error');
    await error.waitFor({ timeout: WAIT_MS });
    assert.is(await error.textContent(), 'Wrong ARI user name or password.');
    assert.is(await w.page.locator('#tap-status').count(), 0);
    assert.is(await w.page.evaluate(() => (globalThis as any).sessionStorage.getItem('trunkline-console-session')), null);
    // The browser reports the refused request itself; that one line is expected, and nothing else.
    assert.equal(w.errors, [`console: Failed to load resource: the server responded with a status of 401 (Unauthorized) (${ctx.t.url}/ari/asterisk/info)`]);
    w.errors.length = 0;
  });
});

test('a wrong repository token is refused with its own message', async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await fillSignIn(w, ctx.t.url, ARI, { token: '0123456789abcdef0123456789abcdef01234567' });
    const error = w.page.locator('#sign-in-error');
    await error.waitFor({ timeout: WAIT_MS });
    assert.is(await error.textContent(), 'The repository sign-in was refused: wrong token, user name or password.');
    assert.equal(w.errors, [`console: Failed to load resource: the server responded with a status of 401 (Unauthorized) (${ctx.t.url}/api/v1/user)`]);
    w.errors.length = 0;
  });
});

test('a read-only ARI user is refused: the console needs write access (the tap and the far end are /sim)', async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await fillSignIn(w, ctx.t.url, { user: 'viewer', password: 'secret-viewer' });
    const error = w.page.locator('#sign-in-error');
    await error.waitFor({ timeout: WAIT_MS });
    assert.is(await error.textContent(), 'This ARI user is read-only; the console needs a user with write access.');
    assert.is(await w.page.evaluate(() => (globalThis as any).sessionStorage.getItem('trunkline-console-session')), null);
    assert.equal(w.errors, [`console: Failed to load resource: the server responded with a status of 403 (Forbidden) (${ctx.t.url}/sim/clock)`]);
    w.errors.length = 0;
  });
});

test.run();
