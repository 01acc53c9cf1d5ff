import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventSequence, hangupAndWait, originateInApp } from '../_helpers/ari.js';
import { downloadWav, farTone, localPair } from '../_helpers/audio.js';
import type { EventLog } from '../_helpers/events.js';
import { framesWith, type MediaAppServer, openMedia as openMediaAt, pcmOf, type Peer, serverMediaChannel, share, sineAt, slinOf, startMediaAppServer, wsExternalMedia } from '../_helpers/media-peer.js';
import { refusedUpgrade } from '../_helpers/refused-upgrade.js';
import { startTestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';
import { waitUntil } from '../_helpers/wait.js';

const test = suite('external-media-websocket');

/** The application's WebSocket server for client connections: the peers we connected to, in order. */
let appServer: MediaAppServer;

const ctxEnv: Record<string, string> = { MEDIA_WEBSOCKET_ALLOW_LOOPBACK: 'true' };
test.before(async () => {
  appServer = await startMediaAppServer();
  ctxEnv.MEDIA_WEBSOCKET_CLIENTS = JSON.stringify({
    bot: { uri: `ws://127.0.0.1:${appServer.port}/media/bot?tenant=t1`, protocols: 'media', username: 'bot', password: 's3cret' },
    nobody: { uri: 'ws://127.0.0.1:1/' },
  });
});
// app1 is ours; Local ;2 halves run default,1000 into 'trunkline'.
const ctx = useServer(test, { env: ctxEnv, events: { ev: 'app1', tl: 'trunkline' } });
test.after(() => appServer.close());

const enc = encodeURIComponent;

const externalMedia = (query: Record<string, string | undefined>, t = ctx.t) => wsExternalMedia(t, query);
const serverChannel = (id: string, query: Record<string, string> = {}) => serverMediaChannel(ctx.t, id, query);

const openMedia = (connectionId: string) => openMediaAt(ctx.t.url, connectionId);

// ---- recordings ---------------------------------------------------------------------------

/** Starts a wav recording of a channel's inbound (no time limit) and waits on `log` for RecordingStarted. */
async function startRecording(id: string, name: string, log: EventLog): Promise<void> {
  const r = await ctx.t.http('POST', `/ari/channels/${enc(id)}/record`, { query: { name, format: 'wav' } });
  assert.is(r.status, 201, r.text);
  await log.waitFor((e) => e.type === 'RecordingStarted' && e.recording?.name === name);
}

/** Stops a recording, waits on `log` for RecordingFinished and returns its samples. */
async function stopRecording(name: string, log: EventLog): Promise<Int16Array> {
  assert.is((await ctx.t.http('POST', `/ari/recordings/live/${enc(name)}/stop`)).status, 204);
  await log.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === name);
  return downloadWav(ctx.t, name);
}

async function bridgeOf(id: string, members: string[]): Promise<void> {
  assert.is((await ctx.t.http('POST', `/ari/bridges/${id}`, { query: { type: 'mixing' } })).status, 200);
  for (const m of members) assert.is((await ctx.t.http('POST', `/ari/bridges/${id}/addChannel`, { query: { channel: m } })).status, 204);
}

// ---- tests ------------------------------------------------------------------------------------

