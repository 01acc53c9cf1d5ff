import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { farTone } from '../_helpers/audio.js';
import type { AriEvent } from '../_helpers/events.js';
import { pcmOf, serverMediaChannel, share } from '../_helpers/media-peer.js';
import { waitUntil } from '../_helpers/wait.js';
import { parseWav } from '../../server/ari/media/wav.js';
import { useServer } from '../_helpers/suite.js';

// Faults whose effect is measured in simulated time, on the virtual clock: events held back by
// delay_events arrive, in order, only once the clock is advanced past their delay; media_loss
// shows in RTP statistics as exact packet counts.
const test = suite('sim faults, virtual clock');
const ctx = useServer(test, { env: { SIM_CLOCK: 'virtual' } });

const START = Date.UTC(2025, 0, 1);
const stamp = (ms: number) => new Date(ms).toISOString().replace('Z', '+0000');
const nowOf = async () => Date.parse(((await ctx.t.http('GET', '/sim/clock')).body.now as string).replace(/\+0000$/, 'Z'));

async function advance(ms: number): Promise<void> {
  const r = await ctx.t.http('POST', '/sim/clock/advance', { query: { ms: String(ms) } });
  assert.is(r.status, 200, r.text);
}

test.after.each(async () => {
  assert.is((await ctx.t.http('DELETE', '/sim/faults')).status, 204);
});

const label = (e: AriEvent) => `${e.type}@${e.timestamp}`;

test('delay_events: the app\'s events arrive in order once the clock passes the delay, stamped when they happened', async () => {
  const f = await ctx.t.http('POST', '/sim/faults', { json: { kind: 'delay_events', app: 'app1', ms: 500 } });
  assert.is(f.status, 201, f.text);
  assert.equal(f.body, { id: f.body.id, kind: 'delay_events', app: 'app1', ms: 500 });
  const t0 = await nowOf();
  assert.is(t0, START);
  const r = await ctx.t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'app1', channelId: 'late-1' } });
  assert.is(r.status, 200);
  await advance(100);
  assert.is((await ctx.t.http('DELETE', '/ari/channels/late-1')).status, 204);
  // Nothing has reached the app yet: the first event waits until 500 ms after it happened.
  await advance(399);
  assert.equal(ctx.ev.of('late-1'), []);
  await advance(1);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'late-1');
  assert.equal(ctx.ev.of('late-1').map(label), [`ChannelDialplan@${stamp(START)}`, `StasisStart@${stamp(START)}`]);
  await advance(99);
  assert.is(ctx.ev.of('late-1').length, 2);
  await advance(1);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'late-1');
  assert.equal(ctx.ev.of('late-1').map(label), [
    `ChannelDialplan@${stamp(START)}`,
    `StasisStart@${stamp(START)}`,
    `ChannelHangupRequest@${stamp(START + 100)}`,
    `StasisEnd@${stamp(START + 100)}`,
    `ChannelDestroyed@${stamp(START + 100)}`,
  ]);

  // With the fault gone, events leave at once again.
  assert.is((await ctx.t.http('DELETE', `/sim/faults/${f.body.id}`)).status, 204);
  const again = await ctx.t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'app1', channelId: 'late-2' } });
  assert.is(again.status, 200);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'late-2');
  assert.is((await ctx.t.http('DELETE', '/ari/channels/late-2')).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'late-2');
});

test('media_loss: RTP statistics lose exactly that share of the packets sent since the answer', async () => {
  const f = await ctx.t.http('POST', '/sim/faults', { json: { kind: 'media_loss', endpoint: 'PJSIP/instant', percent: 10 } });
  assert.is(f.status, 201, f.text);
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'app1', channelId: 'lossy' } });
  assert.is(r.status, 200);
  await advance(0);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'lossy');
  const answered = await nowOf();
  await advance(2000);
  assert.is(await nowOf(), answered + 2000);
  const stats = await ctx.t.http('GET', '/ari/channels/lossy/rtp_statistics');
  assert.is(stats.status, 200);
  // 2 s of 20 ms packets is 100; 10 % of them are lost each way.
  assert.is(stats.body.txcount, 100);
  assert.is(stats.body.rxcount, 90);
  assert.is(stats.body.txploss, 10);
  assert.is(stats.body.rxploss, 10);
  assert.is(stats.body.local_maxrxploss, 10);
  // Without the fault the endpoint's own profile (no loss) applies again.
  assert.is((await ctx.t.http('DELETE', '/sim/faults')).status, 204);
  const clean = await ctx.t.http('GET', '/ari/channels/lossy/rtp_statistics');
  assert.is(clean.body.rxcount, 100);
  assert.is(clean.body.rxploss, 0);
  assert.is((await ctx.t.http('DELETE', '/ari/channels/lossy')).status, 204);
});

