import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chromiumPath, TestBrowser } from '../_helpers/browser.js';
import { skip } from '../_helpers/skip.js';
import { startTestServer } from '../_helpers/server.js';
import { waitUntil } from '../_helpers/wait.js';

// The browser helper's own guarantees, which every browser test leans on: a request that would
// leave 127.0.0.1 is refused and reported, and console errors and uncaught errors fail assertClean.
const test = suite('browser helper: a watched page');

test('requests outside 127.0.0.1 are refused and reported; console and page errors are recorded; assertClean fails on either', async ({ __test__ }) => {
  if (!chromiumPath()) return skip(__test__, 'chromium');
  const b = (await TestBrowser.launch(__test__))!;
  const t = await startTestServer();
  try {
    const clean = await b.newPage();
    await clean.page.goto(`${t.url}/api/v1/version`);
    assert.equal(clean.requests, [`${t.url}/api/v1/version`]);
    clean.assertClean();
    await clean.close();

    const w = await b.newPage();
    await w.page.goto(`${t.url}/api/v1/version`);
    const fetched = await w.page.evaluate(async () => {
      try {
        await fetch('http://203.0.113.9/beacon');
        return 'reached';
      } catch {
        return 'refused';
      }
    });
    assert.is(fetched, 'refused');
    await w.page.evaluate(() => {
      console.error('something broke');
      setTimeout(() => {
        throw new Error('uncaught in the page');
      });
    });
    await waitUntil(() => w.errors.includes('page error: uncaught in the page'), 'the uncaught error');
    assert.equal(w.outside, ['http://203.0.113.9/beacon']);
    // The refused request is itself a console error, as a person would see it in the developer tools.
    assert.is(w.errors.length, 3, w.errors.join('\n'));
    assert.match(w.errors[0]!, /^console: Failed to load resource: net::ERR_BLOCKED_BY_CLIENT.*\(http:\/\/203\.0\.113\.9\/beacon\)$/);
    assert.equal(w.errors.slice(1), ['console: something broke ()', 'page error: uncaught in the page']);
    assert.throws(() => w.assertClean(), /outside 127\.0\.0\.1:\nhttp:\/\/203\.0\.113\.9\/beacon/);
    w.outside.length = 0;
    assert.throws(() => w.assertClean(), /logged errors/);
    await w.close();
    t.assertNoViolations();
  } finally {
    await t.close();
    await b.close();
  }
});

test.run();