test('server: 200 WebSocket/INCOMING channel, Down, with its connection id; /media/<id> opens with subprotocol media, MEDIA_START, then the channel is answered into the app', async () => {
  const r = await externalMedia({ connection_type: 'server', format: 'ulaw', channelId: 'ws-basic', data: 'one,two' });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.id, 'ws-basic');
  assert.match(r.body.name, /^WebSocket\/INCOMING\/0x[0-9a-f]+$/);
  assert.is(r.body.state, 'Down');
  const cid = r.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID;
  assert.match(cid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.equal(r.body.channelvars, { MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE: '160', MEDIA_WEBSOCKET_CONNECTION_ID: cid });
  const dialed = await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'ws-basic');
  assert.is(dialed.dialstatus, '');
  assert.is(dialed.dialstring, 'INCOMING/c(ulaw)');

  const peer = await openMedia(cid);
  assert.is(peer.ws.protocol, 'media');
  const start = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-basic');
  assert.equal(start.args, ['one', 'two']);
  assert.is(start.channel!.state, 'Up');
  assert.equal(eventSequence(ctx.ev, 'ws-basic'), ['Dial:', 'State:Up', 'Dial:ANSWER', 'ChannelDialplan', 'StasisStart']);
  const [first] = await peer.textsAtLeast(1);
  assert.is(first, `MEDIA_START connection_id:${cid} channel:${r.body.name} channel_id:ws-basic format:ulaw optimal_frame_size:160 ptime:20`);
  // ulaw: one 160-byte frame per 20 ms.
  const frames = await peer.nextAudio(5);
  assert.ok(frames.every((f) => f.length === 160), 'ulaw frames of 160 bytes');
  const v = await ctx.t.http('GET', '/ari/channels/ws-basic/variable', { query: { variable: 'DIALEDPEERNUMBER' } });
  assert.equal(v.body, { value: 'INCOMING/c(ulaw)' });

  await hangupAndWait(ctx.t, ctx.ev, 'ws-basic');
  assert.is(await peer.closed(), 1000);
  assert.equal(eventSequence(ctx.ev, 'ws-basic').slice(5), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
});

test('/media/<id> refusals before the upgrade: unknown id 404, a second socket 409, a channel that ended 404', async () => {
  const base = ctx.t.url.replace(/^http/, 'ws');
  const unknown = await refusedUpgrade(`${base}/media/00000000-0000-4000-8000-000000000000`);
  assert.is(unknown.status, 404);
  assert.equal(unknown.body, { message: 'WebSocket instance not found' });
  const { body, peer } = await serverChannel('ws-twice');
  const cid = body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID;
  await peer.textsAtLeast(1);
  const second = await refusedUpgrade(`${base}/media/${cid}`);
  assert.is(second.status, 409);
  assert.equal(second.body, { message: 'Another websocket connection exists for this connection id' });
  await hangupAndWait(ctx.t, ctx.ev, 'ws-twice');
  await peer.closed();
  assert.is((await refusedUpgrade(`${base}/media/${cid}`)).status, 404);
});

/**
 * Queues 3 s (150 frames) of 600 Hz while the queue is paused, starts the recordings, lets it play,
 * and stops them once QUEUE_DRAINED says every frame was played: the recordings' samples, and the
 * media ticks skipped meanwhile (a media clock far enough behind on a busy machine skips ticks, and
 * no consumer, the recordings included, gets a frame for those).
 */
async function playThrough(peer: Peer, recordings: Array<[channel: string, name: string, log: EventLog]>): Promise<{ pcm: Int16Array[]; late: number }> {
  const clock = ctx.t.server.telephony.clock;
  const lateBefore = clock.lateTicks;
  const drained = peer.texts.filter((t) => t === 'QUEUE_DRAINED').length;
  peer.text('PAUSE_MEDIA');
  peer.audio(slinOf(sineAt(600, 8000 * 3)));
  peer.text('REPORT_QUEUE_DRAINED');
  for (const [id, name, log] of recordings) await startRecording(id, name, log);
  peer.text('CONTINUE_MEDIA');
  await waitUntil(() => peer.texts.filter((t) => t === 'QUEUE_DRAINED').length > drained, 'QUEUE_DRAINED');
  const out: Int16Array[] = [];
  for (const [, name, log] of recordings) out.push(await stopRecording(name, log));
  return { pcm: out, late: clock.lateTicks - lateBefore };
}

const all600 = ({ pcm: [pcm], late }: { pcm: Int16Array[]; late: number }, what: string) => {
  const n = framesWith(pcm!, 600);
  assert.ok(n >= 145 - late && n <= 151, `600 Hz in ${n} frames of ${what}, 150 sent, ${late} ticks skipped`);
  assert.is(share(pcm!, 1000), 0);
};

