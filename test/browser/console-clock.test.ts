import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { waitForCount } from '../_helpers/browser.js';
import { useServer } from '../_helpers/suite.js';
import { WAIT_MS } from '../_helpers/wait.js';
import { SCREENSHOTS, signIn, updateScreenshots, useBrowser } from './_console.js';

// The virtual clock in the header: the simulated instant and the timers pending, and buttons
// that move time on. A dial timeout happens when, and only when, the buttons have moved the
// clock past it.
const test = suite('browser: console virtual clock');
const ctx = useServer(test, { env: { SIM_CLOCK: 'virtual' }, events: { ev: 'demo' } });
const b = useBrowser(test);

test('the clock shows simulated time; +10 s three times makes a 30 s dial time out (NOANSWER, cause 19), not before', async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.t.url, ['demo']);
    await w.page.locator('#clock[data-mode="virtual"]').waitFor({ timeout: WAIT_MS });
    assert.is(await w.page.locator('#clock-now').textContent(), '2025-01-01T00:00:00.000+0000');
    assert.is(await w.page.locator('#clock-pending').textContent(), '0');

    const made = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/noanswer', app: 'demo', timeout: 30 } });
    assert.is(made.status, 200, made.text);
    const id = made.body.id as string;
    const tenSeconds = w.page.locator('#clock button[data-advance="+10 s"]');
    const advanceTo = async (now: string) => {
      await tenSeconds.click();
      await w.page.locator('#clock-now', { hasText: now }).waitFor({ timeout: WAIT_MS });
    };
    await advanceTo('2025-01-01T00:00:10.000+0000');
    await advanceTo('2025-01-01T00:00:20.000+0000');
    // 20 s in: still ringing, nothing has ended.
    assert.not.ok(ctx.ev.events.some((e) => e.type === 'ChannelDestroyed' || (e.type === 'Dial' && e.dialstatus === 'NOANSWER')), 'no dial result before the timeout');
    assert.ok(Number(await w.page.locator('#clock-pending').textContent()) >= 1, 'the dial timeout is pending');
    await w.page.locator(`tr.channel[data-channel="${id}"]`).waitFor({ timeout: WAIT_MS });

    await advanceTo('2025-01-01T00:00:30.000+0000');
    const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
    assert.is(destroyed.cause, 19);
    assert.is(destroyed.timestamp, '2025-01-01T00:00:30.000+0000');
    await w.page.locator(`tr.channel[data-channel="${id}"]`).waitFor({ state: 'detached', timeout: WAIT_MS });

    // The event log has the dial's end, stamped at the instant the button moved the clock to.
    await w.page.locator('#tab-events').click();
    await w.page.locator('input[name="filter-channel"]').fill(id);
    await waitForCount(w.page, 'tr.log-entry[data-type="ChannelDestroyed"]', 1, true);
    const last = w.page.locator('tr.log-entry[data-type="ChannelDestroyed"]');
    assert.is(await last.locator('td').first().textContent(), '2025-01-01T00:00:30.000+0000');
    assert.match((await last.locator('.summary').textContent()) ?? '', /cause=19/);
    const dials = await w.page.locator('tr.log-entry[data-type="Dial"] .summary').allTextContents();
    assert.ok(dials.some((s) => s.includes('dialstatus="NOANSWER"')), `a Dial with NOANSWER in ${JSON.stringify(dials)}`);
    if (updateScreenshots()) await w.screenshot(join(SCREENSHOTS, 'console-virtual-clock.png'));
  });
});

test('a playback and a recording are listed while they run and leave the list when the clock ends them', async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.t.url, ['demo']);
    const call = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000' }, json: { variables: { STASIS_APP: 'demo' } } });
    assert.is(call.status, 200, call.text);
    const id = call.body.id as string;
    await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
    const play = await ctx.t.http('POST', `/ari/channels/${id}/play`, { query: { media: 'sound:hello-world' } });
    assert.is(play.status, 201, play.text);
    const item = w.page.locator(`#media li[data-playback="${play.body.id}"]`);
    await item.waitFor({ timeout: WAIT_MS });
    assert.match((await item.textContent()) ?? '', /sound:hello-world on channel:.+ playing$/);
    // hello-world lasts under a second of simulated time: nothing moves until the clock does.
    assert.not.ok(ctx.ev.events.some((e) => e.type === 'PlaybackFinished'));
    await w.page.locator('#clock button[data-advance="+1 s"]').click();
    await ctx.ev.waitFor((e) => e.type === 'PlaybackFinished' && e.playback?.id === play.body.id);
    await item.waitFor({ state: 'detached', timeout: WAIT_MS });

    // A recording too: listed while it runs, then among the stored recordings once the clock ends it.
    const rec = await ctx.t.http('POST', `/ari/channels/${id}/record`, { query: { name: 'console-clock-rec', format: 'wav', maxDurationSeconds: 2 } });
    assert.is(rec.status, 201, rec.text);
    const live = w.page.locator('#media li[data-recording="console-clock-rec"]');
    await live.waitFor({ timeout: WAIT_MS });
    assert.match((await live.textContent()) ?? '', /console-clock-rec\.wav from channel:.+ recording$/);
    await w.page.locator('#clock button[data-advance="+10 s"]').click();
    await ctx.ev.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === 'console-clock-rec');
    await live.waitFor({ state: 'detached', timeout: WAIT_MS });
    await w.page.locator('#tab-recordings').click();
    await w.page.locator('#recordings tr[data-recording="console-clock-rec"]').waitFor({ timeout: WAIT_MS });
  });
});

test.run();
