import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useServer } from '../_helpers/suite.js';
import { WAIT_MS } from '../_helpers/wait.js';
import { channelRow, SCREENSHOTS, signIn, updateScreenshots, useBrowser, waitForState } from './_console.js';

// The live call view: a call placed from the console appears in its application's table and
// changes state as the events arrive; the far end's keypad reaches the application as
// ChannelDtmfReceived, which the event log shows with its digit.
const test = suite('browser: console live calls');
const ctx = useServer(test, { events: { ev: 'demo' } });
const b = useBrowser(test);

/** Places an inbound call through the console's form; returns the channel the application was given. */
async function placeFromConsole(w: Parameters<Parameters<typeof b.onPage>[1]>[0], extension: string): Promise<string> {
  const form = w.page.locator('#place-call');
  await form.locator('select[name="endpoint"]').selectOption('PJSIP/alice');
  await form.locator('input[name="extension"]').fill(extension);
  await form.locator('input[name="app"]').fill('demo');
  const before = ctx.ev.events.filter((e) => e.type === 'StasisStart').length;
  await form.locator('button[type="submit"]').click();
  await w.page.locator('#place-call-result.ok').waitFor({ timeout: WAIT_MS });
  const starts = await ctx.ev.waitForCount('StasisStart', before + 1);
  return starts[before]!.channel!.id;
}

test('a call placed from the console appears in its application and goes from Ring to Up live', async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.t.url, ['demo']);
    const id = await placeFromConsole(w, '1001');
    const started = ctx.ev.events.find((e) => e.type === 'StasisStart' && e.channel?.id === id)!;
    assert.is(started.channel!.state, 'Ring');
    await waitForState(w, id, 'Ring');
    const row = channelRow(w, id);
    assert.is(await w.page.locator(`.app[data-app="demo"] tr.channel[data-channel="${id}"]`).count(), 1, 'listed under its application');
    assert.is(await row.locator('.name').textContent(), started.channel!.name);
    assert.match((await row.locator('.dialplan').textContent()) ?? '', /^default,1001,3 Stasis\(demo,ringing\)$/);
    // The application answers: the row follows ChannelStateChange without a reload.
    assert.is((await ctx.t.http('POST', `/ari/channels/${id}/answer`)).status, 204);
    await waitForState(w, id, 'Up');
    assert.is(await row.locator('.state > span').first().textContent(), 'Up');
    // The far end hangs up from the console with a cause: the row goes away.
    await row.locator('button.details').click();
    await w.page.locator(`[data-far-end="${id}"] select[name="cause"]`).selectOption('17');
    await w.page.locator(`[data-far-end="${id}"] [data-action="hangup"]`).click();
    const request = await ctx.ev.waitFor((e) => e.type === 'ChannelHangupRequest' && e.channel?.id === id);
    assert.is(request.cause, 17);
    await w.page.locator(`tr.channel[data-channel="${id}"]`).waitFor({ state: 'detached', timeout: WAIT_MS });
  });
});

test('digits pressed on the keypad arrive as ChannelDtmfReceived, shown in the event log with the digit', async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.t.url, ['demo']);
    const id = await placeFromConsole(w, '1000');
    await waitForState(w, id, 'Up');
    await channelRow(w, id).locator('button.details').click();
    const pad = w.page.locator(`[data-far-end="${id}"] .keypad`);
    await pad.locator('[data-key="7"]').click();
    await ctx.ev.waitFor((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === id && e.digit === '7');
    await pad.locator('[data-key="#"]').click();
    await ctx.ev.waitFor((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === id && e.digit === '#');
    if (updateScreenshots()) {
      // A second call in the picture, ringing, beside the one opened on its far end.
      await placeFromConsole(w, '1001');
      await w.screenshot(join(SCREENSHOTS, 'console-calls.png'));
    }
    await w.page.locator('#tab-events').click();
    await w.page.locator('input[name="filter-channel"]').fill(id);
    await w.page.locator('select[name="filter-type"]').selectOption('ChannelDtmfReceived');
    const rows = w.page.locator('tr.log-entry[data-type="ChannelDtmfReceived"]');
    await rows.nth(1).waitFor({ timeout: WAIT_MS });
    const shown = await rows.locator('.summary').allTextContents();
    const name = ctx.ev.events.find((e) => e.channel?.id === id)!.channel!.name;
    assert.equal(shown, [`${name} digit="7" duration_ms=100`, `${name} digit="#" duration_ms=100`]);
  });
});

