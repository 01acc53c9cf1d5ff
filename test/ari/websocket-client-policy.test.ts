import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocketServer } from 'ws';
import { eventSequence } from '../_helpers/ari.js';
import { connectEvents, type EventLog } from '../_helpers/events.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { waitUntil } from '../_helpers/wait.js';
import { startWsPeer, type WsPeer } from '../_helpers/ws-peer.js';

// Every WebSocket the server opens keeps to one address policy under one switch,
// WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS: the outbound ARI connections and the chan_websocket media
// client. Both peers here listen on loopback and are named `localhost`, so the name is resolved and
// every address it gives is checked before anything is dialed.

const test = suite('websocket-client-policy');

/** The voice bot's side of media connections: it only counts the upgrades it accepts (audio frames are not JSON). */
interface MediaPeer { port: number; urls: string[]; close(): Promise<void> }
async function mediaPeer(): Promise<MediaPeer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const urls: string[] = [];
  wss.on('connection', (ws, req) => {
    ws.on('error', () => {});
    urls.push(req.url ?? '');
  });
  return {
    port: (wss.address() as AddressInfo).port,
    urls,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
    },
  };
}

const started: Array<TestServer | WsPeer | EventLog | MediaPeer> = [];
test.after.each(async () => {
  for (const x of started.splice(0).reverse()) {
    if ('assertNoViolations' in x) x.assertNoViolations();
    await x.close();
  }
});

/** A server whose outbound ARI connection and media client both point at `peer` through the name localhost. */
async function world(env: Record<string, string>): Promise<{ t: TestServer; p: WsPeer; m: MediaPeer; ev: EventLog }> {
  const p = await startWsPeer();
  const m = await mediaPeer();
  started.push(p, m);
  const t = await startTestServer({
    ARI_OUTBOUND_WEBSOCKETS: JSON.stringify({ conn1: { uri: `ws://localhost:${p.port}/ari`, connection_type: 'persistent', apps: 'obpol', local_ari_user: 'asterisk', reconnect_interval: 20 } }),
    MEDIA_WEBSOCKET_CLIENTS: JSON.stringify({ bot: { uri: `ws://localhost:${m.port}/media` } }),
    ...env,
  });
  started.push(t);
  const ev = await connectEvents(t.url, 'app1');
  started.push(ev);
  return { t, p, m, ev };
}

const mediaClient = (t: TestServer, channelId: string) =>
  t.http('POST', '/ari/channels/externalMedia', { query: { app: 'app1', encapsulation: 'none', transport: 'websocket', external_host: 'bot', format: 'ulaw', channelId } });

test('switch off: the outbound ARI connection is refused and never dialed; the media client fails its dial (CHANUNAVAIL)', async () => {
  const { t, p, m, ev } = await world({});
  await waitUntil(() => t.logs.some((l) => l.includes('"connection":"conn1"') && l.includes('refused by the outbound address policy')), 'the outbound connection is refused');
  const r = await mediaClient(t, 'pol-media');
  assert.is(r.status, 200, r.text);
  const destroyed = await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'pol-media');
  assert.is(destroyed.cause, 3);
  assert.equal(eventSequence(ev, 'pol-media'), ['Dial:', 'Dial:CHANUNAVAIL', 'ChannelDestroyed']);
  assert.ok(t.logs.some((l) => /websocket_client address (127\.0\.0\.1|::1) is a loopback address \(WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS is off\)/.test(l)), 'the media refusal is logged with its reason');
  assert.is(p.upgrades.length, 0);
  assert.equal(m.urls, []);
});

test('switch on (the unified name): both connect to the same loopback peer', async () => {
  const { t, p, m, ev } = await world({ WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS: 'true' });
  const c = await p.connection(0);
  assert.is(c.req.url, '/ari');
  await c.log.waitFor((e) => e.type === 'ApplicationRegistered' && e.application === 'obpol');
  const r = await mediaClient(t, 'pol-media-ok');
  assert.is(r.status, 200, r.text);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'pol-media-ok');
  assert.equal(m.urls, ['/media']);
  assert.is((await t.http('DELETE', '/ari/channels/pol-media-ok')).status, 204);
  await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'pol-media-ok');
});

test('an old name still works as an alias, for both kinds of connection', async () => {
  const { t, p, m, ev } = await world({ MEDIA_WEBSOCKET_ALLOW_LOOPBACK: 'true' });
  await (await p.connection(0)).log.waitFor((e) => e.type === 'ApplicationRegistered');
  assert.is((await mediaClient(t, 'pol-alias')).status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'pol-alias');
  assert.equal(m.urls, ['/media']);
  assert.is((await t.http('DELETE', '/ari/channels/pol-alias')).status, 204);
  await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'pol-alias');
});

test.run();
