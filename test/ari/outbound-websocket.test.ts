import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInApp, eventLabel, eventSequence, hangupAndWait } from '../_helpers/ari.js';
import { connectEvents, type AriEvent, type EventLog } from '../_helpers/events.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { socketClosed } from '../_helpers/socket-closed.js';
import { waitUntil } from '../_helpers/wait.js';
import { startWsPeer, type PeerConnection, type WsPeer } from '../_helpers/ws-peer.js';

// ARI outbound WebSockets (Asterisk 20.15 / 22.5): the server connects out to an application's
// WebSocket server (ARI_OUTBOUND_WEBSOCKETS), says ApplicationRegistered for each application, carries
// their events exactly as /ari/events does and runs the RESTRequests the application sends. The peer in
// these tests is a real WebSocket server (ws) on 127.0.0.1.

const test = suite('outbound-websocket');

const PASSWORD = 'pa:ss w0rd-outbound';
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/;

/** Servers and peers a test started, stopped after it whatever happened. */
const started: Array<TestServer | WsPeer | EventLog> = [];
test.after.each(async () => {
  for (const x of started.splice(0).reverse()) {
    if ('assertNoViolations' in x) {
      x.assertNoViolations();
      await x.close();
    } else await x.close();
  }
});

async function peer(answer?: Parameters<typeof startWsPeer>[0]): Promise<WsPeer> {
  const p = await startWsPeer(answer);
  started.push(p);
  return p;
}

/** A server with these outbound connections (loopback allowed unless `env` says otherwise). */
async function server(connections: Record<string, unknown>, env: Record<string, string> = {}): Promise<TestServer> {
  const t = await startTestServer({ ARI_OUTBOUND_WEBSOCKETS: JSON.stringify(connections), ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS: 'true', ...env });
  started.push(t);
  return t;
}

async function watch(t: TestServer): Promise<EventLog> {
  const log = await connectEvents(t.url, 'watch', { subscribeAll: true });
  started.push(log);
  return log;
}

let seq = 0;
/** Sends a RESTRequest from the peer; resolves with its RESTResponse. */
function rest(c: PeerConnection, method: string, uri: string, extra: Record<string, unknown> = {}): Promise<AriEvent> {
  const request_id = `ob-${++seq}`;
  c.ws.send(JSON.stringify({ type: 'RESTRequest', request_id, method, uri, ...extra }));
  return c.log.waitFor((e) => e.type === 'RESTResponse' && e.request_id === request_id);
}

/** Frames of a connection as `type:application` labels. */
const appLabels = (log: EventLog) => log.events.map((e) => `${e.type}:${e.application}`);

const persistent = (p: WsPeer, extra: Record<string, unknown> = {}) => ({
  uri: p.url('/ari-app?tenant=1'), connection_type: 'persistent', apps: 'obapp1, obapp2', local_ari_user: 'asterisk',
  username: 'bot', password: PASSWORD, reconnect_interval: 20, ...extra,
});

