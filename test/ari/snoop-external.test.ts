import { downloadWav, farTone, localPair } from '../_helpers/audio.js';
import { randomUUID } from 'node:crypto';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FRAME_SAMPLES, tonePower } from '../../server/ari/media/pcm.js';
import { eventSequence, hangupAndWait, originateInApp } from '../_helpers/ari.js';
import { connectEvents, sleep, WAIT_MS, type EventLog } from '../_helpers/events.js';
import { startTestServer, TEST_SCALE, type TestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('snoop-external');
// app1/app2 are ours; Local ;2 halves run default,1000 into 'trunkline'; 'watcher' sees every channel.
const ctx = useServer(test, { events: { ev: 'app1', ev2: 'app2', tl: 'trunkline', all: { apps: 'watcher', subscribeAll: true } } });

const enc = encodeURIComponent;

// ---- audio helpers ---------------------------------------------------------------------------

/** Fraction of `frame`-sample blocks in which `freq` is clearly present (power above 0.01 of full scale; our tones are about 0.06). */
function presence(samples: Int16Array, freq: number, rate = 8000, frame = FRAME_SAMPLES): number {
  let hits = 0;
  let frames = 0;
  for (let i = 0; i + frame <= samples.length; i += frame) {
    frames++;
    if (tonePower(samples.subarray(i, i + frame), freq, rate) > 0.01) hits++;
  }
  return frames ? hits / frames : 0;
}
const present = (samples: Int16Array, freq: number, atLeast = 0.8, rate = 8000) => {
  const p = presence(samples, freq, rate, (rate * 20) / 1000);
  assert.ok(p >= atLeast, `${freq} Hz in ${(p * 100).toFixed(0)}% of frames, expected at least ${atLeast * 100}%`);
};
const absent = (samples: Int16Array, freq: number, rate = 8000) => {
  const p = presence(samples, freq, rate, (rate * 20) / 1000);
  assert.is(p, 0, `${freq} Hz should be absent, found in ${(p * 100).toFixed(0)}% of frames`);
};

/** G.711 µ-law, written out here so the test does not decode with the server's own tables. */
function ulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const mag = (((u & 0x0f) << 3) + 0x84) << ((u >> 4) & 7);
  return u & 0x80 ? 0x84 - mag : mag - 0x84;
}
function linearToUlaw(sample: number): number {
  let s = Math.max(-32635, Math.min(32635, sample));
  const sign = s < 0 ? 0x80 : 0;
  if (sign) s = -s;
  s += 0x84;
  let exp = 7;
  while (exp > 0 && (s & (0x4000 >> (7 - exp))) === 0) exp--;
  return ~(sign | (exp << 4) | ((s >> (exp + 3)) & 0x0f)) & 0xff;
}
const decodeUlaw = (b: Buffer) => Int16Array.from(b, ulawToLinear);

/** `n` samples of a sine at a quarter of full scale, continuing from sample `from`. */
function sine(freq: number, from: number, n: number, rate = 8000): Int16Array {
  return Int16Array.from({ length: n }, (_, i) => Math.round(Math.sin((2 * Math.PI * freq * (from + i)) / rate) * 0.25 * 32767));
}

let recordings = 0;
/** Starts a wav recording of a channel's inbound audio; `done` resolves with the samples once RecordingFinished reaches `log`. */
async function startRecording(id: string, log: EventLog, seconds = 1, t: TestServer = ctx.t): Promise<{ name: string; done: Promise<Int16Array> }> {
  const name = `se-rec-${++recordings}`;
  const r = await t.http('POST', `/ari/channels/${enc(id)}/record`, { query: { name, format: 'wav', maxDurationSeconds: seconds } });
  assert.is(r.status, 201, r.text);
  const done = log.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === name, WAIT_MS).then(async (e) => {
    assert.is(e.recording.state, 'done');
    const samples = await downloadWav(t, name);
    assert.ok(samples.length >= seconds * 8000 - FRAME_SAMPLES, `recorded ${samples.length} samples`);
    return samples;
  });
  return { name, done };
}
const recordChannel = async (id: string, log: EventLog, seconds = 1, t: TestServer = ctx.t) => (await startRecording(id, log, seconds, t)).done;

/** Plays a tone on a channel and waits for PlaybackStarted on `log`; returns the playback id. */
let playbacks = 0;
async function playTone(id: string, freq: number, log: EventLog, t: TestServer = ctx.t): Promise<string> {
  const pb = `se-pb-${++playbacks}`;
  const r = await t.http('POST', `/ari/channels/${enc(id)}/play`, { query: { media: `tone:${freq}`, playbackId: pb } });
  assert.is(r.status, 201, r.text);
  await log.waitFor((e) => e.type === 'PlaybackStarted' && e.playback?.id === pb);
  return pb;
}

// ---- RTP and AudioSocket peers ----------------------------------------------------------------

interface Rtp {
  version: number;
  marker: boolean;
  pt: number;
  seq: number;
  ts: number;
  ssrc: number;
  payload: Buffer;
}

