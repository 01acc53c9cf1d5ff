import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventSequence, hangupAndWait } from '../_helpers/ari.js';
import { connectEvents } from '../_helpers/events.js';
import { type MediaAppServer, openMedia, startMediaAppServer } from '../_helpers/media-peer.js';
import { refusedUpgrade } from '../_helpers/refused-upgrade.js';
import { startTestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';
import { waitUntil } from '../_helpers/wait.js';

// Channels of technology WebSocket made by POST /channels and /channels/create with endpoint
// WebSocket/<connection>[/<options>] (chan_websocket's dial string), and what a restart does to
// media WebSocket channels.
const test = suite('external-media-websocket-endpoint');

let appServer: MediaAppServer;
const env: Record<string, string> = { MEDIA_WEBSOCKET_ALLOW_LOOPBACK: 'true' };
test.before(async () => {
  appServer = await startMediaAppServer();
  env.MEDIA_WEBSOCKET_CLIENTS = JSON.stringify({ bot: { uri: `ws://127.0.0.1:${appServer.port}/media/bot`, protocols: 'media' } });
});
const ctx = useServer(test, { env });
test.after(() => appServer.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const originate = (query: Record<string, string>) => ctx.t.http('POST', '/ari/channels', { query: { app: 'app1', ...query } });
const create = (query: Record<string, string>) => ctx.t.http('POST', '/ari/channels/create', { query: { app: 'app1', ...query } });

test('originate WebSocket/INCOMING/c(slin): a Down WebSocket channel with its connection id; the application connects, MEDIA_START, answered into the app, audio both ways', async () => {
  const r = await originate({ endpoint: 'WebSocket/INCOMING/c(slin)', channelId: 'ep-in', appArgs: 'a,b' });
  assert.is(r.status, 200, r.text);
  assert.match(r.body.name, /^WebSocket\/INCOMING\/0x[0-9a-f]+$/);
  assert.is(r.body.state, 'Down');
  const cid = r.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID;
  assert.match(cid, UUID);
  assert.equal(r.body.channelvars, { MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE: '320', MEDIA_WEBSOCKET_CONNECTION_ID: cid });
  assert.is((await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'ep-in')).dialstring, 'INCOMING/c(slin)');
  const peer = await openMedia(ctx.t.url, cid);
  const start = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ep-in');
  assert.equal(start.args, ['a', 'b']);
  assert.equal(eventSequence(ctx.ev, 'ep-in'), ['Dial:', 'State:Up', 'Dial:ANSWER', 'ChannelDialplan', 'StasisStart']);
  const [first] = await peer.textsAtLeast(1);
  assert.is(first, `MEDIA_START connection_id:${cid} channel:${r.body.name} channel_id:ep-in format:slin optimal_frame_size:320 ptime:20`);
  assert.ok((await peer.nextAudio(3)).every((f) => f.length === 320));
  peer.text('PAUSE_MEDIA');
  peer.audio(Buffer.alloc(320 * 3));
  peer.text('GET_STATUS');
  await waitUntil(() => peer.texts.some((t) => t.includes('queue_length:3')), 'the queued audio');
  assert.equal((await ctx.t.http('GET', '/ari/channels/ep-in/variable', { query: { variable: 'DIALEDPEERNUMBER' } })).body, { value: 'INCOMING/c(slin)' });
  await hangupAndWait(ctx.t, ctx.ev, 'ep-in');
  assert.is(await peer.closed(), 1000);
});

test('without c() the codec is the caller\'s first format (formats=alaw); nobody connecting within the originate timeout: NOANSWER, cause 19', async () => {
  const r = await originate({ endpoint: 'WebSocket/INCOMING', formats: 'alaw,ulaw', channelId: 'ep-alaw', timeout: '1' });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.channelvars.MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE, '160');
  const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'ep-alaw');
  assert.is(destroyed.cause, 19);
  assert.equal(eventSequence(ctx.ev, 'ep-alaw'), ['Dial:', 'Dial:NOANSWER', 'ChannelDestroyed']);
  assert.is((await refusedUpgrade(`${ctx.t.url.replace(/^http/, 'ws')}/media/${r.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID}`)).status, 404);

  const a = await originate({ endpoint: 'WebSocket/INCOMING', formats: 'alaw', channelId: 'ep-alaw2' });
  const peer = await openMedia(ctx.t.url, a.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID);
  const [first] = await peer.textsAtLeast(1);
  assert.match(first!, / format:alaw optimal_frame_size:160 ptime:20$/);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ep-alaw2');
  await hangupAndWait(ctx.t, ctx.ev, 'ep-alaw2');
});