test('audio the application sends is the channel\'s inbound: in the channel\'s recording, and heard by the Local channel bridged with it', async () => {
  const { peer } = await serverChannel('ws-in');
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-in');
  all600(await playThrough(peer, [['ws-in', 'ws-in-own', ctx.ev]]), 'the channel\'s recording');
  // Bridged with a Local pair's ;1: what ;1 is sent is ;2's inbound, so ;2's recording is what the far end heard.
  const l = await localPair(ctx.t, ctx.ev, ctx.tl, 'ws-in-l');
  await bridgeOf('ws-in-br', ['ws-in', l.one]);
  all600(await playThrough(peer, [[l.two, 'ws-in-far', ctx.tl]]), 'what the far end heard');
  await ctx.t.http('DELETE', '/ari/bridges/ws-in-br');
  await hangupAndWait(ctx.t, ctx.ev, l.one);
  await hangupAndWait(ctx.t, ctx.ev, 'ws-in');
});

test('audio the far end sends reaches the application as binary frames in the channel\'s format (slin: 320 bytes)', async () => {
  const { peer } = await serverChannel('ws-out');
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-out');
  await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ws-out-far' });
  await farTone(ctx.t, 'ws-out-far', 1000);
  const silent = await peer.nextAudio(10);
  assert.is(share(pcmOf(Buffer.concat(silent)), 1000), 0, 'nothing before the bridge');
  const from = peer.binaries.length;
  await bridgeOf('ws-out-br', ['ws-out', 'ws-out-far']);
  // From the first frame that carries the tone (those on their way before the bridge do not), every frame does.
  await waitUntil(() => peer.binaries.slice(from).some((f) => share(pcmOf(f), 1000) === 1), 'the tone');
  const frames = await peer.nextAudio(50);
  assert.ok(frames.every((f) => f.length === 320), 'slin frames of 320 bytes');
  const pcm = pcmOf(Buffer.concat(frames));
  assert.is(share(pcm, 1000), 1, `1000 Hz in ${share(pcm, 1000)} of the frames`);
  await ctx.t.http('DELETE', '/ari/bridges/ws-out-br');
  await hangupAndWait(ctx.t, ctx.ev, 'ws-out-far');
  await hangupAndWait(ctx.t, ctx.ev, 'ws-out');
});

test('commands and events in order: buffering, marks, status and queue drained (plain text)', async () => {
  const { peer } = await serverChannel('ws-cmd');
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-cmd');
  peer.text('PAUSE_MEDIA');
  peer.text('START_MEDIA_BUFFERING');
  peer.audio(Buffer.alloc(400)); // one 320-byte frame; 80 bytes wait for more
  peer.text('GET_STATUS');
  peer.text('STOP_MEDIA_BUFFERING clip-1'); // the 80 bytes become a last short frame
  peer.text('MARK_MEDIA m-1');
  peer.audio(Buffer.alloc(700)); // not buffering: two frames, 60 bytes dropped
  peer.text('REPORT_QUEUE_DRAINED');
  peer.text('NO_SUCH_COMMAND');
  peer.text('GET_STATUS');
  peer.text('CONTINUE_MEDIA');
  const texts = await peer.textsAtLeast(6);
  assert.equal(texts, [
    texts[0]!,
    'STATUS channel_id:ws-cmd queue_length:1 xon_level:800 xoff_level:900 queue_full:false bulk_media:true media_paused:true',
    'STATUS channel_id:ws-cmd queue_length:4 xon_level:800 xoff_level:900 queue_full:false bulk_media:false media_paused:true',
    'MEDIA_BUFFERING_COMPLETED clip-1',
    'MEDIA_MARK_PROCESSED m-1',
    'QUEUE_DRAINED',
  ]);
  assert.match(texts[0]!, /^MEDIA_START /);
  await hangupAndWait(ctx.t, ctx.ev, 'ws-cmd');
});

