import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { originateInApp } from '../_helpers/ari.js';
import { connectEvents } from '../_helpers/events.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { parseWav } from '../../server/ari/media/wav.js';
import { advance, alignToFrame, instant, stamp, VIRTUAL_START as START } from '../_helpers/virtual-clock.js';

// What bridge members' far ends heard: the bridge's music on hold, a bridge prompt heard from the
// moment a member joins (and no longer once it leaves), and items going on across a restart. On the
// virtual clock, so instants and durations are exact.
const test = suite('sim heard: bridges and restarts');
const VIRTUAL = { SIM_CLOCK: 'virtual' };
const ctx = useServer(test, { env: VIRTUAL });

const HELLO_MS = 797;

async function heard(t: TestServer, id: string): Promise<any[]> {
  const r = await t.http('GET', `/sim/channels/${encodeURIComponent(id)}/heard`);
  assert.is(r.status, 200, r.text);
  return r.body.items;
}
const without = (items: any[], kind: string) => items.filter((i) => i.kind !== kind);
async function bridgeOf(t: TestServer, id: string, members: string[]): Promise<void> {
  assert.is((await t.http('POST', `/ari/bridges/${id}`, { query: { type: 'mixing' } })).status, 200);
  for (const m of members) assert.is((await t.http('POST', `/ari/bridges/${id}/addChannel`, { query: { channel: m } })).status, 204);
}

test('the bridge\'s music on hold is a moh item for every member, with its duration, and is in heard.wav', async () => {
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'hb-moh-a' });
  await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'hb-moh-b' });
  await bridgeOf(ctx.t, 'hb-moh', ['hb-moh-a', 'hb-moh-b']);
  const t0 = await alignToFrame(ctx.t);
  assert.is((await ctx.t.http('POST', '/ari/bridges/hb-moh/moh', { query: { mohClass: 'default' } })).status, 204);
  await advance(ctx.t, 1500);
  assert.equal(without(await heard(ctx.t, 'hb-moh-a'), 'bridge'), [{ at: stamp(t0), kind: 'moh', class: 'default' }]);
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/hb-moh/moh')).status, 204);
  for (const id of ['hb-moh-a', 'hb-moh-b']) assert.equal(without(await heard(ctx.t, id), 'bridge'), [{ at: stamp(t0), kind: 'moh', class: 'default', duration_ms: 1500 }]);
  const wav = await ctx.t.http('GET', '/sim/channels/hb-moh-a/heard.wav');
  assert.is(wav.status, 200);
  const pcm = parseWav(wav.bytes).samples;
  const c = instant(a.body.creationtime);
  const at = (ms: number) => ((ms - (c - ((c - START) % 20))) * 8000) / 1000;
  assert.ok(pcm.subarray(at(t0), at(t0 + 1500)).some((s) => s !== 0), 'the music is in heard.wav');
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/hb-moh')).status, 204);
  for (const id of ['hb-moh-a', 'hb-moh-b']) assert.is((await ctx.t.http('DELETE', `/ari/channels/${id}`)).status, 204);
});

test('a member joining part way through a bridge prompt hears it from then on; one leaving part way has it end, not completed', async () => {
  await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'hb-pb-a' });
  await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'hb-pb-b' });
  await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'hb-pb-c' });
  await bridgeOf(ctx.t, 'hb-pb', ['hb-pb-a', 'hb-pb-c']);
  const t0 = await alignToFrame(ctx.t);
  assert.is((await ctx.t.http('POST', '/ari/bridges/hb-pb/play', { query: { media: 'sound:hello-world', playbackId: 'hb-pb-1' } })).status, 201);
  await ctx.ev.waitFor((e) => e.type === 'PlaybackStarted' && e.playback.id === 'hb-pb-1');
  await advance(ctx.t, 300);
  assert.is((await ctx.t.http('POST', '/ari/bridges/hb-pb/addChannel', { query: { channel: 'hb-pb-b' } })).status, 204);
  await advance(ctx.t, 200);
  assert.is((await ctx.t.http('POST', '/ari/bridges/hb-pb/removeChannel', { query: { channel: 'hb-pb-c' } })).status, 204);
  await advance(ctx.t, 1000);
  await ctx.ev.waitFor((e) => e.type === 'PlaybackFinished' && e.playback.id === 'hb-pb-1');
  const prompt = (items: any[]) => items.filter((i) => i.kind === 'playback');
  assert.equal(prompt(await heard(ctx.t, 'hb-pb-a')), [{ at: stamp(t0), kind: 'playback', media: 'sound:hello-world', lang: 'en', duration_ms: HELLO_MS, completed: true }]);
  assert.equal(prompt(await heard(ctx.t, 'hb-pb-b')), [{ at: stamp(t0 + 300), kind: 'playback', media: 'sound:hello-world', lang: 'en', duration_ms: HELLO_MS - 300, completed: true }]);
  assert.equal(prompt(await heard(ctx.t, 'hb-pb-c')), [{ at: stamp(t0), kind: 'playback', media: 'sound:hello-world', lang: 'en', duration_ms: 500, completed: false }]);
  // After the prompt, a member joining hears no prompt.
  assert.is((await ctx.t.http('POST', '/ari/bridges/hb-pb/addChannel', { query: { channel: 'hb-pb-c' } })).status, 204);
  await advance(ctx.t, 100);
  assert.is(prompt(await heard(ctx.t, 'hb-pb-c')).length, 1);
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/hb-pb')).status, 204);
  for (const id of ['hb-pb-a', 'hb-pb-b', 'hb-pb-c']) assert.is((await ctx.t.http('DELETE', `/ari/channels/${id}`)).status, 204);
});