test('originate WebSocket/bot/c(ulaw)v(call=ep): we connect out to the websocket_client connection with the URI parameters; MEDIA_START names it', async () => {
  const before = appServer.peers.length;
  const r = await originate({ endpoint: 'WebSocket/bot/c(ulaw)v(call=ep)', channelId: 'ep-out' });
  assert.equal([r.status, r.body.channelvars], [200, { MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE: '160', MEDIA_WEBSOCKET_CONNECTION_ID: 'bot' }], r.text);
  assert.match(r.body.name, /^WebSocket\/bot\/0x[0-9a-f]+$/);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ep-out');
  assert.equal(eventSequence(ctx.ev, 'ep-out'), ['Dial:', 'State:Up', 'Dial:ANSWER', 'ChannelDialplan', 'StasisStart']);
  const peer = appServer.peers[before]!;
  assert.equal([peer.url, peer.ws.protocol], ['/media/bot?call=ep', 'media']);
  assert.is((await peer.textsAtLeast(1))[0], `MEDIA_START connection_id:bot channel:${r.body.name} channel_id:ep-out format:ulaw optimal_frame_size:160 ptime:20`);
  assert.ok((await peer.nextAudio(3)).every((f) => f.length === 160));
  // The application hangs up with its own command.
  peer.text('HANGUP');
  const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'ep-out');
  assert.equal([destroyed.cause, destroyed.tech_cause], [16, 1000]);
  assert.is(await peer.closed(), 1000);
});

test('create WebSocket/INCOMING/n: in the app at once (Down); the application may connect before the dial; with n only ANSWER answers it', async () => {
  const r = await create({ endpoint: 'WebSocket/INCOMING/c(ulaw)n', channelId: 'ep-cr' });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.state, 'Down');
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ep-cr');
  const peer = await openMedia(ctx.t.url, r.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID);
  await peer.textsAtLeast(1);
  assert.is((await ctx.t.http('POST', '/ari/channels/ep-cr/dial')).status, 204);
  // The dial string is what create named, options and all (DIALEDPEERNUMBER too).
  assert.is((await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'ep-cr')).dialstring, 'INCOMING/c(ulaw)n');
  assert.equal((await ctx.t.http('GET', '/ari/channels/ep-cr/variable', { query: { variable: 'DIALEDPEERNUMBER' } })).body, { value: 'INCOMING/c(ulaw)n' });
  peer.text('GET_STATUS');
  await peer.textsAtLeast(2);
  assert.equal(eventSequence(ctx.ev, 'ep-cr'), ['ChannelDialplan', 'StasisStart', 'Dial:'], 'not answered: n');
  peer.text('ANSWER');
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'ep-cr' && e.dialstatus === 'ANSWER');
  assert.equal(eventSequence(ctx.ev, 'ep-cr'), ['ChannelDialplan', 'StasisStart', 'Dial:', 'State:Up', 'Dial:ANSWER']);
  await hangupAndWait(ctx.t, ctx.ev, 'ep-cr');

  // Without n, a channel whose application connected before the dial is answered by the dial.
  const c = await create({ endpoint: 'WebSocket/INCOMING', channelId: 'ep-cr2' });
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ep-cr2');
  const p2 = await openMedia(ctx.t.url, c.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID);
  await p2.textsAtLeast(1);
  assert.is((await ctx.t.http('POST', '/ari/channels/ep-cr2/dial')).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'ep-cr2' && e.dialstatus === 'ANSWER');
  assert.equal(eventSequence(ctx.ev, 'ep-cr2'), ['ChannelDialplan', 'StasisStart', 'Dial:', 'State:Up', 'Dial:ANSWER']);
  assert.ok((await p2.nextAudio(2)).every((f) => f.length === 160), 'ulaw, the first default format');
  await hangupAndWait(ctx.t, ctx.ev, 'ep-cr2');
});

