import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventSequence, hangupAndWait } from '../_helpers/ari.js';
import { openMedia, type Peer, serverMediaChannel } from '../_helpers/media-peer.js';
import { refusedUpgrade } from '../_helpers/refused-upgrade.js';
import { startTestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';
import { waitUntil } from '../_helpers/wait.js';

// chan_websocket's media socket beyond the basics (external-media-websocket.test.ts): the media
// direction, exact bytes through a bridge, messages over the limits, an application that stops
// reading, the control format setting, the hangup's tech_cause, and foreign origins.
const test = suite('external-media-websocket-control');
const ctx = useServer(test);

const serverChannel = (id: string, query: Record<string, string> = {}) => serverMediaChannel(ctx.t, id, query);

/** A server channel in app1, answered: its body and peer (MEDIA_START already received). */
async function answered(id: string, query: Record<string, string> = {}): Promise<{ body: any; peer: Peer }> {
  const c = await serverChannel(id, query);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
  await c.peer.textsAtLeast(1);
  return c;
}

/** Sends commands, then GET_STATUS, and returns the text frames that came after `from` up to that STATUS. */
async function untilStatus(peer: Peer, commands: string[], from = peer.texts.length): Promise<string[]> {
  for (const c of commands) peer.text(c);
  peer.text('GET_STATUS');
  await waitUntil(() => peer.texts.slice(from).some((t) => t.startsWith('STATUS')), 'STATUS');
  return peer.texts.slice(from);
}

const status = (id: string, length: number, paused = false) =>
  `STATUS channel_id:${id} queue_length:${length} xon_level:800 xoff_level:900 queue_full:false bulk_media:false media_paused:${paused}`;

/** How many audio frames the peer had when the first text frame starting with `prefix` (from now on) arrived. */
function audioCountAt(peer: Peer, prefix: string): () => number | undefined {
  let at: number | undefined;
  peer.ws.on('message', (d: Buffer, isBinary: boolean) => {
    if (!isBinary && at === undefined && d.toString().startsWith(prefix)) at = peer.binaries.length;
  });
  return () => at;
}

test('SET_MEDIA_DIRECTION out: no audio reaches the application while its own audio plays on; both: it flows again', async () => {
  const { peer } = await answered('dir-out');
  await peer.nextAudio(2);
  const atStatus = audioCountAt(peer, 'STATUS');
  const atMark = audioCountAt(peer, 'MEDIA_MARK_PROCESSED');
  // STATUS leaves right after the direction changed: no audio frame may follow it until the mark, 10 frames later.
  for (const c of ['SET_MEDIA_DIRECTION out', 'GET_STATUS', 'PAUSE_MEDIA']) peer.text(c);
  peer.audio(Buffer.alloc(320 * 10));
  peer.text('MARK_MEDIA m-out');
  peer.text('CONTINUE_MEDIA');
  await waitUntil(() => atMark() !== undefined, 'the mark');
  assert.is(atMark(), atStatus(), 'no audio between SET_MEDIA_DIRECTION out and the mark');
  peer.text('SET_MEDIA_DIRECTION both');
  assert.ok((await peer.nextAudio(3)).every((f) => f.length === 320), 'audio again');
  assert.is(peer.texts.filter((t) => t.startsWith('ERROR')).length, 0);
  await hangupAndWait(ctx.t, ctx.ev, 'dir-out');
});

test('SET_MEDIA_DIRECTION in: what the application sends is dropped and the commands about it are refused; it still hears the channel', async () => {
  const id = 'dir-in';
  const { peer } = await answered(id);
  const texts = await untilStatus(peer, ['PAUSE_MEDIA', 'SET_MEDIA_DIRECTION in']);
  assert.equal(texts, [status(id, 0, true)]);
  peer.audio(Buffer.alloc(320 * 5));
  const refused = await untilStatus(peer, ['START_MEDIA_BUFFERING', 'STOP_MEDIA_BUFFERING b', 'MARK_MEDIA m', 'PAUSE_MEDIA', 'CONTINUE_MEDIA', 'FLUSH_MEDIA', 'REPORT_QUEUE_DRAINED']);
  assert.equal(refused, [
    ...['START_MEDIA_BUFFERING', 'STOP_MEDIA_BUFFERING', 'MARK_MEDIA', 'PAUSE_MEDIA', 'CONTINUE_MEDIA'].map((c) => `ERROR channel_id:${id} error_text:${c} not supported while the media direction is in`),
    status(id, 0, true),
  ]);
  assert.ok((await peer.nextAudio(3)).every((f) => f.length === 320), 'the channel\'s audio still reaches it');
  // Back to both (written as direction:<value> this time): audio is queued again.
  peer.text('SET_MEDIA_DIRECTION direction:both');
  peer.audio(Buffer.alloc(320 * 5));
  assert.equal(await untilStatus(peer, []), [status(id, 5, true)]);
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('SET_MEDIA_DIRECTION in JSON, a bad or missing direction is an ERROR, d(in) sets it from the start, p refuses it', async () => {
  const { peer } = await answered('dir-json', { transport_data: 'f(json)' });
  for (const c of ['{"command":"PAUSE_MEDIA"}', '{"command":"SET_MEDIA_DIRECTION","direction":"in"}', '{"command":"SET_MEDIA_DIRECTION","direction":"sideways"}', '{"command":"SET_MEDIA_DIRECTION"}']) peer.text(c);
  peer.audio(Buffer.alloc(320 * 4));
  peer.text('{"command":"GET_STATUS"}');
  await waitUntil(() => peer.texts.some((t) => t.includes('"STATUS"')), 'STATUS');
  assert.equal(peer.texts.slice(1).map((t) => JSON.parse(t)), [
    { event: 'ERROR', channel_id: 'dir-json', error_text: 'SET_MEDIA_DIRECTION needs a direction of in, out or both, not \'sideways\'' },
    { event: 'ERROR', channel_id: 'dir-json', error_text: 'SET_MEDIA_DIRECTION needs a direction of in, out or both, not \'\'' },
    { event: 'STATUS', channel_id: 'dir-json', queue_length: 0, xon_level: 800, xoff_level: 900, queue_full: false, bulk_media: false, media_paused: true },
  ]);
  await hangupAndWait(ctx.t, ctx.ev, 'dir-json');

  const d = await answered('dir-d', { transport_data: 'd(in)' });
  d.peer.audio(Buffer.alloc(320 * 4));
  assert.equal(await untilStatus(d.peer, ['MARK_MEDIA x']), [`ERROR channel_id:dir-d error_text:MARK_MEDIA not supported while the media direction is in`, status('dir-d', 0)]);
  await hangupAndWait(ctx.t, ctx.ev, 'dir-d');

  const p = await answered('dir-p', { transport_data: 'p' });
  assert.equal(await untilStatus(p.peer, ['SET_MEDIA_DIRECTION out']), ['ERROR channel_id:dir-p error_text:SET_MEDIA_DIRECTION not supported in passthrough mode', status('dir-p', 0)]);
  await hangupAndWait(ctx.t, ctx.ev, 'dir-p');
  const bad = await ctx.t.http('POST', '/ari/channels/externalMedia', { query: { app: 'app1', encapsulation: 'none', transport: 'websocket', connection_type: 'server', format: 'slin', transport_data: 'd(up)' } });
  assert.equal([bad.status, bad.body], [400, { message: '\'WebSocket\' channel options \'d(up)\' parse error' }]);
});

/** `n` bytes of 16-bit samples no codec step would leave alone by accident. */
function pattern(seed: number, frames: number): Buffer {
  const pcm = new Int16Array(160 * frames);
  let x = seed;
  for (let i = 0; i < pcm.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    pcm[i] = (x >>> 16) - 32768;
  }
  return Buffer.from(pcm.buffer);
}

/**
 * Which of `sent`'s 320-byte frames each received frame is, in order (-1: not one of them, such as
 * silence). Every frame sent must be there byte for byte, in order, except for ticks the media clock
 * dropped because the machine could not keep up (`late`).
 */
function assertCarried(received: Buffer[], sent: Buffer, late: number, what: string): void {
  const frames = Array.from({ length: sent.length / 320 }, (_, i) => sent.subarray(i * 320, i * 320 + 320));
  const seen = received.map((r) => frames.findIndex((f) => f.equals(r))).filter((i) => i >= 0);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! > seen[i - 1]!, `${what}: frames in order (${seen.join(',')})`);
  assert.ok(frames.length - seen.length <= late, `${what}: ${frames.length - seen.length} of ${frames.length} frames missing, ${late} ticks dropped`);
  if (late === 0) assert.equal(seen, frames.map((_, i) => i), `${what}: every frame`);
}

test('binary audio passes through exactly, both ways: two slin channels bridged hear each other byte for byte', async () => {
  const a = await answered('pass-a');
  const b = await answered('pass-b');
  assert.is((await ctx.t.http('POST', '/ari/bridges/pass-br', { query: { type: 'mixing' } })).status, 200);
  for (const m of ['pass-a', 'pass-b']) assert.is((await ctx.t.http('POST', '/ari/bridges/pass-br/addChannel', { query: { channel: m } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelEnteredBridge' && e.channel?.id === 'pass-b');
  const fromA = pattern(1, 50);
  const fromB = pattern(2, 50);
  const before = { a: a.peer.binaries.length, b: b.peer.binaries.length };
  for (const [peer, bytes] of [[a.peer, fromA], [b.peer, fromB]] as const) {
    peer.text('PAUSE_MEDIA');
    peer.audio(bytes);
    peer.text('REPORT_QUEUE_DRAINED');
  }
  const clock = ctx.t.server.telephony.clock;
  const lateBefore = clock.lateTicks;
  a.peer.text('CONTINUE_MEDIA');
  b.peer.text('CONTINUE_MEDIA');
  for (const peer of [a.peer, b.peer]) await waitUntil(() => peer.texts.includes('QUEUE_DRAINED'), 'QUEUE_DRAINED');
  // The last frame played on the tick before the queue was found drained: it has left by now.
  await a.peer.nextAudio(2);
  await b.peer.nextAudio(2);
  const late = clock.lateTicks - lateBefore;
  assertCarried(b.peer.binaries.slice(before.b), fromA, late, 'A to B');
  assertCarried(a.peer.binaries.slice(before.a), fromB, late, 'B to A');
  assert.is(Buffer.concat(a.peer.binaries.slice(before.a)).indexOf(fromA.subarray(0, 320)), -1, 'A does not hear itself');
  await ctx.t.http('DELETE', '/ari/bridges/pass-br');
  await hangupAndWait(ctx.t, ctx.ev, 'pass-a');
  await hangupAndWait(ctx.t, ctx.ev, 'pass-b');
});

test('a text message over 128 bytes is ignored and the socket stays up; a message over 65500 bytes closes it with 1009 and ends the call (cause 38, tech_cause 1001)', async () => {
  const { peer } = await answered('big-text');
  assert.equal(await untilStatus(peer, [`MARK_MEDIA ${'x'.repeat(200)}`, 'X'.repeat(5000)]), [status('big-text', 0)]);
  peer.audio(Buffer.alloc(65_501));
  assert.is(await peer.closed(), 1009);
  const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'big-text');
  const request = ctx.ev.of('big-text').find((e) => e.type === 'ChannelHangupRequest')!;
  assert.equal([request.cause, request.tech_cause, destroyed.cause, destroyed.cause_txt, destroyed.tech_cause], [38, 1001, 38, 'Network out of order', 1001]);
  assert.equal(eventSequence(ctx.ev, 'big-text').slice(-3), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);

  // The same for a text frame over the limit; the largest message allowed is taken (65500 bytes: 204 frames, the tail dropped).
  const t = await answered('big-ok');
  t.peer.text('PAUSE_MEDIA');
  t.peer.audio(Buffer.alloc(65_500));
  assert.equal(await untilStatus(t.peer, []), [status('big-ok', 204, true)]);
  t.peer.text('y'.repeat(70_000));
  assert.is(await t.peer.closed(), 1009);
  assert.is((await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'big-ok')).cause, 38);
  assert.is((await ctx.t.http('GET', '/ari/asterisk/ping')).status, 200);
});

test('an application that stops reading is cut off once its backlog passes 1 MiB: the socket is dropped and the call ends (cause 38, tech_cause 1001)', async () => {
  // slin16: 640 bytes every 20 ms of simulated time.
  const { peer } = await answered('slow', { format: 'slin16' });
  await peer.nextAudio(1);
  (peer.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'slow');
  assert.equal([destroyed.cause, destroyed.tech_cause], [38, 1001]);
  const request = ctx.ev.of('slow').find((e) => e.type === 'ChannelHangupRequest')!;
  assert.equal([request.cause, request.tech_cause], [38, 1001]);
  (peer.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  assert.is(await peer.closed(), 1006, 'dropped without a close frame');
  // What it was sent before the cut is bounded: the backlog limit plus what the kernel held.
  const received = peer.binaries.reduce((n, b) => n + b.length, 0);
  assert.ok(received < 64 * 1024 * 1024, `${received} bytes`);
});

test('tech_cause: HANGUP gives 1000, the application closing gives 1001 (both cause 16); an ARI hangup has none', async () => {
  const h = await answered('tc-hangup');
  h.peer.text('HANGUP');
  const d1 = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'tc-hangup');
  const r1 = ctx.ev.of('tc-hangup').find((e) => e.type === 'ChannelHangupRequest')!;
  assert.equal([r1.cause, r1.tech_cause, d1.cause, d1.tech_cause], [16, 1000, 16, 1000]);
  assert.is(await h.peer.closed(), 1000);

  const c = await answered('tc-close');
  c.peer.ws.close(1000);
  const d2 = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'tc-close');
  const r2 = ctx.ev.of('tc-close').find((e) => e.type === 'ChannelHangupRequest')!;
  assert.equal([r2.cause, r2.tech_cause, d2.cause, d2.cause_txt, d2.tech_cause], [16, 1001, 16, 'Normal Clearing', 1001]);

  const a = await answered('tc-ari');
  const d3 = await hangupAndWait(ctx.t, ctx.ev, 'tc-ari');
  assert.is('tech_cause' in d3, false);
  assert.is('tech_cause' in ctx.ev.of('tc-ari').find((e) => e.type === 'ChannelHangupRequest')!, false);
  assert.is(await a.peer.closed(), 1000);
});

test('MEDIA_WEBSOCKET_CONTROL_FORMAT=json makes JSON the default; f(plain-text) overrides it per channel, and an unknown f() value is plain text', async () => {
  const t = await startTestServer({ MEDIA_WEBSOCKET_CONTROL_FORMAT: 'json' });
  try {
    const first = async (id: string, transportData?: string) => {
      const r = await t.http('POST', '/ari/channels/externalMedia', {
        query: { app: 'fmt', encapsulation: 'none', transport: 'websocket', connection_type: 'server', format: 'ulaw', channelId: id, transport_data: transportData },
      });
      assert.is(r.status, 200, r.text);
      const peer = await openMedia(t.url, r.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID);
      const [text] = await peer.textsAtLeast(1);
      peer.ws.close(1000);
      return { text: text ?? '', cid: r.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID as string, name: r.body.name as string };
    };
    const json = await first('fmt-json');
    assert.equal(Object.keys(JSON.parse(json.text)), ['event', 'connection_id', 'channel', 'channel_id', 'format', 'optimal_frame_size', 'ptime', 'channel_variables']);
    assert.is(JSON.parse(json.text).event, 'MEDIA_START');
    for (const [id, td] of [['fmt-plain', 'f(plain-text)'], ['fmt-odd', 'f(xml)']] as const) {
      const plain = await first(id, td);
      assert.is(plain.text, `MEDIA_START connection_id:${plain.cid} channel:${plain.name} channel_id:${id} format:ulaw optimal_frame_size:160 ptime:20`);
    }
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test('/media/<id> from a foreign Origin: 403 in ARI\'s {message} shape before the upgrade; the channel can still be connected to', async () => {
  const r = await ctx.t.http('POST', '/ari/channels/externalMedia', { query: { app: 'app1', encapsulation: 'none', transport: 'websocket', connection_type: 'server', format: 'ulaw', channelId: 'origin' } });
  const cid = r.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID;
  const refused = await refusedUpgrade(`${ctx.t.url.replace(/^http/, 'ws')}/media/${cid}`, { origin: 'https://evil.example' });
  assert.is(refused.status, 403);
  assert.equal(refused.body, { message: 'Cross-origin request refused' });
  const peer = await openMedia(ctx.t.url, cid);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'origin');
  await hangupAndWait(ctx.t, ctx.ev, 'origin');
  assert.is(await peer.closed(), 1000);
});

test.run();
