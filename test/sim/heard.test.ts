import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp, originateInApp } from '../_helpers/ari.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { connectEvents } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';
import { parseWav, wavToSlin } from '../../server/ari/media/wav.js';
import { advance, alignToFrame, clockNow as now, instant, stamp, VIRTUAL_START as START } from '../_helpers/virtual-clock.js';

// GET /sim/channels/{id}/heard and heard.wav: what the far end of a channel was sent, on the virtual
// clock so every instant and duration is exact. Media frames are 20 ms from the clock's start, and the
// WAV starts at the frame the channel was created in.
const test = suite('sim heard');
const ctx = useServer(test, { env: { SIM_CLOCK: 'virtual' } });

const sound = (id: string) => wavToSlin(readFileSync(new URL(`../../fixtures/ari/sounds/en/${id}.wav`, import.meta.url)), 8000);
const HELLO = sound('hello-world');
const GOODBYE = sound('goodbye');
const ms = (samples: Int16Array) => (samples.length * 1000) / 8000;

async function heard(t: TestServer, id: string): Promise<any[]> {
  const r = await t.http('GET', `/sim/channels/${encodeURIComponent(id)}/heard`);
  assert.is(r.status, 200, r.text);
  assert.equal(Object.keys(r.body), ['items']);
  return r.body.items;
}
/** heard.wav, checked as an 8 kHz mono 16-bit WAV, and the instant its first sample stands for. */
async function heardWav(t: TestServer, id: string, created: string): Promise<{ pcm: Int16Array; at: (ms: number) => number }> {
  const r = await t.http('GET', `/sim/channels/${encodeURIComponent(id)}/heard.wav`);
  assert.is(r.status, 200, r.text);
  assert.is(r.headers.get('content-type'), 'audio/wav');
  const wav = parseWav(r.bytes);
  assert.is(wav.rate, 8000);
  assert.is(wav.channels, 1);
  const c = instant(created);
  const first = c - ((c - START) % 20);
  return { pcm: wav.samples, at: (when: number) => ((when - first) * 8000) / 1000 };
}
/** The end of the frame an instant falls in (a WAV holds whole frames). */
const frameEnd = (ms: number) => ms + ((20 - ((ms - START) % 20)) % 20);
const silent = (pcm: Int16Array, from: number, to: number) => pcm.subarray(from, to).every((s) => s === 0);
const loud = (pcm: Int16Array, from: number, to: number) => pcm.subarray(from, to).some((s) => s !== 0);