test('bad WebSocket endpoints: 400 with the texts on originate and create, and no channel is made', async () => {
  const cases: Array<[string, string]> = [
    ['WebSocket/missing', 'WebSocket client connection \'missing\' not found'],
    ['WebSocket/INCOMING/x', '\'WebSocket\' channel options \'x\' parse error'],
    ['WebSocket/INCOMING/c(ulaw', '\'WebSocket\' channel options \'c(ulaw\' parse error'],
    ['WebSocket/INCOMING/v(a=b)', 'URI parameters are not allowed for \'WebSocket/INCOMING\' channels'],
    ['WebSocket/INCOMING/c(mp3)', 'Provided format (mp3) was not found'],
    ['WebSocket/INCOMING/c(wav)', 'Format wav cannot be carried over a media WebSocket (ulaw, alaw, slin or slin16)'],
  ];
  for (const [endpoint, message] of cases) {
    for (const [name, call] of [['originate', originate], ['create', create]] as const) {
      const r = await call({ endpoint });
      assert.equal([r.status, r.body], [400, { message }], `${name} ${endpoint}`);
    }
  }
  const wav = await originate({ endpoint: 'WebSocket/INCOMING', formats: 'wav' });
  assert.equal([wav.status, wav.body], [400, { message: 'Format wav cannot be carried over a media WebSocket (ulaw, alaw, slin or slin16)' }]);
  assert.equal((await ctx.t.http('GET', '/ari/channels')).body, []);
});

test('restart: media WebSocket channels (server, client, externalMedia) are hung up when restored (cause 38), their sockets were closed going away, and nothing is reopened', async () => {
  const t1 = await startTestServer(env);
  let t2: Awaited<ReturnType<typeof startTestServer>> | undefined;
  try {
    const ev = await connectEvents(t1.url, 'rs');
    const inc = await t1.http('POST', '/ari/channels', { query: { endpoint: 'WebSocket/INCOMING/c(slin)', app: 'rs', channelId: 'rs-in' } });
    const cid = inc.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID;
    const incoming = await openMedia(t1.url, cid);
    const before = appServer.peers.length;
    assert.is((await t1.http('POST', '/ari/channels', { query: { endpoint: 'WebSocket/bot', app: 'rs', channelId: 'rs-out' } })).status, 200);
    const em = await t1.http('POST', '/ari/channels/externalMedia', { query: { app: 'rs', encapsulation: 'none', transport: 'websocket', connection_type: 'server', format: 'ulaw', channelId: 'rs-em' } });
    const emPeer = await openMedia(t1.url, em.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID);
    for (const id of ['rs-in', 'rs-out', 'rs-em']) await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
    const outgoing = appServer.peers[before]!;
    await ev.close();
    t1.assertNoViolations();
    await t1.close({ keepData: true });
    // Stopping is going away for every media socket, ours and the application's.
    assert.equal([await incoming.closed(), await outgoing.closed(), await emPeer.closed()], [1001, 1001, 1001]);

    t2 = await startTestServer(env, t1.dataDir);
    assert.equal((await t2.http('GET', '/ari/channels')).body, []);
    const history = (await t2.http('GET', '/sim/history')).body as Array<{ id: string; cause: number; cause_txt: string }>;
    for (const id of ['rs-in', 'rs-out', 'rs-em']) {
      const rec = history.find((h) => h.id === id);
      assert.equal([rec?.cause, rec?.cause_txt], [38, 'Network out of order'], id);
    }
    assert.is((await refusedUpgrade(`${t2.url.replace(/^http/, 'ws')}/media/${cid}`)).status, 404);
    assert.is(appServer.peers.length, before + 1, 'no client connection was opened again');
    t2.assertNoViolations();
  } finally {
    await t2?.close();
  }
});

test.run();