test('across a restart: music on hold going on stays one item and gets its whole duration; DTMF is not listed twice', async () => {
  const dir = tempDir('heard-restart');
  let s = await startTestServer(VIRTUAL, dir);
  try {
    let ev = await connectEvents(s.url, 'app1');
    await originateInApp(s, ev, { app: 'app1', id: 'hb-rs' });
    const t0 = await alignToFrame(s);
    assert.is((await s.http('POST', '/ari/channels/hb-rs/dtmf', { query: { dtmf: '5', duration: '100' } })).status, 204);
    await advance(s, 200);
    assert.is((await s.http('POST', '/ari/channels/hb-rs/moh')).status, 204);
    await advance(s, 1000);
    await ev.close();
    s.assertNoViolations();
    await s.close({ keepData: true });

    s = await startTestServer(VIRTUAL, dir);
    ev = await connectEvents(s.url, 'app1');
    await advance(s, 500);
    assert.is((await s.http('DELETE', '/ari/channels/hb-rs/moh')).status, 204);
    assert.equal(await heard(s, 'hb-rs'), [
      { at: stamp(t0), kind: 'dtmf', digit: '5', duration_ms: 100 },
      { at: stamp(t0 + 200), kind: 'moh', class: 'default', duration_ms: 1500 },
    ]);
    assert.is((await s.http('DELETE', '/ari/channels/hb-rs')).status, 204);
    await ev.close();
    s.assertNoViolations();
  } finally {
    await s.close();
  }
});

test('digits we send are kept newest-first bounded: 1,000 in the far end\'s list, 200 heard items, none listed twice', async () => {
  await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'hb-many' });
  const digits = '0123456789'.repeat(10);
  // 11 requests of 100 digits, queued one after the other: 1,100 digits, each 40 ms with 10 ms between.
  for (let i = 0; i < 11; i++) assert.is((await ctx.t.http('POST', '/ari/channels/hb-many/dtmf', { query: { dtmf: digits, duration: '40', between: '10' } })).status, 204);
  const r = await ctx.t.http('POST', '/sim/clock/advance', { query: { until: 'idle', max_ms: '120000' } });
  assert.is(r.status, 200);
  const far = (await ctx.t.http('GET', '/sim/channels/hb-many')).body.far_end;
  assert.is(far.dtmf_received.length, 1000);
  // The oldest 100 were let go; the list runs on from the 101st digit in order.
  assert.is(far.dtmf_received.map((d: any) => d.digit).join(''), digits.repeat(10));
  for (let i = 1; i < 1000; i++) assert.ok(far.dtmf_received[i].offset_ms > far.dtmf_received[i - 1].offset_ms);
  const items = (await heard(ctx.t, 'hb-many')).filter((i) => i.kind === 'dtmf');
  assert.is(items.length, 200);
  assert.is(items.map((i) => i.digit).join(''), digits.repeat(2));
  assert.is(new Set(items.map((i) => i.at)).size, 200);
  assert.is((await ctx.t.http('DELETE', '/ari/channels/hb-many')).status, 204);
});

test.run();
