import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventSequence } from '../_helpers/ari.js';
import { connectEvents, type AriEvent, type EventLog } from '../_helpers/events.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { advance, alignToFrame, instant, stamp, VIRTUAL_START as START } from '../_helpers/virtual-clock.js';

// SIM_CLOCK=virtual: simulated time stands still until /sim/clock/advance moves it, and an advance
// answers only once every event the advanced time caused has been sent. Timestamps are asserted
// exactly, in virtual time, from the fixed default start (2025-01-01T00:00:00Z).
const test = suite('virtual clock');
const VIRTUAL = { SIM_CLOCK: 'virtual' };
const ctx = useServer(test, { env: VIRTUAL });

const clockOf = async (t: TestServer) => (await t.http('GET', '/sim/clock')).body as { mode: string; now: string; pending: number };
const label = (e: AriEvent) => `${e.type}@${e.timestamp}`;

test('GET /sim/clock: virtual mode starts at the fixed default instant with nothing pending', async () => {
  assert.equal(await clockOf(ctx.t), { mode: 'virtual', now: stamp(START), pending: 0 });
});

test('a 30 s originate timeout finishes by advancing the clock, with exact events and virtual timestamps', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/noanswer', app: 'app1', timeout: '30' } });
  assert.is(r.status, 200);
  // Fresh server, virtual start: the first unique id and name are fixed.
  assert.is(r.body.id, `${START / 1000}.1`);
  assert.is(r.body.name, 'PJSIP/noanswer-00000001');
  assert.is(r.body.creationtime, stamp(START));
  const id = r.body.id as string;
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.channel === undefined && e.dialstatus === '');
  // Ringing (after 100 ms) and the 30 s dial timeout wait ahead; nothing moves on its own.
  assert.equal(await clockOf(ctx.t), { mode: 'virtual', now: stamp(START), pending: 2 });
  assert.equal(eventSequence(ctx.ev, id), ['Dial:']);

  assert.is(await advance(ctx.t, { ms: '29999' }), START + 29_999);
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.dialstatus === 'RINGING');
  assert.equal(eventSequence(ctx.ev, id), ['Dial:', 'State:Ringing', 'Dial:RINGING']);
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).status, 200);

  assert.is(await advance(ctx.t, { ms: '1' }), START + 30_000);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  assert.equal(ctx.ev.of(id).map(label), [
    `Dial@${stamp(START)}`,
    `ChannelStateChange@${stamp(START + 100)}`,
    `Dial@${stamp(START + 100)}`,
    `Dial@${stamp(START + 30_000)}`,
    `ChannelDestroyed@${stamp(START + 30_000)}`,
  ]);
  const [dialEnd, destroyed] = ctx.ev.of(id).slice(-2);
  assert.is(dialEnd!.dialstatus, 'NOANSWER');
  assert.is(destroyed!.cause, 19);
  assert.is(destroyed!.cause_txt, 'User alerting, no answer');
  assert.equal(await clockOf(ctx.t), { mode: 'virtual', now: stamp(START + 30_000), pending: 0 });
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).status, 404);
});

/** Originates to PJSIP/instant into app1 and waits for StasisStart (it needs no time to pass). */
async function answeredInApp(t: TestServer, ev: EventLog): Promise<string> {
  const r = await t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'app1' } });
  assert.is(r.status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === r.body.id);
  return r.body.id as string;
}