test('two prompts then a bridge: the exact heard list, live and once ended, and the prompts\' audio in heard.wav', async () => {
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'heard-a' });
  const b = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'heard-b' });
  assert.equal(await heard(ctx.t, a.id), []);
  const t0 = await alignToFrame(ctx.t);
  const p = await ctx.t.http('POST', `/ari/channels/${a.id}/play`, { query: { media: 'sound:hello-world,sound:goodbye', playbackId: 'heard-pb' } });
  assert.is(p.status, 201);
  await ctx.ev.waitFor((e) => e.type === 'PlaybackStarted' && e.playback.id === 'heard-pb');
  // Halfway through the first prompt it is listed without a duration: it still plays.
  await advance(ctx.t, 400);
  assert.equal(await heard(ctx.t, a.id), [{ at: stamp(t0), kind: 'playback', media: 'sound:hello-world', lang: 'en' }]);
  // hello-world is 797 ms long, goodbye 589.125 ms: the clock keeps the fraction, timestamps show whole milliseconds.
  const t1 = t0 + ms(HELLO);
  const t2 = t1 + ms(GOODBYE);
  const tb = await advance(ctx.t, Math.ceil(t2 - t0 - 400));
  const finished = await ctx.ev.waitFor((e) => e.type === 'PlaybackFinished' && e.playback.id === 'heard-pb');
  assert.is(finished.timestamp, stamp(Math.floor(t2)));

  const br = await ctx.t.http('POST', '/ari/bridges', { query: { type: 'mixing', bridgeId: 'heard-br' } });
  assert.is(br.status, 200);
  assert.is((await ctx.t.http('POST', '/ari/bridges/heard-br/addChannel', { query: { channel: `${a.id},${b.id}` } })).status, 204);
  await advance(ctx.t, 1000);
  const prompts = [
    { at: stamp(t0), kind: 'playback', media: 'sound:hello-world', lang: 'en', duration_ms: ms(HELLO), completed: true },
    { at: stamp(t1), kind: 'playback', media: 'sound:goodbye', lang: 'en', duration_ms: Math.round(ms(GOODBYE)), completed: true },
  ];
  assert.equal(await heard(ctx.t, a.id), [...prompts, { at: stamp(tb), kind: 'bridge', peers: [b.id] }]);
  // Looked up by name as well as by id.
  assert.equal(await heard(ctx.t, a.body.name), await heard(ctx.t, a.id));

  assert.is((await ctx.t.http('DELETE', `/ari/channels/${a.id}`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === a.id);
  const end = tb + 1000;
  // Ended: served from the history, every item closed.
  assert.equal(await heard(ctx.t, a.id), [...prompts, { at: stamp(tb), kind: 'bridge', peers: [b.id], duration_ms: 1000 }]);
  // The other member heard a then, once a left, nobody.
  assert.equal(await heard(ctx.t, b.id), [{ at: stamp(tb), kind: 'bridge', peers: [a.id], duration_ms: 1000 }, { at: stamp(end), kind: 'bridge', peers: [] }]);

  // The audio: silence until the first prompt, both prompts sample for sample, then silence (b sends nothing) to the end.
  const { pcm, at } = await heardWav(ctx.t, a.id, a.body.creationtime);
  assert.is(pcm.length, at(frameEnd(end)));
  assert.ok(silent(pcm, 0, at(t0)));
  const p2 = at(t0) + HELLO.length;
  const p3 = p2 + GOODBYE.length;
  assert.equal([...pcm.subarray(at(t0), p2)], [...HELLO]);
  assert.equal([...pcm.subarray(p2, p3)], [...GOODBYE]);
  assert.ok(silent(pcm, p3, pcm.length));
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${b.id}`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === b.id);
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/heard-br')).status, 204);
});

test('music on hold, silence, hold and DTMF we send are listed with their instants and durations; the music is in heard.wav', async () => {
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'heard-moh' });
  const t0 = await alignToFrame(ctx.t);
  assert.is((await ctx.t.http('POST', `/ari/channels/${a.id}/moh`, { query: { mohClass: 'jazz' } })).status, 204);
  await advance(ctx.t, 2000);
  assert.is((await ctx.t.http('POST', `/ari/channels/${a.id}/silence`)).status, 204);
  await advance(ctx.t, 300);
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${a.id}/silence`)).status, 204);
  assert.is((await ctx.t.http('POST', `/ari/channels/${a.id}/hold`)).status, 204);
  await advance(ctx.t, 500);
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${a.id}/hold`)).status, 204);
  assert.is((await ctx.t.http('POST', `/ari/channels/${a.id}/dtmf`, { query: { dtmf: '1#', duration: '100', between: '50' } })).status, 204);
  await advance(ctx.t, 1000);
  const t1 = t0 + 2000;
  const t2 = t1 + 300;
  assert.equal(await heard(ctx.t, a.id), [
    { at: stamp(t0), kind: 'moh', class: 'jazz', duration_ms: 2000 },
    { at: stamp(t1), kind: 'silence', duration_ms: 300 },
    { at: stamp(t2), kind: 'hold', duration_ms: 500 },
    { at: stamp(t2 + 500), kind: 'dtmf', digit: '1', duration_ms: 100 },
    { at: stamp(t2 + 650), kind: 'dtmf', digit: '#', duration_ms: 100 },
  ]);
  const { pcm, at } = await heardWav(ctx.t, a.id, a.body.creationtime);
  assert.is(pcm.length, at(t2 + 1500));
  assert.ok(silent(pcm, 0, at(t0)));
  // jazz is a tone pattern with gaps, so the music is somewhere in its two seconds, not in every frame.
  assert.ok(loud(pcm, at(t0), at(t0 + 1000)));
  // A frame is made when it starts: the one starting as the music stopped (t1 is on a frame boundary) still carries it.
  assert.ok(loud(pcm, at(t1 - 20), at(t1 + 20)));
  assert.ok(silent(pcm, at(t1 + 20), pcm.length));
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${a.id}`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === a.id);
});