test('persistent: the upgrade carries the subprotocol and Basic credentials; ApplicationRegistered for each app, then its events as on /ari/events', async () => {
  const p = await peer();
  const t = await server({ conn1: persistent(p) });
  const c = await p.connection(0);
  assert.is(c.req.url, '/ari-app?tenant=1');
  assert.is(c.req.headers['sec-websocket-protocol'], 'ari');
  assert.is(c.req.headers.authorization, `Basic ${Buffer.from(`bot:${PASSWORD}`).toString('base64')}`);
  const registered = await c.log.waitForCount('ApplicationRegistered', 2);
  for (const e of registered) {
    const { timestamp, asterisk_id, ...rest } = e;
    assert.match(timestamp, TIMESTAMP);
    assert.type(asterisk_id, 'string');
    assert.equal(Object.keys(rest).sort(), ['application', 'type']);
  }
  assert.equal(appLabels(c.log), ['ApplicationRegistered:obapp1', 'ApplicationRegistered:obapp2']);
  // The apps are registered as any app with a socket is.
  assert.is((await t.http('GET', '/ari/applications/obapp2')).status, 200);

  // The same calls on an inbound socket's app and on the outbound one give the same event sequence.
  const inbound = await connectEvents(t.url, 'inapp');
  started.push(inbound);
  for (const [log, app, id] of [[c.log, 'obapp1', 'ob-out'], [inbound, 'inapp', 'ob-in']] as const) {
    await createInApp(t, log, { app, id });
    await t.http('POST', `/ari/channels/${id}/variable`, { query: { variable: 'X', value: '1' } });
    await hangupAndWait(t, log, id);
  }
  assert.equal(eventSequence(c.log, 'ob-out'), eventSequence(inbound, 'ob-in'));
  assert.equal(eventSequence(c.log, 'ob-out'), ['ChannelDialplan', 'StasisStart', 'ChannelVarset', 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
  assert.ok(c.log.of('ob-out').every((e) => e.application === 'obapp1'));
  // The credentials are never logged.
  assert.not.ok(t.logs.some((l) => l.includes(PASSWORD) || l.includes(Buffer.from(`bot:${PASSWORD}`).toString('base64'))));
});

test('persistent: a RESTRequest runs as local_ari_user and its RESTResponse comes before the events it causes', async () => {
  const p = await peer();
  await server({ rw: persistent(p), ro: { ...persistent(p), apps: 'roapp', local_ari_user: 'viewer' } });
  const rw = await findConnection(p, 'obapp1');
  const ro = await findConnection(p, 'roapp');
  const created = rest(rw, 'POST', 'channels/create', { query_strings: [{ name: 'endpoint', value: 'PJSIP/alice' }, { name: 'app', value: 'obapp1' }, { name: 'channelId', value: 'ob-rest' }] });
  const r = await created;
  assert.is(r.status_code, 200);
  assert.is(r.application, 'obapp1');
  assert.is(JSON.parse(r.message_body).id, 'ob-rest');
  await rw.log.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ob-rest');
  const after = rw.log.events.filter((e) => e.type === 'RESTResponse' || e.channel?.id === 'ob-rest').map((e) => e.type);
  assert.equal(after, ['RESTResponse', 'ChannelDialplan', 'StasisStart']);

  // The read-only user's connection reads, but writes are refused as over HTTP.
  const get = await rest(ro, 'GET', 'channels/ob-rest');
  assert.is(get.status_code, 200);
  const del = await rest(ro, 'DELETE', 'channels/ob-rest');
  assert.equal([del.status_code, del.application, JSON.parse(del.message_body)], [403, 'roapp', { message: 'Write access denied' }]);
  const hang = await rest(rw, 'DELETE', 'channels/ob-rest');
  assert.is(hang.status_code, 204);
  await rw.log.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'ob-rest');
});

/** The connection whose ApplicationRegistered names `app`. */
async function findConnection(p: WsPeer, app: string): Promise<PeerConnection> {
  let found: PeerConnection | undefined;
  await waitUntil(() => (found = p.connections.find((c) => c.log.events.some((e) => e.type === 'ApplicationRegistered' && e.application === app))) !== undefined, `a connection registers ${app}`);
  return found!;
}

test('persistent: when the peer closes, the server reconnects and registers the apps again; events go to the new connection', async () => {
  const p = await peer();
  const t = await server({ conn1: persistent(p) });
  const first = await p.connection(0);
  await first.log.waitForCount('ApplicationRegistered', 2);
  first.ws.close(1000, 'bye');
  const second = await p.connection(1);
  await second.log.waitForCount('ApplicationRegistered', 2);
  assert.equal(appLabels(second.log), ['ApplicationRegistered:obapp1', 'ApplicationRegistered:obapp2']);
  assert.is(second.req.headers.authorization, first.req.headers.authorization);
  await createInApp(t, second.log, { app: 'obapp2', id: 'ob-again' });
  await hangupAndWait(t, second.log, 'ob-again');
  assert.equal(eventSequence(second.log, 'ob-again'), ['ChannelDialplan', 'StasisStart', 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
  assert.equal(first.log.of('ob-again'), []);
});

test('persistent: the apps exist before the peer is reachable; the connection is tried every reconnect_interval until it opens', async () => {
  // A peer that refuses the first upgrades (503) and accepts the third.
  let n = 0;
  const p = await peer(() => (++n <= 2 ? 'HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n' : undefined));
  const t = await server({ conn1: persistent(p) });
  assert.is((await t.http('GET', '/ari/applications/obapp1')).status, 200);
  const c = await p.connection(0);
  await c.log.waitForCount('ApplicationRegistered', 2);
  assert.is(p.upgrades.length, 3);
  assert.ok(t.logs.some((l) => l.includes('upgrade answered with status 503')));
});

test('per_call_config: Stasis() opens a connection for the call, app <app>:<channel name>; it closes (1000) when Stasis returns', async () => {
  const p = await peer();
  const t = await server({ pc: { uri: p.url('/per-call'), connection_type: 'per_call_config', apps: ['pcapp'], local_ari_user: 'asterisk', reconnect_interval: 20 } });
  const all = await watch(t);
  assert.is((await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: 'pc-1' }, json: { variables: { STASIS_APP: 'pcapp' } } })).status, 200);
  const c = await p.connection(0);
  const start = await c.log.waitFor('StasisStart');
  const name = start.channel!.name;
  const instance = `pcapp:${name}`;
  assert.equal(appLabels(c.log), [`ApplicationRegistered:${instance}`, `StasisStart:${instance}`]);
  assert.equal(start.args, ['1000']);
  assert.equal(start.channel!.dialplan, { context: 'default', exten: '1000', priority: 2, app_name: 'Stasis', app_data: 'pcapp,1000' });
  assert.is((await t.http('GET', `/ari/applications/${encodeURIComponent(instance)}`)).status, 200);

  // Continue from the connection itself: StasisEnd goes out on it, then it closes.
  const closed = socketClosed(c.ws);
  const r = await rest(c, 'POST', 'channels/pc-1/continue', { query_strings: [{ name: 'context', value: 'default' }, { name: 'extension', value: 'after-stasis' }, { name: 'priority', value: '1' }] });
  assert.is(r.status_code, 204);
  assert.is(r.application, instance);
  assert.equal((await closed).code, 1000);
  assert.equal(c.log.events.map((e) => e.type), ['ApplicationRegistered', 'StasisStart', 'RESTResponse', 'StasisEnd']);
  await all.waitFor((e) => e.type === 'ChannelVarset' && e.variable === 'AFTER' && e.channel?.id === 'pc-1');
  await waitUntil(async () => (await t.http('GET', `/ari/applications/${encodeURIComponent(instance)}`)).status === 404, 'the per-call app is gone');
  assert.is(p.connections.length, 1);
  await hangupAndWait(t, all, 'pc-1');
});