test('f(json) control messages: MEDIA_START with the channel variables, JSON commands, ERROR for what does not parse; slin16 frames of 640 bytes', async () => {
  const { body, peer } = await serverChannel('ws-json', { format: 'slin16', transport_data: 'f(json)' });
  const cid = body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID;
  const [first] = await peer.textsAtLeast(1);
  assert.equal(JSON.parse(first!), {
    event: 'MEDIA_START', connection_id: cid, channel: body.name, channel_id: 'ws-json', format: 'slin16', optimal_frame_size: 640, ptime: 20,
    channel_variables: { DIALEDPEERNUMBER: 'INCOMING/c(slin16)f(json)', MEDIA_WEBSOCKET_CONNECTION_ID: cid, MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE: '640' },
  });
  assert.is(Object.keys(JSON.parse(first!))[0], 'event');
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-json');
  peer.text('GET_STATUS');
  peer.text('{"command":"PAUSE_MEDIA"}');
  peer.text('{"command":"MARK_MEDIA","correlation_id":"m-2"}');
  peer.text('{"command":"GET_STATUS"}');
  peer.text('{"command":"CONTINUE_MEDIA"}');
  const texts = (await peer.textsAtLeast(4)).slice(1).map((t) => JSON.parse(t));
  assert.equal(texts, [
    { event: 'ERROR', channel_id: 'ws-json', error_text: 'Unable to parse JSON command' },
    { event: 'STATUS', channel_id: 'ws-json', queue_length: 0, xon_level: 800, xoff_level: 900, queue_full: false, bulk_media: false, media_paused: true },
    { event: 'MEDIA_MARK_PROCESSED', channel_id: 'ws-json', correlation_id: 'm-2' },
  ]);
  assert.ok((await peer.nextAudio(5)).every((f) => f.length === 640), 'slin16 frames of 640 bytes');
  await hangupAndWait(ctx.t, ctx.ev, 'ws-json');
});

test('flow control: MEDIA_XOFF at 900 queued frames, a message at 1000 is dropped whole, FLUSH_MEDIA empties the queue, MEDIA_XON once it plays again', async () => {
  const { peer } = await serverChannel('ws-flow');
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-flow');
  peer.text('PAUSE_MEDIA');
  for (let i = 0; i < 6; i++) peer.audio(Buffer.alloc(320 * 200)); // 200 frames each
  peer.text('GET_STATUS');
  peer.text('FLUSH_MEDIA');
  peer.text('GET_STATUS');
  const texts = await peer.textsAtLeast(4);
  assert.equal(texts.slice(1), [
    'MEDIA_XOFF',
    'STATUS channel_id:ws-flow queue_length:1000 xon_level:800 xoff_level:900 queue_full:true bulk_media:false media_paused:true',
    'STATUS channel_id:ws-flow queue_length:0 xon_level:800 xoff_level:900 queue_full:true bulk_media:false media_paused:true',
  ]);
  peer.text('CONTINUE_MEDIA');
  await waitUntil(() => peer.texts.includes('MEDIA_XON'), 'MEDIA_XON');
  peer.text('GET_STATUS');
  const after = await peer.textsAtLeast(6);
  assert.equal(after.slice(4), ['MEDIA_XON', 'STATUS channel_id:ws-flow queue_length:0 xon_level:800 xoff_level:900 queue_full:false bulk_media:false media_paused:false']);
  await hangupAndWait(ctx.t, ctx.ev, 'ws-flow');
});