function parseRtp(b: Buffer): Rtp {
  return {
    version: b[0]! >> 6,
    marker: (b[1]! & 0x80) !== 0,
    pt: b[1]! & 0x7f,
    seq: b.readUInt16BE(2),
    ts: b.readUInt32BE(4),
    ssrc: b.readUInt32BE(8),
    payload: b.subarray(12 + (b[0]! & 0x0f) * 4),
  };
}

function rtpPacket(pt: number, seq: number, ts: number, ssrc: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(12);
  h[0] = 0x80;
  h[1] = pt;
  h.writeUInt16BE(seq & 0xffff, 2);
  h.writeUInt32BE(ts >>> 0, 4);
  h.writeUInt32BE(ssrc >>> 0, 8);
  return Buffer.concat([h, payload]);
}

/** A UDP peer on 127.0.0.1 that keeps every RTP packet it receives. */
class RtpPeer {
  readonly packets: Rtp[] = [];
  private waiters: Array<{ n: number; resolve: () => void }> = [];
  private constructor(readonly sock: UdpSocket) {
    sock.on('message', (msg) => {
      this.packets.push(parseRtp(msg));
      this.waiters = this.waiters.filter((w) => {
        if (this.packets.length < w.n) return true;
        w.resolve();
        return false;
      });
    });
  }

  static async open(): Promise<RtpPeer> {
    const sock = createSocket('udp4');
    await new Promise<void>((resolve) => sock.bind(0, '127.0.0.1', () => resolve()));
    return new RtpPeer(sock);
  }

  get port(): number {
    return this.sock.address().port;
  }