test('a playback of hello-world (797 ms) finishes exactly 797 virtual ms after it starts', async () => {
  const id = await answeredInApp(ctx.t, ctx.ev);
  const t0 = instant((await clockOf(ctx.t)).now);
  const p = await ctx.t.http('POST', `/ari/channels/${id}/play`, { query: { media: 'sound:hello-world', playbackId: 'vc-pb' } });
  assert.is(p.status, 201);
  const started = await ctx.ev.waitFor((e) => e.type === 'PlaybackStarted' && e.playback.id === 'vc-pb');
  assert.is(started.timestamp, stamp(t0));
  assert.is(await advance(ctx.t, { ms: '796' }), t0 + 796);
  assert.is((await ctx.t.http('GET', '/ari/playbacks/vc-pb')).body.state, 'playing');
  assert.is(await advance(ctx.t, { ms: '1' }), t0 + 797);
  const finished = await ctx.ev.waitFor((e) => e.type === 'PlaybackFinished' && e.playback.id === 'vc-pb');
  assert.is(finished.timestamp, stamp(t0 + 797));
  assert.is(finished.playback.state, 'done');
  assert.is((await ctx.t.http('GET', '/ari/playbacks/vc-pb')).status, 404);
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${id}`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
});

test('a recording of 10 virtual seconds lasts exactly 10 s and holds exactly 80,000 samples', async () => {
  const id = await answeredInApp(ctx.t, ctx.ev);
  const t0 = await alignToFrame(ctx.t);
  const r = await ctx.t.http('POST', `/ari/channels/${id}/record`, { query: { name: 'vc-rec', format: 'wav', maxDurationSeconds: '10' } });
  assert.is(r.status, 201);
  const started = await ctx.ev.waitFor((e) => e.type === 'RecordingStarted' && e.recording.name === 'vc-rec');
  assert.is(started.timestamp, stamp(t0));
  // Every 20 ms frame runs on its instant; the end comes with the last one, not a frame early.
  assert.is(await advance(ctx.t, { ms: '9980' }), t0 + 9980);
  assert.ok(!ctx.ev.events.some((e) => e.type === 'RecordingFinished'));
  assert.is(await advance(ctx.t, { ms: '20' }), t0 + 10_000);
  const finished = await ctx.ev.waitFor((e) => e.type === 'RecordingFinished' && e.recording.name === 'vc-rec');
  assert.is(finished.timestamp, stamp(t0 + 10_000));
  assert.is(finished.recording.state, 'done');
  assert.is(finished.recording.duration, 10);
  const file = await ctx.t.http('GET', '/ari/recordings/stored/vc-rec/file');
  assert.is(file.status, 200);
  assert.is(file.bytes.length, 44 + 80_000 * 2);
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${id}`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
});

test('a recording of 10 virtual minutes lasts exactly 600 s and holds exactly 4,800,000 samples of what the far end said', async () => {
  const id = await answeredInApp(ctx.t, ctx.ev);
  assert.is((await ctx.t.http('POST', `/sim/channels/${id}/audio`, { query: { source: 'tone', tone: '440' } })).status, 204);
  const t0 = await alignToFrame(ctx.t);
  const r = await ctx.t.http('POST', `/ari/channels/${id}/record`, { query: { name: 'vc-rec-10m', format: 'wav', maxDurationSeconds: '600' } });
  assert.is(r.status, 201);
  await ctx.ev.waitFor((e) => e.type === 'RecordingStarted' && e.recording.name === 'vc-rec-10m');
  // Ten minutes in one request: every 20 ms frame of them runs, in order, before it answers.
  assert.is(await advance(ctx.t, { ms: '600000' }), t0 + 600_000);
  const finished = await ctx.ev.waitFor((e) => e.type === 'RecordingFinished' && e.recording.name === 'vc-rec-10m');
  assert.is(finished.timestamp, stamp(t0 + 600_000));
  assert.is(finished.recording.duration, 600);
  const file = await ctx.t.http('GET', '/ari/recordings/stored/vc-rec-10m/file');
  assert.is(file.status, 200);
  assert.is(file.bytes.length, 44 + 4_800_000 * 2);
  // The tone is there from the first frame to the last: no frame was skipped or left silent.
  const pcm = new Int16Array(file.bytes.buffer, file.bytes.byteOffset + 44, 4_800_000);
  for (let f = 0; f < 30_000; f++) {
    let loud = false;
    for (let i = f * 160; i < (f + 1) * 160 && !loud; i++) loud = Math.abs(pcm[i]!) > 1000;
    if (!loud) assert.unreachable(`frame ${f} of the recording is silent`);
  }
  assert.is((await ctx.t.http('DELETE', '/ari/recordings/stored/vc-rec-10m')).status, 204);
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${id}`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
});

test('far-end DTMF is timed in virtual time: each digit ends its duration after it starts, the next a gap later', async () => {
  const id = await answeredInApp(ctx.t, ctx.ev);
  const t0 = instant((await clockOf(ctx.t)).now);
  assert.is((await ctx.t.http('POST', `/sim/channels/${id}/dtmf`, { query: { dtmf: '12#', duration: '80', between: '40' } })).status, 204);
  assert.is(await advance(ctx.t, { until: 'idle' }), t0 + 3 * 80 + 2 * 40);
  const digits = (await ctx.ev.waitForCount((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === id, 3)).map((e) => [e.digit, e.duration_ms, e.timestamp]);
  assert.equal(digits, [['1', 80, stamp(t0 + 80)], ['2', 80, stamp(t0 + 200)], ['#', 80, stamp(t0 + 320)]]);
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${id}`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
});