test('HANGUP ends the channel (cause 16) and the socket closes 1000; the application closing its socket does the same', async () => {
  const a = await serverChannel('ws-hup');
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-hup');
  a.peer.text('HANGUP');
  const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'ws-hup');
  assert.is(destroyed.cause, 16);
  assert.is(destroyed.cause_txt, 'Normal Clearing');
  assert.is(await a.peer.closed(), 1000);
  const request = ctx.ev.of('ws-hup').find((e) => e.type === 'ChannelHangupRequest')!;
  assert.is(request.cause, 16);
  assert.equal(eventSequence(ctx.ev, 'ws-hup').slice(-3), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);

  const b = await serverChannel('ws-close');
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-close');
  b.peer.ws.close(1000);
  const gone = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'ws-close');
  assert.is(gone.cause, 16);
  assert.equal(eventSequence(ctx.ev, 'ws-close').slice(-3), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
});

test('transport_data n: MEDIA_START but no answer until the application sends ANSWER; DTMF sent to the channel reaches it as DTMF_END', async () => {
  const { peer } = await serverChannel('ws-n', { transport_data: 'n' });
  await peer.textsAtLeast(1);
  peer.text('GET_STATUS');
  await peer.textsAtLeast(2);
  assert.equal(eventSequence(ctx.ev, 'ws-n'), ['Dial:'], 'not answered yet');
  peer.text('ANSWER');
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-n');
  assert.equal(eventSequence(ctx.ev, 'ws-n'), ['Dial:', 'State:Up', 'Dial:ANSWER', 'ChannelDialplan', 'StasisStart']);
  assert.is((await ctx.t.http('POST', '/ari/channels/ws-n/dtmf', { query: { dtmf: '5#' } })).status, 204);
  const texts = await peer.textsAtLeast(4);
  assert.equal(texts.slice(2), ['DTMF_END digit:5 channel_id:ws-n', 'DTMF_END digit:# channel_id:ws-n']);
  await hangupAndWait(ctx.t, ctx.ev, 'ws-n');
});

/** A channel whose dial fails: the 200, then its events end in ChannelDestroyed with `cause` after `Dial:<status>`. */
async function failedDial(query: Record<string, string>, id: string, status: string, cause: number): Promise<any> {
  const r = await externalMedia({ ...query, format: 'ulaw', channelId: id });
  assert.is(r.status, 200, r.text);
  assert.is((await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id)).cause, cause);
  assert.equal(eventSequence(ctx.ev, id), ['Dial:', `Dial:${status}`, 'ChannelDestroyed']);
  return r;
}

test('nobody connects within 30 s: Dial NOANSWER and the channel ends with cause 19; its connection id is gone', async () => {
  const r = await failedDial({ connection_type: 'server' }, 'ws-late', 'NOANSWER', 19);
  const late = await refusedUpgrade(`${ctx.t.url.replace(/^http/, 'ws')}/media/${r.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID}`);
  assert.is(late.status, 404);
});

test('client: we connect to the websocket_client connection external_host names (its URI with v() parameters, Basic credentials, subprotocol media), MEDIA_START carries its name', async () => {
  const before = appServer.peers.length;
  const r = await externalMedia({ external_host: 'bot', format: 'slin', channelId: 'ws-client', transport_data: 'v(call=ws-client)' });
  assert.is(r.status, 200, r.text);
  assert.match(r.body.name, /^WebSocket\/bot\/0x[0-9a-f]+$/);
  assert.equal(r.body.channelvars, { MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE: '320', MEDIA_WEBSOCKET_CONNECTION_ID: 'bot' });
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-client');
  assert.equal(eventSequence(ctx.ev, 'ws-client'), ['Dial:', 'State:Up', 'Dial:ANSWER', 'ChannelDialplan', 'StasisStart']);
  const peer = appServer.peers[before]!;
  assert.is(peer.url, '/media/bot?tenant=t1&call=ws-client');
  assert.is(peer.authorization, `Basic ${Buffer.from('bot:s3cret').toString('base64')}`);
  assert.is(peer.ws.protocol, 'media');
  const [first] = await peer.textsAtLeast(1);
  assert.is(first, `MEDIA_START connection_id:bot channel:${r.body.name} channel_id:ws-client format:slin optimal_frame_size:320 ptime:20`);
  await hangupAndWait(ctx.t, ctx.ev, 'ws-client');
  assert.is(await peer.closed(), 1000);
});