test('media_loss: the lost packets are silent frames in what external media receives from the endpoint', async () => {
  assert.is((await ctx.t.http('POST', '/sim/faults', { json: { kind: 'media_loss', endpoint: 'PJSIP/instant', percent: 10 } })).status, 201);
  const { peer } = await serverMediaChannel(ctx.t, 'loss-ext');
  await advance(0);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'loss-ext');
  assert.is((await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'app1', channelId: 'loss-far' } })).status, 200);
  await advance(0);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'loss-far');
  await farTone(ctx.t, 'loss-far', 1000);
  assert.is((await ctx.t.http('POST', '/ari/bridges/loss-br', { query: { type: 'mixing' } })).status, 200);
  for (const m of ['loss-ext', 'loss-far']) assert.is((await ctx.t.http('POST', '/ari/bridges/loss-br/addChannel', { query: { channel: m } })).status, 204);
  await advance(100);
  const from = peer.binaries.length;
  await advance(1000);
  await waitUntil(() => peer.binaries.length >= from + 50, '50 frames');
  const frames = peer.binaries.slice(from, from + 50).map((f) => share(pcmOf(f), 1000));
  // Every tenth packet from PJSIP/instant is lost: 45 of 50 frames carry its tone, 5 are silent.
  assert.is(frames.filter((x) => x === 1).length, 45, JSON.stringify(frames));
  assert.is(frames.filter((x) => x === 0).length, 5, JSON.stringify(frames));
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/loss-br')).status, 204);
  for (const id of ['loss-far', 'loss-ext']) assert.is((await ctx.t.http('DELETE', `/ari/channels/${id}`)).status, 204);
});

test('media_loss: the lost packets are silent frames in what the far end hears (heard.wav)', async () => {
  assert.is((await ctx.t.http('POST', '/sim/faults', { json: { kind: 'media_loss', endpoint: 'PJSIP/instant', percent: 10 } })).status, 201);
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'app1', channelId: 'loss-heard' } });
  assert.is(r.status, 200);
  await advance(0);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'loss-heard');
  // Frames count from the clock's start; the WAV starts at the frame the channel was created in.
  const created = Date.parse((r.body.creationtime as string).replace(/\+0000$/, 'Z'));
  const aligned = (20 - ((created - START) % 20)) % 20;
  if (aligned) await advance(aligned);
  assert.is((await ctx.t.http('POST', '/ari/channels/loss-heard/play', { query: { media: 'tone:1000', playbackId: 'loss-tone' } })).status, 201);
  await advance(3000);
  assert.is((await ctx.t.http('DELETE', '/ari/playbacks/loss-tone')).status, 204);
  const wav = await ctx.t.http('GET', '/sim/channels/loss-heard/heard.wav');
  assert.is(wav.status, 200);
  const pcm = parseWav(wav.bytes).samples;
  // 100 whole frames inside the tone: every tenth packet towards the far end never reached it.
  const first = (aligned ? 1 : 0) + 5;
  const silentFrames: number[] = [];
  for (let f = first; f < first + 100; f++) if (pcm.subarray(f * 160, (f + 1) * 160).every((x) => x === 0)) silentFrames.push(f);
  assert.is(silentFrames.length, 10, JSON.stringify(silentFrames));
  assert.ok(silentFrames.every((f, i) => i === 0 || f - silentFrames[i - 1]! === 10), JSON.stringify(silentFrames));
  // Without the fault nothing more is lost.
  assert.is((await ctx.t.http('DELETE', '/sim/faults')).status, 204);
  assert.is((await ctx.t.http('POST', '/ari/channels/loss-heard/play', { query: { media: 'tone:1000', playbackId: 'clean-tone' } })).status, 201);
  await advance(1000);
  const after = parseWav((await ctx.t.http('GET', '/sim/channels/loss-heard/heard.wav')).bytes).samples;
  const from = after.length / 160 - 40;
  for (let f = from; f < from + 30; f++) assert.ok(after.subarray(f * 160, (f + 1) * 160).some((x) => x !== 0), `frame ${f} silent without the fault`);
  assert.is((await ctx.t.http('DELETE', '/ari/channels/loss-heard')).status, 204);
});

test.run();