test('a dialplan call (Answer, Playback of 797 ms, Wait(1), Hangup) ends exactly 1797 virtual ms after it starts', async () => {
  const all = await connectEvents(ctx.t.url, 'vc-watch', { subscribeAll: true });
  try {
    const t0 = instant((await clockOf(ctx.t)).now);
    const r = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '2000' } });
    assert.is(r.status, 200);
    assert.is(await advance(ctx.t, { until: 'idle' }), t0 + 1797);
    const destroyed = await all.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === r.body.id);
    assert.is(destroyed.timestamp, stamp(t0 + 1797));
    const states = all.of(r.body.id).filter((e) => e.type === 'ChannelStateChange').map((e) => `${e.channel!.state}@${e.timestamp}`);
    assert.equal(states, [`Up@${stamp(t0)}`]);
  } finally {
    await all.close();
  }
});

test('concurrent advances run one after the other: each moves the clock by its own amount', async () => {
  const t0 = instant((await clockOf(ctx.t)).now);
  const [a, b] = await Promise.all([advance(ctx.t, { ms: '1000' }), advance(ctx.t, { ms: '1000' })]);
  assert.equal([a, b].sort((x, y) => x - y), [t0 + 1000, t0 + 2000]);
  assert.is(instant((await clockOf(ctx.t)).now), t0 + 2000);
});

test('until=idle moves to each due moment and stops at the last; max_ms stops short of it', async () => {
  const t0 = instant((await clockOf(ctx.t)).now);
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/noanswer', app: 'app1', timeout: '45' } });
  assert.is(r.status, 200);
  assert.is(await advance(ctx.t, { until: 'idle', max_ms: '10000' }), t0 + 10_000);
  assert.is((await clockOf(ctx.t)).pending, 1);
  assert.is(await advance(ctx.t, { until: 'idle' }), t0 + 45_000);
  const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === r.body.id);
  assert.is(destroyed.timestamp, stamp(t0 + 45_000));
  assert.equal(await clockOf(ctx.t), { mode: 'virtual', now: stamp(t0 + 45_000), pending: 0 });
  // Nothing pending: until=idle stays where it is.
  assert.is(await advance(ctx.t, { until: 'idle' }), t0 + 45_000);
});

test('bad advance requests are 400 with a message, and move nothing', async () => {
  const before = await clockOf(ctx.t);
  const cases: Array<[Record<string, string>, string]> = [
    [{}, 'Give ms (milliseconds to advance by) or until=idle'],
    [{ ms: '5', until: 'idle' }, 'Give either ms or until, not both'],
    [{ ms: '5', max_ms: '5' }, 'max_ms applies only with until=idle'],
  ];
  for (const [query, message] of cases) {
    const r = await ctx.t.http('POST', '/sim/clock/advance', { query });
    assert.is(r.status, 400, JSON.stringify(query));
    assert.equal(r.body, { message }, JSON.stringify(query));
  }
  for (const query of [{ ms: '-1' }, { ms: '86400001' }, { ms: 'soon' }, { ms: '1.5' }, { ms: '1e9' }, { until: 'later' }, { until: 'idle', max_ms: '-5' }, { until: 'idle', max_ms: '99999999999' }]) {
    const r = await ctx.t.http('POST', '/sim/clock/advance', { query });
    assert.is(r.status, 400, JSON.stringify(query));
    assert.type(r.body.message, 'string');
    assert.equal(Object.keys(r.body), ['message']);
  }
  assert.equal(await clockOf(ctx.t), before);
});