test('client: a connection that cannot be made fails the dial (CHANUNAVAIL, cause 3); an unknown connection is a 400', async () => {
  await failedDial({ external_host: 'nobody' }, 'ws-refused', 'CHANUNAVAIL', 3);
  const unknown = await externalMedia({ external_host: 'missing', format: 'ulaw' });
  assert.is(unknown.status, 400);
  assert.equal(unknown.body, { message: 'WebSocket client connection \'missing\' not found' });
});

test('client: loopback addresses are refused unless local networks are allowed', async () => {
  const t = await startTestServer({ MEDIA_WEBSOCKET_CLIENTS: JSON.stringify({ bot: { uri: `ws://127.0.0.1:${appServer.port}/` }, v6: { uri: `ws://[::1]:${appServer.port}/` } }) });
  try {
    for (const [name, address] of [['bot', '127.0.0.1'], ['v6', '::1']]) {
      const r = await externalMedia({ external_host: name, format: 'ulaw' }, t);
      assert.is(r.status, 400, r.text);
      assert.equal(r.body, { message: `websocket_client address ${address} is a loopback address (WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS is off)` });
    }
    assert.equal((await t.http('GET', '/ari/channels')).body, []);
    t.assertNoViolations();
  } finally {
    await t.close();
  }
});

test('bad parameters: 400 with the texts, and no channel is made', async () => {
  const names = async () => (await ctx.t.http('GET', '/ari/channels')).body.map((c: { name: string }) => c.name).sort();
  const before = await names();
  const cases: Array<[Record<string, string>, string]> = [
    [{ connection_type: 'server', format: 'ulaw', encapsulation: 'rtp' }, "transport must be 'udp' for rtp encapsulation"],
    [{ connection_type: 'server', format: 'ulaw', transport: 'udp' }, "transport must be 'websocket' for none encapsulation"],
    [{ connection_type: 'server', format: 'ulaw', transport: 'sctp' }, "Invalid transport 'sctp'"],
    [{ connection_type: 'peer', format: 'ulaw' }, "Invalid connection_type 'peer'"],
    [{ format: 'ulaw' }, 'external_host is required for all but websocket server connections'],
    [{ connection_type: 'server' }, 'format cannot be empty'],
    [{ connection_type: 'server', format: 'mp3' }, 'Provided format (mp3) was not found'],
    [{ connection_type: 'server', format: 'wav' }, 'Format wav cannot be carried over a media WebSocket (ulaw, alaw, slin or slin16)'],
    [{ connection_type: 'server', format: 'ulaw', direction: 'in' }, 'Invalid direction specified'],
    [{ connection_type: 'server', format: 'ulaw', transport_data: 'x' }, "'WebSocket' channel options 'x' parse error"],
    [{ connection_type: 'server', format: 'ulaw', transport_data: 'v(a=b)' }, "URI parameters are not allowed for 'WebSocket/INCOMING' channels"],
    [{ external_host: 'bot', format: 'ulaw', transport_data: 'v(a b=c)' }, "'WebSocket' channel options 'v(a b=c)' parse error"],
  ];
  for (const [query, message] of cases) {
    const r = await externalMedia(query);
    assert.is(r.status, 400, `${JSON.stringify(query)}: ${r.text}`);
    assert.equal(r.body, { message }, JSON.stringify(query));
  }
  const rtp = await ctx.t.http('POST', '/ari/channels/externalMedia', { query: { app: 'app1', external_host: '127.0.0.1:9', format: 'ulaw', transport_data: 'f(json)' } });
  assert.equal(rtp.body, { message: 'transport_data is only used with the websocket transport' });
  assert.equal(await names(), before, 'no channel was made');
});

test.run();