test('per_call_config: a hangup while in Stasis closes the call\'s connection after StasisEnd; each call gets its own', async () => {
  const p = await peer();
  const t = await server({ pc: { uri: p.url(), connection_type: 'per_call_config', apps: 'pcapp', local_ari_user: 'asterisk' } });
  const all = await watch(t);
  for (const id of ['pc-a', 'pc-b']) {
    await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/bob', extension: '1000', channelId: id }, json: { variables: { STASIS_APP: 'pcapp' } } });
  }
  const a = await p.connection(0);
  const b = await p.connection(1);
  await a.log.waitFor('StasisStart');
  await b.log.waitFor('StasisStart');
  const ids = [a, b].map((c) => c.log.events.find((e) => e.type === 'StasisStart')!.channel!.id).sort();
  assert.equal(ids, ['pc-a', 'pc-b']);
  for (const c of [a, b]) {
    const id = c.log.events.find((e) => e.type === 'StasisStart')!.channel!.id;
    const closed = socketClosed(c.ws);
    await hangupAndWait(t, all, id);
    assert.equal((await closed).code, 1000);
    assert.equal(c.log.events.map(eventLabel), ['ApplicationRegistered', 'StasisStart', 'ChannelHangupRequest', 'StasisEnd']);
  }
});

test('per_call_config: originating into the app opens a connection for the new channel; originating into <app>:<channel name> uses the existing one', async () => {
  const p = await peer();
  const t = await server({ pc: { uri: p.url(), connection_type: 'per_call_config', apps: 'pcapp', local_ari_user: 'asterisk' } });
  assert.is((await t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'pcapp', channelId: 'pc-orig' } })).status, 200);
  const c = await p.connection(0);
  const start = await c.log.waitFor('StasisStart');
  const instance = `pcapp:${start.channel!.name}`;
  assert.equal(appLabels(c.log), [`ApplicationRegistered:${instance}`, `StasisStart:${instance}`]);
  // A second channel for the same connection: named with the full per-call app, it joins it.
  const r = await rest(c, 'POST', 'channels', { query_strings: [{ name: 'endpoint', value: 'PJSIP/instant' }, { name: 'app', value: instance }, { name: 'channelId', value: 'pc-orig-2' }] });
  assert.is(r.status_code, 200);
  await c.log.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'pc-orig-2');
  assert.is(p.connections.length, 1);
  await hangupAndWait(t, c.log, 'pc-orig-2');
  const closed = socketClosed(c.ws);
  await t.http('DELETE', '/ari/channels/pc-orig');
  assert.equal((await closed).code, 1000);
  // The Dial events before the answer went to `pcapp`, which no socket serves; the connection sees the call from StasisStart on.
  assert.equal(eventSequence(c.log, 'pc-orig'), ['StasisStart', 'ChannelHangupRequest', 'StasisEnd']);
});