test('on the real clock, GET /sim/clock shows it and advancing is 400', async () => {
  const t = await startTestServer();
  try {
    const c = await clockOf(t);
    assert.is(c.mode, 'real');
    assert.is(c.pending, 0);
    for (const query of [{ ms: '1000' }, { until: 'idle' }]) {
      const r = await t.http('POST', '/sim/clock/advance', { query });
      assert.is(r.status, 400);
      assert.equal(r.body, { message: 'The clock is real (SIM_CLOCK=real): only a virtual clock can be advanced' });
    }
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test('a restart goes on from the last advanced instant: restored timers keep their virtual due time, new ids do not repeat', async () => {
  const dir = tempDir('virtual-restart');
  let s = await startTestServer(VIRTUAL, dir);
  try {
    let ev = await connectEvents(s.url, 'app1');
    const first = await s.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/noanswer', app: 'app1', timeout: '30' } });
    assert.is(first.status, 200);
    assert.is(await advance(s, { ms: '10000' }), START + 10_000);
    const bridge = await s.http('POST', '/ari/bridges');
    await ev.close();
    s.assertNoViolations();
    await s.close({ keepData: true });

    s = await startTestServer(VIRTUAL, dir);
    ev = await connectEvents(s.url, 'app1');
    assert.equal(await clockOf(s), { mode: 'virtual', now: stamp(START + 10_000), pending: 1 });
    assert.is(await advance(s, { ms: '20000' }), START + 30_000);
    const destroyed = await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === first.body.id);
    assert.is(destroyed.timestamp, stamp(START + 30_000));
    assert.is(destroyed.cause, 19);
    const second = await s.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/noanswer', app: 'app1' } });
    assert.is(second.body.id, `${(START + 30_000) / 1000}.2`);
    assert.is(second.body.name, 'PJSIP/noanswer-00000002');
    const other = await s.http('POST', '/ari/bridges');
    assert.is.not(other.body.id, bridge.body.id);
    assert.is((await s.http('DELETE', `/ari/channels/${second.body.id}`)).status, 204);
    await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === second.body.id);
    await ev.close();
    s.assertNoViolations();
  } finally {
    await s.close();
  }
});

/** A scenario touching ringing, answer, playback, recording, DTMF from the far end and hangup; returns the raw frames app1 got. */
async function scenario(): Promise<string[]> {
  const t = await startTestServer(VIRTUAL);
  const ev = await connectEvents(t.url, 'app1', { subscribeAll: true });
  const frames: string[] = [];
  ev.ws.on('message', (d) => frames.push(d.toString()));
  try {
    const r = await t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/alice', app: 'app1' } });
    assert.is(r.status, 200);
    const id = r.body.id as string;
    await advance(t, { ms: '1000' });
    await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
    assert.is((await t.http('POST', `/ari/channels/${id}/play`, { query: { media: 'sound:hello-world,sound:goodbye' } })).status, 201);
    assert.is((await t.http('POST', `/ari/bridges`, { query: { type: 'mixing' } })).status, 200);
    assert.is((await t.http('POST', `/ari/channels/${id}/record`, { query: { name: 'same', format: 'wav', maxDurationSeconds: '3' } })).status, 201);
    await advance(t, { ms: '500' });
    assert.is((await t.http('POST', `/sim/channels/${id}/dtmf`, { query: { dtmf: '12#' } })).status, 204);
    await advance(t, { until: 'idle', max_ms: '5000' });
    assert.is((await t.http('POST', `/sim/channels/${id}/hangup`)).status, 204);
    await advance(t, { until: 'idle' });
    await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
    t.assertNoViolations();
    return frames;
  } finally {
    await ev.close();
    await t.close();
  }
}

test('the same scenario on two fresh servers gives byte-identical event streams', async () => {
  const one = await scenario();
  const two = await scenario();
  const types = one.map((f) => (JSON.parse(f) as AriEvent).type);
  for (const t of ['StasisStart', 'PlaybackFinished', 'RecordingFinished', 'ChannelDtmfReceived', 'BridgeCreated', 'ChannelDestroyed']) assert.ok(types.includes(t), `${t} in ${types.join(',')}`);
  // The recording queued behind the playlist starts the moment it ends (two turns later), not at the next advance.
  const events = one.map((f) => JSON.parse(f) as AriEvent);
  const at = (type: string) => events.find((e) => e.type === type)!;
  assert.is(at('RecordingStarted').timestamp, at('PlaybackFinished').timestamp);
  assert.is(at('RecordingFinished').recording.duration, 3);
  assert.ok(types.indexOf('RecordingFinished') < types.indexOf('ChannelHangupRequest'));
  assert.is(two.length, one.length);
  for (let i = 0; i < one.length; i++) assert.is(two[i], one[i], `frame ${i}`);
});

test.run();