test('ringing indicated to an inbound call lasts until the answer, and the ringback is in heard.wav', async () => {
  const a = await callInApp(ctx.t, ctx.ev, { id: 'heard-ring', app: 'app1', extension: '1001' });
  const created = instant(a.body.creationtime);
  await advance(ctx.t, 1500);
  assert.is((await ctx.t.http('POST', `/ari/channels/${a.id}/answer`)).status, 204);
  const answeredAt = await now(ctx.t);
  assert.is(answeredAt, created + 1500);
  const items = await heard(ctx.t, a.id);
  assert.equal(items, [{ at: stamp(created), kind: 'ringing', duration_ms: 1500 }]);
  const { pcm, at } = await heardWav(ctx.t, a.id, a.body.creationtime);
  assert.ok(loud(pcm, at(created), at(created + 500)));
  await advance(ctx.t, 100);
  const after = await heardWav(ctx.t, a.id, a.body.creationtime);
  // Answered: the ringback stops with the first whole frame after the answer.
  assert.ok(silent(after.pcm, after.at(frameEnd(created + 1500) + 20), after.pcm.length));
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${a.id}`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === a.id);
});

test('a prompt stopped part way is listed as not completed, with the time it played', async () => {
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'heard-stop' });
  const t0 = await alignToFrame(ctx.t);
  assert.is((await ctx.t.http('POST', `/ari/channels/${a.id}/play`, { query: { media: 'sound:welcome', playbackId: 'heard-stop-pb' } })).status, 201);
  await ctx.ev.waitFor((e) => e.type === 'PlaybackStarted' && e.playback.id === 'heard-stop-pb');
  await advance(ctx.t, 240);
  assert.is((await ctx.t.http('DELETE', '/ari/playbacks/heard-stop-pb')).status, 204);
  assert.equal(await heard(ctx.t, a.id), [{ at: stamp(t0), kind: 'playback', media: 'sound:welcome', lang: 'en', duration_ms: 240, completed: false }]);
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${a.id}`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === a.id);
});