test('per_call_config: when every attempt fails, STASISSTATUS=FAILED and the dialplan goes on', async () => {
  const gone = await startWsPeer();
  const url = gone.url();
  await gone.close();
  const t = await server({ pc: { uri: url, connection_type: 'per_call_config', apps: 'pcapp', local_ari_user: 'asterisk', reconnect_attempts: 2, reconnect_interval: 10 } });
  const all = await watch(t);
  await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: 'pc-fail' }, json: { variables: { STASIS_APP: 'pcapp' } } });
  await all.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'pc-fail');
  const labels = all.of('pc-fail').map((e) => (e.type === 'ChannelVarset' ? `Varset:${e.variable}=${e.value}` : e.type === 'ChannelDialplan' ? `Dialplan:${e.dialplan_app}` : eventLabel(e)));
  assert.equal(labels.slice(-4), ['Dialplan:Stasis', 'Varset:STASISSTATUS=FAILED', 'Dialplan:Hangup', 'ChannelDestroyed']);
  assert.is(t.logs.filter((l) => l.includes('outbound websocket connection failed')).length, 2);
});

test('per_call_config: after a restart, a channel still in its per-call application gets a connection again and can be controlled over it', async () => {
  const p = await peer();
  const connections = { pc: { uri: p.url(), connection_type: 'per_call_config', apps: 'pcapp', local_ari_user: 'asterisk', reconnect_interval: 20 } };
  const t = await server(connections);
  await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: 'pc-restart' }, json: { variables: { STASIS_APP: 'pcapp' } } });
  const before = await p.connection(0);
  const instance = (await before.log.waitFor('StasisStart')).application;
  const closed = socketClosed(before.ws);
  started.splice(started.indexOf(t), 1);
  t.assertNoViolations();
  await t.close({ keepData: true });
  assert.is((await closed).code, 1001);

  const again = await startTestServer({ ARI_OUTBOUND_WEBSOCKETS: JSON.stringify(connections), ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS: 'true' }, t.dataDir);
  started.push(again);
  const after = await p.connection(1);
  await after.log.waitFor('ApplicationRegistered');
  assert.equal(appLabels(after.log), [`ApplicationRegistered:${instance}`]);
  const closedAgain = socketClosed(after.ws);
  const r = await rest(after, 'DELETE', 'channels/pc-restart');
  assert.is(r.status_code, 204);
  assert.equal((await closedAgain).code, 1000);
  assert.equal(after.log.events.map(eventLabel), ['ApplicationRegistered', 'RESTResponse', 'ChannelHangupRequest', 'StasisEnd']);
});

test('per_call_config: a Stasis() still waiting for its connection when the server stopped runs again after the restart', async () => {
  // The peer leaves the first upgrade unanswered, and accepts once the server has restarted.
  let accept = false;
  const p = await peer(() => (accept ? undefined : null));
  const connections = { pc: { uri: p.url(), connection_type: 'per_call_config', apps: 'pcapp', local_ari_user: 'asterisk', connection_timeout: 60_000 } };
  const t = await server(connections);
  await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: 'pc-waiting' }, json: { variables: { STASIS_APP: 'pcapp' } } });
  await waitUntil(() => p.upgrades.length === 1, 'the first attempt reaches the peer');
  started.splice(started.indexOf(t), 1);
  t.assertNoViolations();
  await t.close({ keepData: true });

  accept = true;
  const again = await startTestServer({ ARI_OUTBOUND_WEBSOCKETS: JSON.stringify(connections), ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS: 'true' }, t.dataDir);
  started.push(again);
  const c = await p.connection(0);
  const start = await c.log.waitFor('StasisStart');
  assert.is(start.channel!.id, 'pc-waiting');
  assert.equal(start.args, ['1000']);
  assert.equal(appLabels(c.log), [`ApplicationRegistered:pcapp:${start.channel!.name}`, `StasisStart:pcapp:${start.channel!.name}`]);
  const closed = socketClosed(c.ws);
  await again.http('DELETE', '/ari/channels/pc-waiting');
  assert.equal((await closed).code, 1000);
});

