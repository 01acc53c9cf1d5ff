import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FRAME_SAMPLES, level, SILENCE_THRESHOLD, tonePower } from '../../server/ari/media/pcm.js';
import { parseWav } from '../../server/ari/media/wav.js';
import { hangupAndWait } from '../_helpers/ari.js';
import type { AriEvent } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

// A bridge recording with beep: the Recorder plays the beep into the bridge before capture, so the
// members hear it; the recording itself starts after it. What a member hears is observed through a
// Local pair: ;1 is in the bridge, and a recording of ;2 holds what ;1 is sent. On the virtual
// clock, so every 20 ms frame is rendered however busy the machine is.
const test = suite('bridge-record-beep');
const ctx = useServer(test, { env: { SIM_CLOCK: 'virtual' } });

async function advance(ms: number): Promise<void> {
  const r = await ctx.t.http('POST', '/sim/clock/advance', { query: { ms: String(ms) } });
  assert.is(r.status, 200, r.text);
}
const enc = encodeURIComponent;

const finished = (name: string) => ctx.ev.waitFor((e: AriEvent) => e.type === 'RecordingFinished' && e.recording?.name === name);
const started = (name: string) => ctx.ev.waitFor((e: AriEvent) => e.type === 'RecordingStarted' && e.recording?.name === name);

async function audio(name: string): Promise<Int16Array> {
  const r = await ctx.t.http('GET', `/ari/recordings/stored/${enc(name)}/file`);
  assert.is(r.status, 200);
  const w = parseWav(r.bytes);
  assert.is(w.rate, 8000);
  return w.samples;
}

function frames(s: Int16Array): Int16Array[] {
  const out: Int16Array[] = [];
  for (let i = 0; i + FRAME_SAMPLES <= s.length; i += FRAME_SAMPLES) out.push(s.subarray(i, i + FRAME_SAMPLES));
  return out;
}

/** Share of the signal's power at `f` (1 for a pure tone). */
function purity(s: Int16Array, f: number): number {
  let ms = 0;
  for (const x of s) ms += (x / 32768) ** 2;
  ms /= s.length || 1;
  return ms ? tonePower(s, f, 8000) / (2 * ms) : 0;
}

/** A bridge holding the first half of a Local pair (the second half observed) and a silent PJSIP call. */
async function setup(tag: string): Promise<{ bridge: string; one: string; two: string; other: string }> {
  const one = `${tag}-loc`;
  const two = `${one};2`;
  const o = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'Local/1000@default', app: 'app1', channelId: one }, json: { variables: { STASIS_APP: 'app1' } } });
  assert.is(o.status, 200, o.text);
  for (const id of [one, two]) await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
  const other = `${tag}-pj`;
  assert.is((await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'app1', channelId: other } })).status, 200);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === other);
  const bridge = `${tag}-br`;
  assert.is((await ctx.t.http('POST', '/ari/bridges', { query: { bridgeId: bridge } })).status, 200);
  for (const id of [one, other]) {
    assert.is((await ctx.t.http('POST', `/ari/bridges/${bridge}/addChannel`, { query: { channel: id } })).status, 204);
    await ctx.ev.waitFor((e) => e.type === 'ChannelEnteredBridge' && e.channel?.id === id);
  }
  return { bridge, one, two, other };
}

/** Records the bridge for 1 s (beep or not) while ;2 is recorded; returns what ;2 heard and the bridge recording. */
async function recordBridge(tag: string, beep: boolean): Promise<{ heard: Int16Array; own: Int16Array }> {
  const { bridge, one, two, other } = await setup(tag);
  const observer = `${tag}-heard`;
  assert.is((await ctx.t.http('POST', `/ari/channels/${enc(two)}/record`, { query: { name: observer, format: 'wav' } })).status, 201);
  await started(observer);
  const name = `${tag}-bridge`;
  const r = await ctx.t.http('POST', `/ari/bridges/${bridge}/record`, { query: { name, format: 'wav', beep, maxDurationSeconds: 1 } });
  assert.is(r.status, 201, r.text);
  // The beep (250 ms, when asked for), then one second of capture.
  await advance(1500);
  assert.is((await finished(name)).recording.state, 'done');
  assert.is((await ctx.t.http('POST', `/ari/recordings/live/${enc(observer)}/stop`)).status, 204);
  await finished(observer);
  const result = { heard: await audio(observer), own: await audio(name) };
  await ctx.t.http('DELETE', `/ari/bridges/${bridge}`);
  for (const id of [one, other]) await hangupAndWait(ctx.t, ctx.ev, id);
  return result;
}

test('beep=true: the members hear one 250 ms 1 kHz beep when the recording starts; the recording does not hold it', async () => {
  const { heard, own } = await recordBridge('rb-beep', true);
  const loudness = frames(heard).map((f) => level(f) >= SILENCE_THRESHOLD);
  const loud = frames(heard).filter((f) => level(f) >= SILENCE_THRESHOLD);
  // 250 ms = 12.5 frames: 13 frames carry it, in one stretch from the first frame after the request.
  assert.is(loud.length, 13, `${loud.length} frames of beep`);
  assert.is(loudness.indexOf(true), 0);
  assert.is(loudness.lastIndexOf(true) - loudness.indexOf(true) + 1, loud.length, 'one stretch');
  const beep = new Int16Array(loud.length * FRAME_SAMPLES);
  loud.forEach((f, i) => beep.set(f, i * FRAME_SAMPLES));
  assert.ok(purity(beep, 1000) > 0.8, `the beep is 1 kHz (${purity(beep, 1000)})`);
  assert.is(own.length, 8000, 'the bridge recording lasts exactly 1 s');
  assert.not.ok(frames(own).some((f) => level(f) >= SILENCE_THRESHOLD), 'the beep is not recorded');
});

test('beep=false (the default): the members hear nothing', async () => {
  const { heard } = await recordBridge('rb-quiet', false);
  assert.ok(heard.length > 0);
  assert.not.ok(frames(heard).some((f) => level(f) >= SILENCE_THRESHOLD), 'silence throughout');
});

test.run();