test('a prompt played on a bridge is listed for each member; a tone: playback is a tone item', async () => {
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'heard-ba' });
  const b = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'heard-bb' });
  assert.is((await ctx.t.http('POST', '/ari/bridges', { query: { type: 'mixing', bridgeId: 'heard-br2' } })).status, 200);
  assert.is((await ctx.t.http('POST', '/ari/bridges/heard-br2/addChannel', { query: { channel: `${a.id},${b.id}` } })).status, 204);
  const tb = await now(ctx.t);
  const t0 = await alignToFrame(ctx.t);
  assert.is((await ctx.t.http('POST', '/ari/bridges/heard-br2/play', { query: { media: 'sound:hello-world', playbackId: 'heard-bpb' } })).status, 201);
  await ctx.ev.waitFor((e) => e.type === 'PlaybackStarted' && e.playback.id === 'heard-bpb');
  await advance(ctx.t, 797);
  await ctx.ev.waitFor((e) => e.type === 'PlaybackFinished' && e.playback.id === 'heard-bpb');
  const prompt = { at: stamp(t0), kind: 'playback', media: 'sound:hello-world', lang: 'en', duration_ms: 797, completed: true };
  assert.equal((await heard(ctx.t, a.id)).slice(1), [prompt]);
  assert.equal((await heard(ctx.t, b.id)).slice(1), [prompt]);
  // b hears the prompt over a's silence.
  const { pcm, at } = await heardWav(ctx.t, b.id, b.body.creationtime);
  assert.is(pcm.length, at(frameEnd(t0 + 797)));
  assert.equal([...pcm.subarray(at(t0), at(t0) + HELLO.length)], [...HELLO]);

  assert.is((await ctx.t.http('POST', `/ari/bridges/heard-br2/removeChannel`, { query: { channel: a.id } })).status, 204);
  const t1 = await now(ctx.t);
  assert.is((await ctx.t.http('POST', `/ari/channels/${a.id}/play`, { query: { media: 'tone:ring', playbackId: 'heard-tone' } })).status, 201);
  await ctx.ev.waitFor((e) => e.type === 'PlaybackStarted' && e.playback.id === 'heard-tone');
  await advance(ctx.t, 1000);
  assert.is((await ctx.t.http('DELETE', '/ari/playbacks/heard-tone')).status, 204);
  // Out of the bridge a has no bridge item open; the tone ran until stopped.
  assert.equal(await heard(ctx.t, a.id), [
    { at: stamp(tb), kind: 'bridge', peers: [b.id], duration_ms: t1 - tb },
    prompt,
    { at: stamp(t1), kind: 'tone', media: 'tone:ring', duration_ms: 1000, completed: false },
  ]);
  for (const id of [a.id, b.id]) {
    assert.is((await ctx.t.http('DELETE', `/ari/channels/${id}`)).status, 204);
    await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  }
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/heard-br2')).status, 204);
});

test('SIM_HEARD_MAX_SECONDS bounds heard.wav to the newest audio; the list keeps the newest 200 items', async () => {
  const t = await startTestServer({ SIM_CLOCK: 'virtual', SIM_HEARD_MAX_SECONDS: '1' });
  const ev = await connectEvents(t.url, 'app1');
  try {
    const a = await originateInApp(t, ev, { app: 'app1', id: 'heard-bound' });
    const t0 = await alignToFrame(t);
    assert.is((await t.http('POST', `/ari/channels/${a.id}/moh`)).status, 204);
    await advance(t, 3000);
    const r = await t.http('GET', `/sim/channels/${a.id}/heard.wav`);
    assert.is(r.status, 200);
    const pcm = parseWav(r.bytes).samples;
    // One second: the frames of [t0 + 2000, t0 + 3000), which carry the music.
    assert.is(pcm.length, 8000);
    assert.ok(loud(pcm, 0, pcm.length));
    assert.is((await t.http('DELETE', `/ari/channels/${a.id}/moh`)).status, 204);
    assert.is((await t.http('POST', `/ari/channels/${a.id}/dtmf`, { query: { dtmf: '1'.repeat(201), duration: '10', between: '0' } })).status, 204);
    await advance(t, 2010);
    const items = await heard(t, a.id);
    assert.is(items.length, 200);
    // The music and the first digit dropped off the front.
    assert.equal(items[0], { at: stamp(t0 + 3010), kind: 'dtmf', digit: '1', duration_ms: 10 });
    assert.equal(items[199], { at: stamp(t0 + 5000), kind: 'dtmf', digit: '1', duration_ms: 10 });
    t.assertNoViolations();
  } finally {
    await ev.close();
    await t.close();
  }
});

test('404 for a channel neither live nor in the history', async () => {
  for (const suffix of ['heard', 'heard.wav']) {
    const r = await ctx.t.http('GET', `/sim/channels/no-such-channel/${suffix}`);
    assert.is(r.status, 404);
    assert.equal(r.body, { message: 'Channel not found' });
  }
});

test.run();