test('subscribe_all: the connection also gets events of channels in no application of its own', async () => {
  const p = await peer();
  const t = await server({ all: persistent(p, { apps: 'oball', subscribe_all: true }) });
  const c = await p.connection(0);
  await c.log.waitFor('ApplicationRegistered');
  const other = await connectEvents(t.url, 'elsewhere');
  started.push(other);
  await createInApp(t, other, { app: 'elsewhere', id: 'ob-all' });
  await hangupAndWait(t, c.log, 'ob-all');
  assert.equal(eventSequence(c.log, 'ob-all'), ['ChannelCreated', 'ChannelDialplan', 'ChannelHangupRequest', 'ChannelDestroyed']);
});

test('an inbound socket for the same app takes it over (the connection is told ApplicationReplaced); a reconnection takes it back', async () => {
  const p = await peer();
  const t = await server({ conn1: persistent(p, { apps: 'obtake' }) });
  const first = await p.connection(0);
  await first.log.waitFor('ApplicationRegistered');
  const inbound = await connectEvents(t.url, 'obtake');
  started.push(inbound);
  await first.log.waitFor('ApplicationReplaced');
  first.ws.close();
  const second = await p.connection(1);
  await second.log.waitFor('ApplicationRegistered');
  await inbound.waitFor('ApplicationReplaced');
  assert.equal(appLabels(first.log), ['ApplicationRegistered:obtake', 'ApplicationReplaced:obtake']);
  await createInApp(t, second.log, { app: 'obtake', id: 'ob-back' });
  await hangupAndWait(t, second.log, 'ob-back');
  assert.equal(inbound.of('ob-back'), []);
});

test('per_call_config: an upgrade left unanswered fails after connection_timeout; reconnect_attempts bounds the tries', async () => {
  const p = await peer(() => null);
  const t = await server({ pc: { uri: p.url(), connection_type: 'per_call_config', apps: 'pcapp', local_ari_user: 'asterisk', connection_timeout: 100, reconnect_attempts: 3, reconnect_interval: 10 } });
  const all = await watch(t);
  await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: 'pc-slow' }, json: { variables: { STASIS_APP: 'pcapp' } } });
  const failed = await all.waitFor((e) => e.type === 'ChannelVarset' && e.variable === 'STASISSTATUS' && e.channel?.id === 'pc-slow');
  assert.is(failed.value, 'FAILED');
  assert.is(p.upgrades.length, 3);
  assert.is(p.connections.length, 0);
  assert.is(t.logs.filter((l) => l.includes('outbound websocket connection failed') && l.includes('"reason":"timed out"')).length, 3);
});

test('address policy: loopback is refused unless ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS; nothing is sent there', async () => {
  const p = await peer();
  const t = await server(
    { conn1: persistent(p), pc: { uri: p.url(), connection_type: 'per_call_config', apps: 'pcapp', local_ari_user: 'asterisk', reconnect_attempts: 1 } },
    { ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS: 'false' },
  );
  const all = await watch(t);
  await waitUntil(() => t.logs.some((l) => l.includes('refused by the outbound address policy') && l.includes('"connection":"conn1"')), 'the persistent connection is refused');
  await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: 'pol-1' }, json: { variables: { STASIS_APP: 'pcapp' } } });
  await all.waitFor((e) => e.type === 'ChannelVarset' && e.variable === 'STASISSTATUS' && e.channel?.id === 'pol-1');
  assert.is(all.of('pol-1').find((e) => e.type === 'ChannelVarset' && e.variable === 'STASISSTATUS')!.value, 'FAILED');
  assert.is(p.upgrades.length, 0);
  assert.not.ok(t.logs.some((l) => l.includes(PASSWORD)));
});

test('a redirect answer to the upgrade is not followed: the server tries the configured address again', async () => {
  const elsewhere = await peer();
  const p = await peer(() => `HTTP/1.1 302 Found\r\nLocation: ${elsewhere.url('/')}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  const t = await server({ conn1: persistent(p) });
  await waitUntil(() => p.upgrades.length >= 3, 'three attempts on the configured address');
  assert.is(elsewhere.upgrades.length, 0);
  assert.ok(t.logs.some((l) => l.includes('upgrade answered with status 302')));
});

test('shutdown: a persistent connection gets ApplicationUnregistered for each app, then closes with 1001', async () => {
  const p = await peer();
  const t = await server({ conn1: persistent(p) });
  const c = await p.connection(0);
  await c.log.waitForCount('ApplicationRegistered', 2);
  const closed = socketClosed(c.ws);
  started.splice(started.indexOf(t), 1);
  t.assertNoViolations();
  await t.close();
  assert.equal((await closed).code, 1001);
  assert.equal(appLabels(c.log).slice(2), ['ApplicationUnregistered:obapp1', 'ApplicationUnregistered:obapp2']);
});

test.run();
