import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AriEvent } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';
import { waitForCount } from '../_helpers/browser.js';
import { WAIT_MS } from '../_helpers/wait.js';
import { SCREENSHOTS, signIn, updateScreenshots, useBrowser } from './_console.js';

// The event log: filters by application, channel and type; an export holds exactly the events
// shown, as JSON lines of the tap's frames; a pause keeps what arrives and counts it.
const test = suite('browser: console event log');
const ctx = useServer(test, { events: { ev: 'demo', other: 'other' } });
const b = useBrowser(test);

/** An inbound call into `app` (extension 1000 answers, then enters the application); returns its channel id. */
async function callInto(app: 'demo' | 'other'): Promise<string> {
  const log = app === 'demo' ? ctx.ev : ctx.other;
  const r = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000' }, json: { variables: { STASIS_APP: app } } });
  assert.is(r.status, 200, r.text);
  await log.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === r.body.id);
  return r.body.id;
}

async function press(id: string, digits: string, app: 'demo' | 'other' = 'demo'): Promise<void> {
  assert.is((await ctx.t.http('POST', `/sim/channels/${id}/dtmf`, { query: { dtmf: digits } })).status, 204);
  const log = app === 'demo' ? ctx.ev : ctx.other;
  await log.waitFor((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === id && e.digit === digits.at(-1));
}

/** The events the application's own socket got about a channel, as the tap's frames. */
const framesOf = (app: 'demo' | 'other', id: string, type?: string) =>
  (app === 'demo' ? ctx.ev : ctx.other).events
    .filter((e: AriEvent) => (e.channel?.id === id) && (!type || e.type === type))
    .map((event) => ({ app, event }));

test('filters by application, channel and type; the export is exactly the events shown, as JSON lines', async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.t.url, ['demo', 'other']);
    const a = await callInto('demo');
    const c = await callInto('other');
    await press(a, '12');
    await press(c, '3', 'other');
    await w.page.locator('#tab-events').click();
    const all = framesOf('demo', a).length + framesOf('other', c).length;
    await waitForCount(w.page, 'tr.log-entry', all);

    await w.page.locator('select[name="filter-app"]').selectOption('demo');
    await w.page.locator('input[name="filter-channel"]').fill(a);
    await waitForCount(w.page, 'tr.log-entry', framesOf('demo', a).length, true);
    await w.page.locator('select[name="filter-type"]').selectOption('ChannelDtmfReceived');
    const expected = framesOf('demo', a, 'ChannelDtmfReceived');
    assert.is(expected.length, 2);
    await waitForCount(w.page, 'tr.log-entry', 2, true);
    assert.is(await w.page.locator('#log-export').textContent(), 'Export 2 as JSON lines');

    const [download] = await Promise.all([w.page.waitForEvent('download', { timeout: WAIT_MS }), w.page.locator('#log-export').click()]);
    assert.is(download.suggestedFilename(), 'trunkline-events.jsonl');
    const text = readFileSync((await download.path())!, 'utf8');
    assert.equal(text.split('\n'), [...expected.map((f) => JSON.stringify(f)), '']);

    // The other application's call alone, by application filter: its events, nothing of demo's.
    await w.page.locator('select[name="filter-type"]').selectOption('');
    await w.page.locator('input[name="filter-channel"]').fill('');
    await w.page.locator('select[name="filter-app"]').selectOption('other');
    await waitForCount(w.page, 'tr.log-entry', framesOf('other', c).length, true);
    const [other] = await Promise.all([w.page.waitForEvent('download', { timeout: WAIT_MS }), w.page.locator('#log-export').click()]);
    const lines = readFileSync((await other.path())!, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines, framesOf('other', c));
  });
});

test('a pause keeps the events that arrive and counts them; resume shows them', async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.t.url, ['demo', 'other']);
    const a = await callInto('demo');
    await w.page.locator('#tab-events').click();
    await w.page.locator('input[name="filter-channel"]').fill(a);
    const before = framesOf('demo', a).length;
    await waitForCount(w.page, 'tr.log-entry', before, true);
    await w.page.locator('#log-pause').click();
    await press(a, '45');
    const arrived = framesOf('demo', a).length - before;
    assert.ok(arrived >= 2, 'two digits at least arrived while paused');
    await w.page.locator('#log-resume', { hasText: `Resume (${arrived} new)` }).waitFor({ timeout: WAIT_MS });
    assert.is(await w.page.locator('tr.log-entry').count(), before, 'nothing new drawn while paused');
    if (updateScreenshots()) {
      await w.page.locator('#log-resume').click();
      await w.page.locator('input[name="filter-channel"]').fill('');
      await press(a, '6');
      await w.page.locator('tr.log-entry').first().click();
      await w.screenshot(join(SCREENSHOTS, 'console-event-log.png'));
      return;
    }
    await w.page.locator('#log-resume').click();
    await waitForCount(w.page, 'tr.log-entry', before + arrived, true);
    const digits = await w.page.locator('tr.log-entry[data-type="ChannelDtmfReceived"] .summary').allTextContents();
    assert.equal(digits.map((s) => /digit="(.)"/.exec(s)?.[1]), ['4', '5']);
  });
});

test.run();