test('hold and talk from the far end, variables (from events and read on demand), and a bridge with its member, all live', async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.t.url, ['demo']);
    const id = await placeFromConsole(w, '1000');
    await waitForState(w, id, 'Up');
    const row = channelRow(w, id);
    await row.locator('button.details').click();
    const panel = w.page.locator(`[data-far-end="${id}"]`);

    await panel.locator('[data-action="hold"]').click();
    await ctx.ev.waitFor((e) => e.type === 'ChannelHold' && e.channel?.id === id);
    await row.locator('.state', { hasText: 'Up (on hold)' }).waitFor({ timeout: WAIT_MS });
    assert.is(await panel.locator('[data-action="hold"]').textContent(), 'Unhold');
    await panel.locator('[data-action="hold"]').click();
    await ctx.ev.waitFor((e) => e.type === 'ChannelUnhold' && e.channel?.id === id);
    await row.locator('.state', { hasText: /^Up$/ }).waitFor({ timeout: WAIT_MS });

    assert.is((await ctx.t.http('POST', `/ari/channels/${id}/variable`, { query: { variable: 'TALK_DETECT(set)', value: '' } })).status, 204);
    await panel.locator('[data-action="talk"]').click();
    await ctx.ev.waitFor((e) => e.type === 'ChannelTalkingStarted' && e.channel?.id === id);
    await row.locator('.state', { hasText: 'Up (talking)' }).waitFor({ timeout: WAIT_MS });
    await panel.locator('[data-action="talk"]', { hasText: 'Stop talking' }).click();
    await ctx.ev.waitFor((e) => e.type === 'ChannelTalkingFinished' && e.channel?.id === id);
    await row.locator('.state', { hasText: /^Up$/ }).waitFor({ timeout: WAIT_MS });

    // A variable the application sets arrives as ChannelVarset; another is read on demand.
    assert.is((await ctx.t.http('POST', `/ari/channels/${id}/variable`, { query: { variable: 'CONSOLE_NOTE', value: 'seen live' } })).status, 204);
    const vars = w.page.locator(`[data-detail="${id}"] .variables`);
    await vars.locator('dt', { hasText: 'CONSOLE_NOTE' }).waitFor({ timeout: WAIT_MS });
    // The periodic REST snapshot (which knows nothing of variables set since) must not wipe it:
    // two snapshots later (the first one surely applied and drawn), it is still there.
    for (let i = 0; i < 2; i++) await w.page.waitForResponse((r) => r.url() === `${ctx.t.url}/ari/channels`, { timeout: WAIT_MS });
    assert.is(await vars.locator('dt', { hasText: 'CONSOLE_NOTE' }).count(), 1, 'the variable outlives the snapshot');
    await vars.locator('input[name="variable"]').fill('CALLERID(num)');
    await vars.locator('button[type="submit"]').click();
    await vars.locator('dt', { hasText: 'CALLERID(num)' }).waitFor({ timeout: WAIT_MS });
    const pairs = await vars.locator('dl > *').allTextContents();
    const caller = ctx.ev.events.find((e) => e.channel?.id === id)!.channel!.caller.number;
    assert.equal(pairs, ['CONSOLE_NOTE', 'seen live', 'CALLERID(num)', caller]);

    const bridge = await ctx.t.http('POST', '/ari/bridges', { query: { type: 'mixing', name: 'console-room' } });
    assert.is(bridge.status, 200, bridge.text);
    assert.is((await ctx.t.http('POST', `/ari/bridges/${bridge.body.id}/addChannel`, { query: { channel: id } })).status, 204);
    const name = ctx.ev.events.find((e) => e.channel?.id === id)!.channel!.name;
    const shown = w.page.locator(`#bridges li[data-bridge="${bridge.body.id}"]`);
    await shown.waitFor({ timeout: WAIT_MS });
    assert.match((await shown.textContent()) ?? '', new RegExp(`console-room mixing/simple_bridge: ${name.replace(/[/]/g, '\\/')}$`));
  });
});

test("the far end answers our call from the console: an originate to PJSIP/manual rings until the page's Answer", async ({ __test__ }) => {
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.t.url, ['demo']);
    const made = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/manual', app: 'demo', timeout: 600 } });
    assert.is(made.status, 200, made.text);
    const id = made.body.id as string;
    const row = channelRow(w, id);
    await row.waitFor({ timeout: WAIT_MS });
    await row.locator('button.details').click();
    await w.page.locator(`[data-far-end="${id}"] [data-action="answer"]`).click();
    await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
    await waitForState(w, id, 'Up');
    assert.is(await w.page.locator(`[data-far-end="${id}"] [data-far-end-status]`).textContent(), 'answered');
  });
});

test('endpoints with their state, and device states as the server lists them', async ({ __test__ }) => {
  assert.is((await ctx.t.http('PUT', '/ari/deviceStates/Stasis:console-lamp', { query: { deviceState: 'BUSY' } })).status, 204);
  const endpoints = (await ctx.t.http('GET', '/ari/endpoints')).body as { technology: string; resource: string; state: string }[];
  await b.onPage(__test__, async (w) => {
    await signIn(w, ctx.t.url, ['demo']);
    const rows = w.page.locator('#endpoints tr');
    await rows.first().waitFor({ timeout: WAIT_MS });
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => [...(tr as unknown as { children: { textContent: string }[] }).children].slice(0, 2).map((td) => td.textContent)));
    const expected = endpoints.map((e) => [`${e.technology}/${e.resource}`, e.state]).sort((a, b) => a[0]!.localeCompare(b[0]!));
    assert.equal(shown, expected);
    const device = w.page.locator('#device-states tr', { hasText: 'Stasis:console-lamp' });
    await device.waitFor({ timeout: WAIT_MS });
    assert.equal(await device.locator('td').allTextContents(), ['Stasis:console-lamp', 'BUSY']);
  });
});

test.run();