  /** Resolves once `n` packets in all have arrived. */
  waitCount(n: number, timeoutMs = 5000): Promise<void> {
    if (this.packets.length >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${n} RTP packets; got ${this.packets.length}`)), timeoutMs);
      this.waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** The next `n` packets after those received so far. */
  async next(n: number): Promise<Rtp[]> {
    const from = this.packets.length;
    await this.waitCount(from + n);
    return this.packets.slice(from, from + n);
  }

  send(buf: Buffer, port: number): Promise<void> {
    return new Promise((resolve, reject) => this.sock.send(buf, port, '127.0.0.1', (err) => (err ? reject(err) : resolve())));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.sock.close(() => resolve()));
  }
}

/** An AudioSocket server on 127.0.0.1: records each connection's frames. */
interface AsConn {
  sock: Socket;
  frames: Array<{ kind: number; payload: Buffer }>;
  ended: Promise<void>;
  waitFrames(n: number): Promise<void>;
}
class AudioSocketServer {
  readonly conns: AsConn[] = [];
  private onConn: Array<(c: AsConn) => void> = [];
  private constructor(readonly server: Server) {
    server.on('connection', (sock) => {
      let buf = Buffer.alloc(0);
      const frames: AsConn['frames'] = [];
      let waiters: Array<{ n: number; resolve: () => void }> = [];
      const conn: AsConn = {
        sock,
        frames,
        ended: new Promise((resolve) => sock.on('close', () => resolve())),
        waitFrames: (n) =>
          frames.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
      };
      sock.on('error', () => {});
      sock.on('data', (d) => {
        buf = Buffer.concat([buf, d]);
        while (buf.length >= 3 && buf.length >= 3 + buf.readUInt16BE(1)) {
          const len = buf.readUInt16BE(1);
          frames.push({ kind: buf[0]!, payload: buf.subarray(3, 3 + len) });
          buf = buf.subarray(3 + len);
        }
        waiters = waiters.filter((w) => (frames.length >= w.n ? (w.resolve(), false) : true));
      });
      this.conns.push(conn);
      for (const f of this.onConn.splice(0)) f(conn);
    });
  }

  static async open(): Promise<AudioSocketServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return new AudioSocketServer(server);
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  /** The first connection made to this server. */
  first(): Promise<AsConn> {
    if (this.conns[0]) return Promise.resolve(this.conns[0]);
    return new Promise((resolve) => this.onConn.push(resolve));
  }

  close(): Promise<void> {
    for (const c of this.conns) c.sock.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * How many 20 ms frames ahead of the simulated clock our inbound audio is sent. The server
 * queues up to 25 received frames and reads one per tick; a lead of 20 keeps the queue from
 * running dry when the process stalls (after a stall the media clock catches up on its missed
 * ticks before we get to send again).
 */
const LEAD_FRAMES = 20;

const peers: Array<{ close(): Promise<void> }> = [];
test.after(async () => {
  for (const p of peers.splice(0)) await p.close();
});

async function externalMedia(query: Record<string, string | undefined>, t: TestServer = ctx.t) {
  return t.http('POST', '/ari/channels/externalMedia', { query });
}

/**
 * The inbound-audio tests stream in real time against the simulated clock. At the test scale a
 * 20 ms frame is 1 ms of wall time, and after a stall the media clock renders its missed ticks
 * in a burst that empties the server's inbound queue (25 frames) before we can send again. They
 * run on a server at scale 2 (a frame is 10 ms), where a stall must last 200 ms to do that.
 */
const INBOUND_SCALE = 2;
async function withInboundServer(run: (t: TestServer, ev: EventLog) => Promise<void>): Promise<void> {
  const t = await startTestServer({ SIM_TIME_SCALE: String(INBOUND_SCALE) });
  const ev = await connectEvents(t.url, 'app1');
  try {
    await run(t, ev);
    t.assertNoViolations();
  } finally {
    await ev.close();
    await t.close();
  }
}

// ---- snoop ----------------------------------------------------------------------------------

test('snoop: 200 Channel Snoop/<target>-<8 hex>, Up, StasisStart in the given app with appArgs split; snoopId in the query or the path', async () => {
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'sn-a' });
  const r = await ctx.t.http('POST', `/ari/channels/${a.id}/snoop`, { query: { spy: 'in', app: 'app2', appArgs: 'one,two', snoopId: 'sn-s1' } });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.id, 'sn-s1');
  assert.match(r.body.name, /^Snoop\/sn-a-[0-9a-f]{8}$/);
  assert.is(r.body.state, 'Up');
  const start = await ctx.ev2.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'sn-s1');
  assert.equal(start.args, ['one', 'two']);
  assert.is(start.application, 'app2');
  assert.is(start.channel!.name, r.body.name);
  assert.is(start.channel!.state, 'Up');
  assert.is(start.channel!.dialplan.app_name, 'Stasis');
  assert.is(start.channel!.dialplan.app_data, 'app2,one,two');
  // The app was not app1's: app1 hears nothing of it.
  assert.not.ok(ctx.ev.events.some((e) => e.channel?.id === 'sn-s1'));

  const w = await ctx.t.http('POST', `/ari/channels/${a.id}/snoop/sn-s2`, { query: { whisper: 'both', app: 'app2' } });
  assert.is(w.status, 200, w.text);
  assert.is(w.body.id, 'sn-s2');
  assert.match(w.body.name, /^Snoop\/sn-a-[0-9a-f]{8}$/);
  assert.is.not(w.body.name, r.body.name);
  const start2 = await ctx.ev2.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'sn-s2');
  assert.equal(start2.args, []);

  // The target need not be in an application: an inbound call ringing in the dialplan.
  const call = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: 'ring', channelId: 'sn-dp' } });
  assert.is(call.status, 200, call.text);
  const d = await ctx.t.http('POST', '/ari/channels/sn-dp/snoop', { query: { spy: 'both', app: 'app2', snoopId: 'sn-s3' } });
  assert.is(d.status, 200, d.text);
  assert.match(d.body.name, /^Snoop\/sn-dp-[0-9a-f]{8}$/);
  await ctx.ev2.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'sn-s3');
  // Snoops on a channel are looked up by name too.
  const byName = await ctx.t.http('POST', `/ari/channels/${enc(a.body.name)}/snoop`, { query: { spy: 'out', app: 'app2', snoopId: 'sn-s4' } });
  assert.is(byName.status, 200, byName.text);
  assert.match(byName.body.name, /^Snoop\/sn-a-[0-9a-f]{8}$/);

  await hangupAndWait(ctx.t, ctx.ev2, 'sn-s4');
  await hangupAndWait(ctx.t, ctx.ev, a.id);
  await ctx.ev2.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'sn-s2');
  await hangupAndWait(ctx.t, ctx.all, 'sn-dp');
  await ctx.ev2.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'sn-s3');
});

test('snoop errors in Asterisk\'s order: spy direction, whisper direction, no direction, app, then the target', async () => {
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'sn-err' });
  const cases: Array<[Record<string, string>, string, number, string]> = [
    [{ spy: 'sideways', app: 'app1' }, a.id, 400, 'Invalid direction specified for spy'],
    [{ spy: 'sideways', whisper: 'bad' }, 'sn-nope', 400, 'Invalid direction specified for spy'],
    [{ whisper: 'bad', app: 'app1' }, a.id, 400, 'Invalid direction specified for whisper'],
    [{ spy: 'in', whisper: 'bad' }, 'sn-nope', 400, 'Invalid direction specified for whisper'],
    [{ app: 'app1' }, a.id, 400, 'Direction must be specified for at least spy or whisper'],
    [{ spy: 'none', whisper: 'none', app: 'app1' }, a.id, 400, 'Direction must be specified for at least spy or whisper'],
    [{ spy: 'in' }, a.id, 400, 'Application name is required'],
    [{ spy: 'in' }, 'sn-nope', 400, 'Application name is required'],
    [{ whisper: 'out', app: 'app1' }, 'sn-nope', 404, 'Provided channel was not found'],
  ];
  for (const [query, target, status, message] of cases) {
    const r = await ctx.t.http('POST', `/ari/channels/${target}/snoop`, { query });
    assert.is(r.status, status, `${JSON.stringify(query)} on ${target}: ${r.text}`);
    assert.equal(r.body, { message }, JSON.stringify(query));
  }
  const withId = await ctx.t.http('POST', '/ari/channels/sn-nope/snoop/sn-x', { query: { spy: 'in', app: 'app1' } });
  assert.is(withId.status, 404);
  assert.equal(withId.body, { message: 'Provided channel was not found' });
  // No snoop channel was made by any of them.
  const list = await ctx.t.http('GET', '/ari/channels');
  assert.not.ok(list.body.some((c: { name: string }) => c.name.startsWith('Snoop/')), JSON.stringify(list.body.map((c: { name: string }) => c.name)));
  await hangupAndWait(ctx.t, ctx.ev, a.id);
});

test('snoop audio: spy=in captures the target\'s far end, spy=out what the target is sent, spy=both the two', async () => {
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'sn-aud' });
  await farTone(ctx.t, a.id, 440);
  const pb = await playTone(a.id, 1000, ctx.ev);
  for (const [spy, id] of [['in', 'sn-aud-in'], ['out', 'sn-aud-out'], ['both', 'sn-aud-both']] as const) {
    const r = await ctx.t.http('POST', `/ari/channels/${a.id}/snoop/${id}`, { query: { spy, app: 'app1' } });
    assert.is(r.status, 200, r.text);
    await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
  }
  const [inn, out, both] = await Promise.all(['sn-aud-in', 'sn-aud-out', 'sn-aud-both'].map(async (id) => (await startRecording(id, ctx.ev)).done));
  present(inn!, 440);
  absent(inn!, 1000);
  present(out!, 1000);
  absent(out!, 440);
  present(both!, 440);
  present(both!, 1000);
  assert.is((await ctx.t.http('DELETE', `/ari/playbacks/${pb}`)).status, 204);
  // The snoop channels hang up with their target. The spec subscribes the app named at snoop time to the
  // snoop channel (as at originate), so the app hears ChannelDestroyed after StasisEnd.
  await hangupAndWait(ctx.t, ctx.ev, a.id);
  for (const id of ['sn-aud-in', 'sn-aud-out', 'sn-aud-both']) {
    await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
    assert.equal(eventSequence(ctx.ev, id).slice(-3), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed'], id);
    assert.equal(eventSequence(ctx.all, id).slice(-2), ['ChannelHangupRequest', 'ChannelDestroyed'], id);
    assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).status, 404);
  }
});

test('snoop whisper=out: a playback on the snoop channel is heard by the target\'s far end (Local pair target)', async () => {
  const l = await localPair(ctx.t, ctx.ev, ctx.tl, 'sn-wh');
  const r = await ctx.t.http('POST', `/ari/channels/${l.one}/snoop/sn-wh-s`, { query: { whisper: 'out', app: 'app1' } });
  assert.is(r.status, 200, r.text);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'sn-wh-s');
  absent(await recordChannel(l.two, ctx.tl), 700);
  const pb = await playTone('sn-wh-s', 700, ctx.ev);
  present(await recordChannel(l.two, ctx.tl), 700);
  assert.is((await ctx.t.http('DELETE', `/ari/playbacks/${pb}`)).status, 204);
  // A spy-only snoop does not whisper.
  const spy = await ctx.t.http('POST', `/ari/channels/${l.one}/snoop/sn-wh-spy`, { query: { spy: 'out', app: 'app1' } });
  assert.is(spy.status, 200, spy.text);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'sn-wh-spy');
  const pb2 = await playTone('sn-wh-spy', 900, ctx.ev);
  absent(await recordChannel(l.two, ctx.tl), 900);
  assert.is((await ctx.t.http('DELETE', `/ari/playbacks/${pb2}`)).status, 204);
  await hangupAndWait(ctx.t, ctx.ev, l.one);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'sn-wh-s');
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'sn-wh-spy');
});

// ---- rtp_statistics -------------------------------------------------------------------------

const RTP_INTS = ['txcount', 'rxcount', 'txploss', 'rxploss', 'local_ssrc', 'remote_ssrc', 'txoctetcount', 'rxoctetcount'];

test('rtp_statistics of an answered PJSIP channel: every required field; txcount grows with simulated time, 160 octets a packet; stable local_ssrc', async () => {
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'rs-a' });
  const t0 = Date.now();
  const r1 = await ctx.t.http('GET', `/ari/channels/${a.id}/rtp_statistics`);
  const t1 = Date.now();
  assert.is(r1.status, 200, r1.text);
  for (const k of RTP_INTS) assert.ok(Number.isInteger(r1.body[k]), `${k}: ${r1.body[k]}`);
  assert.is(r1.body.channel_uniqueid, a.id);
  for (const [k, val] of Object.entries(r1.body)) if (k !== 'channel_uniqueid') assert.type(val, 'number', k);
  assert.is(r1.body.txoctetcount, r1.body.txcount * 160);
  assert.is(r1.body.rxoctetcount, r1.body.rxcount * 160);
  await sleep(100);
  const t2 = Date.now();
  const r2 = await ctx.t.http('GET', `/ari/channels/${a.id}/rtp_statistics`);
  const t3 = Date.now();
  assert.is(r2.status, 200);
  // One 20 ms packet per 20 simulated ms: the growth matches the simulated time between the two reads.
  const perWallMs = TEST_SCALE / 20;
  const grew = r2.body.txcount - r1.body.txcount;
  assert.ok(grew >= Math.floor((t2 - t1) * perWallMs) - 1, `txcount grew ${grew} in at least ${t2 - t1} ms`);
  assert.ok(grew <= Math.ceil((t3 - t0) * perWallMs) + 1, `txcount grew ${grew} in at most ${t3 - t0} ms`);
  assert.is(r2.body.txoctetcount, r2.body.txcount * 160);
  assert.ok(r2.body.rxcount >= r1.body.rxcount);
  assert.is(r2.body.local_ssrc, r1.body.local_ssrc);
  assert.is(r2.body.remote_ssrc, r1.body.remote_ssrc);
  assert.is(r2.body.channel_uniqueid, a.id);
  // Another channel has another SSRC.
  const b = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'rs-b' });
  const rb = await ctx.t.http('GET', `/ari/channels/${b.id}/rtp_statistics`);
  assert.is.not(rb.body.local_ssrc, r1.body.local_ssrc);
  await hangupAndWait(ctx.t, ctx.ev, a.id);
  await hangupAndWait(ctx.t, ctx.ev, b.id);
});

test('rtp_statistics: unknown channel 404 "Channel not found"; channels without RTP (Local, Snoop) 404', async () => {
  const missing = await ctx.t.http('GET', '/ari/channels/rs-nope/rtp_statistics');
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Channel not found' });
  const l = await localPair(ctx.t, ctx.ev, ctx.tl, 'rs-local');
  for (const id of [l.one, l.two]) {
    const r = await ctx.t.http('GET', `/ari/channels/${enc(id)}/rtp_statistics`);
    assert.is(r.status, 404, id);
    assert.equal(r.body, { message: 'RTP info not found' });
  }
  const s = await ctx.t.http('POST', `/ari/channels/${l.one}/snoop/rs-snoop`, { query: { spy: 'in', app: 'app1' } });
  assert.is(s.status, 200);
  const rs = await ctx.t.http('GET', '/ari/channels/rs-snoop/rtp_statistics');
  assert.is(rs.status, 404);
  assert.equal(rs.body, { message: 'RTP info not found' });
  await hangupAndWait(ctx.t, ctx.ev, l.one);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'rs-snoop');
});

// ---- external media: RTP --------------------------------------------------------------------

test('externalMedia rtp/ulaw: 200 UnicastRTP channel, Up, channelvars with our address and port, StasisStart with data as args', async () => {
  const peer = await RtpPeer.open();
  peers.push(peer);
  const r = await externalMedia({ app: 'app1', external_host: `127.0.0.1:${peer.port}`, format: 'ulaw', channelId: 'em-basic', data: 'stream-1' });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.id, 'em-basic');
  assert.match(r.body.name, new RegExp(`^UnicastRTP/127\\.0\\.0\\.1:${peer.port}-[0-9a-f]{8}$`));
  assert.is(r.body.state, 'Up');
  const vars = r.body.channelvars;
  assert.is(vars.UNICASTRTP_LOCAL_ADDRESS, '127.0.0.1');
  assert.match(vars.UNICASTRTP_LOCAL_PORT, /^\d+$/);
  const localPort = Number(vars.UNICASTRTP_LOCAL_PORT);
  assert.ok(localPort > 0 && localPort !== peer.port);
  const start = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'em-basic');
  assert.equal(start.args, ['stream-1']);
  assert.is(start.channel!.state, 'Up');
  assert.is(start.channel!.channelvars.UNICASTRTP_LOCAL_PORT, vars.UNICASTRTP_LOCAL_PORT);
  // The variables are real channel variables.
  const v = await ctx.t.http('GET', '/ari/channels/em-basic/variable', { query: { variable: 'UNICASTRTP_LOCAL_PORT' } });
  assert.equal(v.body, { value: vars.UNICASTRTP_LOCAL_PORT });
  const got = await ctx.t.http('GET', '/ari/channels/em-basic');
  assert.is(got.body.name, r.body.name);
  await hangupAndWait(ctx.t, ctx.ev, 'em-basic');
});

test('externalMedia rtp/ulaw: we stream RTP v2, PT 0, 160-byte payloads, seq +1, timestamp +160, one SSRC; a tone:1000 playback arrives as 1000 Hz', async () => {
  const peer = await RtpPeer.open();
  peers.push(peer);
  const r = await externalMedia({ app: 'app1', external_host: `127.0.0.1:${peer.port}`, format: 'ulaw', channelId: 'em-tx' });
  assert.is(r.status, 200, r.text);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'em-tx');
  const run = await peer.next(40);
  const ssrc = run[0]!.ssrc;
  for (let i = 0; i < run.length; i++) {
    const p = run[i]!;
    assert.is(p.version, 2);
    assert.is(p.pt, 0);
    assert.is(p.payload.length, 160);
    assert.is(p.ssrc, ssrc);
    if (i > 0) {
      assert.is(p.seq, (run[i - 1]!.seq + 1) & 0xffff, `sequence at ${i}`);
      assert.is(p.ts, (run[i - 1]!.ts + 160) >>> 0, `timestamp at ${i}`);
    }
  }
  // Nothing plays yet: silence.
  absent(decodeUlaw(Buffer.concat(run.map((p) => p.payload))), 1000);
  const pb = await playTone('em-tx', 1000, ctx.ev);
  await peer.next(5); // packets already on their way when the playback started
  const tone = await peer.next(50);
  assert.ok(tone.every((p) => p.ssrc === ssrc && p.pt === 0 && p.payload.length === 160));
  const pcm = decodeUlaw(Buffer.concat(tone.map((p) => p.payload)));
  present(pcm, 1000, 0.95);
  absent(pcm, 600);
  // Our SSRC is the one rtp_statistics reports as local.
  const stats = await ctx.t.http('GET', '/ari/channels/em-tx/rtp_statistics');
  assert.is(stats.status, 200);
  assert.is(stats.body.local_ssrc, ssrc);
  assert.ok(stats.body.txcount >= 95, `txcount ${stats.body.txcount}`);
  assert.is(stats.body.txoctetcount, stats.body.txcount * 160);
  assert.is((await ctx.t.http('DELETE', `/ari/playbacks/${pb}`)).status, 204);
  await hangupAndWait(ctx.t, ctx.ev, 'em-tx');
});

test('externalMedia rtp/ulaw: RTP sent to UNICASTRTP_LOCAL_PORT is the channel\'s inbound audio: a 600 Hz tone is in its recording; rtp_statistics counts both ways', async () => {
  await withInboundServer(async (t, ev) => {
    const peer = await RtpPeer.open();
    peers.push(peer);
    const r = await externalMedia({ app: 'app1', external_host: `127.0.0.1:${peer.port}`, format: 'ulaw', channelId: 'em-rx' }, t);
    assert.is(r.status, 200, r.text);
    const localPort = Number(r.body.channelvars.UNICASTRTP_LOCAL_PORT);
    await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'em-rx');
    const before = await recordChannel('em-rx', ev, 1, t);
    absent(before, 600);

    // 20 ms ulaw packets of a 600 Hz tone, paced at the simulated clock (one packet per 20 simulated ms, LEAD_FRAMES ahead), until the recording ends.
    const mySsrc = 0x1234abcd;
    let seq = 1000;
    let sent = 0;
    const rec = await startRecording('em-rx', ev, 1, t);
    let finished = false;
    const samples = rec.done.finally(() => (finished = true));
    const wallPerPacket = 20 / INBOUND_SCALE;
    const t0 = Date.now();
    while (!finished && sent < 2000) {
      const due = Math.floor((Date.now() - t0) / wallPerPacket) + LEAD_FRAMES;
      for (; sent < due; sent++) {
        const payload = Buffer.from(Array.from(sine(600, sent * 160, 160), linearToUlaw));
        await peer.send(rtpPacket(0, seq++, sent * 160, mySsrc, payload), localPort);
      }
      await sleep(1);
    }
    const heard = await samples;
    present(heard, 600, 0.5);
    await sleep(20); // the last datagrams reach the server's socket
    absent(heard, 1000);

    const stats = await t.http('GET', '/ari/channels/em-rx/rtp_statistics');
    assert.is(stats.status, 200);
    assert.is(stats.body.rxcount, sent);
    assert.is(stats.body.rxoctetcount, sent * 160);
    assert.is(stats.body.rxploss, 0);
    assert.ok(stats.body.txcount > 0);
    assert.is(stats.body.txoctetcount, stats.body.txcount * 160);
    assert.is(stats.body.remote_ssrc, mySsrc);
    assert.is(stats.body.channel_uniqueid, 'em-rx');
    await hangupAndWait(t, ev, 'em-rx');
  });
});

test('externalMedia rtp payload types: alaw PT 8 / 160 bytes, slin PT 117 / 320 bytes, slin16 PT 118 / 640 bytes big-endian at 16 kHz', async () => {
  for (const [format, pt, size, step] of [['alaw', 8, 160, 160], ['slin', 117, 320, 160], ['slin16', 118, 640, 320]] as const) {
    const peer = await RtpPeer.open();
    peers.push(peer);
    const id = `em-pt-${format}`;
    const r = await externalMedia({ app: 'app1', external_host: `127.0.0.1:${peer.port}`, format, channelId: id });
    assert.is(r.status, 200, r.text);
    await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
    const run = await peer.next(10);
    for (let i = 0; i < run.length; i++) {
      assert.is(run[i]!.pt, pt, format);
      assert.is(run[i]!.payload.length, size, format);
      if (i > 0) assert.is(run[i]!.ts, (run[i - 1]!.ts + step) >>> 0, `${format} timestamp step`);
    }
    if (format === 'slin16') {
      const pb = await playTone(id, 1000, ctx.ev);
      await peer.next(5);
      const payload = Buffer.concat((await peer.next(50)).map((p) => p.payload));
      const be = Int16Array.from({ length: payload.length / 2 }, (_, i) => payload.readInt16BE(i * 2));
      const le = Int16Array.from({ length: payload.length / 2 }, (_, i) => payload.readInt16LE(i * 2));
      present(be, 1000, 0.95, 16000);
      // Big-endian, the samples are a clean quarter-scale sine; read the wrong way round, the low bytes turn into full-scale noise.
      const peak = (x: Int16Array) => x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
      assert.ok(peak(be) >= 7500 && peak(be) <= 9000, `big-endian peak ${peak(be)}`);
      assert.ok(peak(le) > 20000, `little-endian peak ${peak(le)}`);
      assert.is((await ctx.t.http('DELETE', `/ari/playbacks/${pb}`)).status, 204);
    }
    await hangupAndWait(ctx.t, ctx.ev, id);
  }
});

test('externalMedia errors: 400 with the handler\'s texts', async () => {
  const names = async () => (await ctx.t.http('GET', '/ari/channels')).body.map((c: { name: string }) => c.name).sort();
  const before = await names();
  const host = '127.0.0.1:40000';
  const cases: Array<[Record<string, string>, string]> = [
    [{ external_host: host, format: 'ulaw' }, 'app cannot be empty'],
    [{ app: 'app1', format: 'ulaw' }, 'external_host is required for all but websocket server connections'],
    [{ app: 'app1', external_host: '127.0.0.1', format: 'ulaw' }, 'external_host must be <host>:<port> for all transports other than websocket'],
    [{ app: 'app1', external_host: '127.0.0.1:', format: 'ulaw' }, 'external_host must be <host>:<port> for all transports other than websocket'],
    [{ app: 'app1', external_host: host }, 'format cannot be empty'],
    [{ app: 'app1', external_host: host, format: 'mp3' }, 'Provided format (mp3) was not found'],
    [{ app: 'app1', external_host: host, format: 'ulaw', encapsulation: 'rtp', transport: 'tcp' }, "transport must be 'udp' for rtp encapsulation"],
    [{ app: 'app1', external_host: host, format: 'slin', encapsulation: 'audiosocket', transport: 'udp', data: randomUUID() }, "transport must be 'tcp' for audiosocket encapsulation"],
    [{ app: 'app1', external_host: host, format: 'ulaw', connection_type: 'server' }, "'server' connection_type can only be used with the websocket transport"],
    [{ app: 'app1', external_host: host, format: 'ulaw', direction: 'in' }, 'Invalid direction specified'],
    // Asterisk's order: the parameters first, the format only when the channel is dialled.
    [{ app: 'app1', external_host: host, format: 'mp3', direction: 'in' }, 'Invalid direction specified'],
    [{ external_host: '127.0.0.1', format: 'mp3' }, 'app cannot be empty'],
    [{ app: 'app1', format: 'ulaw', encapsulation: 'rtp', transport: 'tcp' }, "transport must be 'udp' for rtp encapsulation"],
  ];
  for (const [query, message] of cases) {
    const r = await externalMedia(query);
    assert.is(r.status, 400, `${JSON.stringify(query)}: ${r.text}`);
    assert.equal(r.body, { message }, JSON.stringify(query));
  }
  assert.equal(await names(), before, 'no channel was made');
});

test('externalMedia rtp: hanging up closes the stream: StasisEnd, ChannelDestroyed, then no more packets', async () => {
  const peer = await RtpPeer.open();
  peers.push(peer);
  const r = await externalMedia({ app: 'app1', external_host: `127.0.0.1:${peer.port}`, format: 'ulaw', channelId: 'em-hang' });
  assert.is(r.status, 200, r.text);
  const localPort = Number(r.body.channelvars.UNICASTRTP_LOCAL_PORT);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'em-hang');
  await peer.next(10);
  await hangupAndWait(ctx.t, ctx.ev, 'em-hang');
  assert.equal(eventSequence(ctx.ev, 'em-hang').slice(-3), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
  await sleep(20); // datagrams already sent may still be delivered
  const settled = peer.packets.length;
  await sleep(150); // 150 ms is 150 packets' worth at the test scale
  assert.is(peer.packets.length, settled, 'no packets after the hangup');
  // The local port is closed too: it can be bound again.
  const again = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    again.once('error', reject);
    again.bind(localPort, '127.0.0.1', () => resolve());
  });
  await new Promise<void>((resolve) => again.close(() => resolve()));
});

// ---- external media: AudioSocket --------------------------------------------------------------

test('externalMedia audiosocket: we connect, send the UUID first, then 320-byte slin frames; audio the server sends is recorded on the channel', async () => {
  await withInboundServer(async (t, ev) => {
    const srv = await AudioSocketServer.open();
    peers.push(srv);
    const uuid = randomUUID();
    const r = await externalMedia({ app: 'app1', external_host: `127.0.0.1:${srv.port}`, encapsulation: 'audiosocket', transport: 'tcp', format: 'slin', data: uuid, channelId: 'as-1' }, t);
    assert.is(r.status, 200, r.text);
    assert.match(r.body.name, new RegExp(`^AudioSocket/127\\.0\\.0\\.1:${srv.port}-[0-9a-f]{8}$`));
    assert.is(r.body.state, 'Up');
    const start = await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'as-1');
    assert.equal(start.args, [uuid]);
    const conn = await srv.first();
    await conn.waitFrames(20);
    const first = conn.frames[0]!;
    assert.is(first.kind, 0x01);
    assert.is(first.payload.length, 16);
    assert.is(first.payload.toString('hex'), uuid.replace(/-/g, ''));
    const audio = conn.frames.slice(1, 20);
    for (const f of audio) {
      assert.is(f.kind, 0x10);
      assert.is(f.payload.length, 320);
    }
    // What the app plays to the channel reaches us as little-endian 8 kHz slin.
    const pb = await playTone('as-1', 1000, ev, t);
    const from = conn.frames.length + 5;
    await conn.waitFrames(from + 50);
    const payload = Buffer.concat(conn.frames.slice(from, from + 50).map((f) => f.payload));
    present(Int16Array.from({ length: payload.length / 2 }, (_, i) => payload.readInt16LE(i * 2)), 1000, 0.95);
    assert.is((await t.http('DELETE', `/ari/playbacks/${pb}`)).status, 204);

    // We send a 500 Hz tone as 0x10 frames while the channel is recorded.
    const rec = await startRecording('as-1', ev, 1, t);
    let finished = false;
    const samples = rec.done.finally(() => (finished = true));
    let sent = 0;
    const t0 = Date.now();
    while (!finished && sent < 2000) {
      const due = Math.floor((Date.now() - t0) / (20 / INBOUND_SCALE)) + LEAD_FRAMES;
      for (; sent < due; sent++) {
        const pcm = sine(500, sent * 160, 160);
        const frame = Buffer.alloc(3 + 320);
        frame[0] = 0x10;
        frame.writeUInt16BE(320, 1);
        for (let i = 0; i < 160; i++) frame.writeInt16LE(pcm[i]!, 3 + i * 2);
        conn.sock.write(frame);
      }
      await sleep(1);
    }
    const heard = await samples;
    present(heard, 500, 0.5);
    absent(heard, 1000);

    // Our hangup: a 0x00 message, then the connection closes.
    await hangupAndWait(t, ev, 'as-1');
    await conn.ended;
    const last = conn.frames[conn.frames.length - 1]!;
    assert.is(last.kind, 0x00);
    assert.is(last.payload.length, 0);
  });
});

test('externalMedia audiosocket: the server\'s 0x00 message hangs the channel up (ChannelHangupRequest, StasisEnd, ChannelDestroyed)', async () => {
  const srv = await AudioSocketServer.open();
  peers.push(srv);
  const r = await externalMedia({ app: 'app1', external_host: `127.0.0.1:${srv.port}`, encapsulation: 'audiosocket', transport: 'tcp', format: 'slin', data: randomUUID(), channelId: 'as-2' });
  assert.is(r.status, 200, r.text);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'as-2');
  const conn = await srv.first();
  await conn.waitFrames(3);
  conn.sock.write(Buffer.from([0x00, 0x00, 0x00]));
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'as-2');
  assert.equal(eventSequence(ctx.ev, 'as-2').slice(-3), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
  assert.is((await ctx.t.http('GET', '/ari/channels/as-2')).status, 404);
  await conn.ended;
});

test('externalMedia audiosocket errors: data missing 400 "data can not be empty"; data not a UUID 400; a format other than slin 400', async () => {
  const srv = await AudioSocketServer.open();
  peers.push(srv);
  const base = { app: 'app1', external_host: `127.0.0.1:${srv.port}`, encapsulation: 'audiosocket', transport: 'tcp' };
  const noData = await externalMedia({ ...base, format: 'slin' });
  assert.is(noData.status, 400);
  assert.equal(noData.body, { message: 'data can not be empty' });
  // Asterisk checks data before it dials (and so before the format is looked up).
  const noData2 = await externalMedia({ ...base, format: 'mp3' });
  assert.is(noData2.status, 400);
  assert.equal(noData2.body, { message: 'data can not be empty' });
  const notUuid = await externalMedia({ ...base, format: 'slin', data: 'not-a-uuid' });
  assert.is(notUuid.status, 400);
  assert.equal(notUuid.body, { message: 'data must be a UUID for audiosocket' });
  const ulaw = await externalMedia({ ...base, format: 'ulaw', data: randomUUID() });
  assert.is(ulaw.status, 400);
  assert.equal(ulaw.body, { message: 'AudioSocket carries slin (8 kHz signed linear) only' });
  // None of them connected.
  await sleep(20);
  assert.is(srv.conns.length, 0);
});

test.run();
