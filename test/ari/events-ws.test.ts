import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { createInApp, eventSequence, hangupAndWait } from '../_helpers/ari.js';
import { connectEvents, EventLog, sleep, waitUntil, WAIT_MS } from '../_helpers/events.js';
import { openSocket as open } from '../_helpers/open-socket.js';
import { refusedUpgrade as refused } from '../_helpers/refused-upgrade.js';
import { BACKLOG_ENV, BACKLOG_EVENTS, readAgain, setBigVariables, stopReading } from '../_helpers/backlog.js';
import { basicAuth } from '../_helpers/request.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { useTestServer } from '../_helpers/use-test-server.js';
import { socketClosed as closed } from '../_helpers/socket-closed.js';

const test = suite('events-ws');
let t: TestServer;
let ev: EventLog;
/** Every event log opened on the main server, with the apps it serves (checked for the envelope at the end). */
const logs: Array<{ log: EventLog; apps: string[] }> = [];

useTestServer(test, {}, {
  async open(server) {
    t = server;
    ev = await connectEvents(t.url, 'app1');
    logs.push({ log: ev, apps: ['app1'] });
    return {};
  },
  async close() {
    for (const { log } of logs) await log.close();
  },
});

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/;
const EID = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/;

function eventsUrl(base: string, query: Record<string, string>): string {
  return `${base.replace(/^http/, 'ws')}/ari/events?${new URLSearchParams(query)}`;
}

async function connect(apps: string | string[], opts: { subscribeAll?: boolean; auth?: string } = {}): Promise<EventLog> {
  const log = await connectEvents(t.url, apps, opts);
  logs.push({ log, apps: ([] as string[]).concat(apps) });
  return log;
}

test('wrong or missing credentials: HTTP 401 before the upgrade, with WWW-Authenticate', async () => {
  const cases: Array<[string, string, Record<string, string>]> = [
    ['wrong api_key', eventsUrl(t.url, { app: 'app-x', api_key: 'asterisk:wrong' }), {}],
    ['unknown user', eventsUrl(t.url, { app: 'app-x', api_key: 'mallory:asterisk' }), {}],
    ['no credentials', eventsUrl(t.url, { app: 'app-x' }), {}],
    ['wrong Basic header', eventsUrl(t.url, { app: 'app-x' }), { authorization: basicAuth('asterisk:nope') }],
  ];
  for (const [name, url, headers] of cases) {
    const r = await refused(url, headers);
    assert.is(r.status, 401, name);
    assert.is(r.headers['www-authenticate'], 'Basic realm="Asterisk REST Interface"', name);
    assert.equal(r.body, { message: 'Authentication required' }, name);
  }
  // Nothing was registered.
  assert.is((await t.http('GET', '/ari/applications/app-x')).status, 404);
});

test('a Basic Authorization header works as well as api_key', async () => {
  const ws = await open(eventsUrl(t.url, { app: 'basic-app' }), { headers: { authorization: basicAuth('asterisk:asterisk') } });
  const log = new EventLog(ws);
  logs.push({ log, apps: ['basic-app'] });
  await createInApp(t, log, { app: 'basic-app', id: 'ws-basic' });
  await hangupAndWait(t, log, 'ws-basic');
});

test('a read-only user (viewer) may connect and receives the events of an app a read-write socket serves', async () => {
  // Read-only sockets only watch (app-takeover.test.ts has the rest): the app needs a read-write socket to exist.
  const owner = await connect('ro-app');
  const log = await connect('ro-app', { auth: 'viewer:secret-viewer' });
  await createInApp(t, log, { app: 'ro-app', id: 'ws-ro' });
  await hangupAndWait(t, log, 'ws-ro');
  assert.equal(log.types('ws-ro'), owner.types('ws-ro'));
});

test('missing app is HTTP 400 before the upgrade', async () => {
  const queries: Array<Record<string, string>> = [{ api_key: 'asterisk:asterisk' }, { api_key: 'asterisk:asterisk', app: '' }, { api_key: 'asterisk:asterisk', app: ' , ' }];
  for (const query of queries) {
    const r = await refused(eventsUrl(t.url, query));
    assert.is(r.status, 400, JSON.stringify(query));
    // Asterisk answers with ast_http_error(400, "Missing param 'app'"); we check that the message names the parameter.
    assert.match(r.body?.message, /\bapp\b/);
  }
});

test('app list "a, b" (comma and spaces) subscribes both apps on one socket', async () => {
  const ws = await open(eventsUrl(t.url, { app: 'ws-a, ws-b', api_key: 'asterisk:asterisk' }));
  const log = new EventLog(ws);
  logs.push({ log, apps: ['ws-a', 'ws-b'] });
  assert.is((await t.http('GET', '/ari/applications/ws-a')).status, 200);
  assert.is((await t.http('GET', '/ari/applications/ws-b')).status, 200);
  assert.is((await t.http('GET', `/ari/applications/${encodeURIComponent(' ws-b')}`)).status, 404);
  await createInApp(t, log, { app: 'ws-a', id: 'ws-in-a' });
  await createInApp(t, log, { app: 'ws-b', id: 'ws-in-b' });
  assert.is(log.of('ws-in-a').find((e) => e.type === 'StasisStart')!.application, 'ws-a');
  assert.is(log.of('ws-in-b').find((e) => e.type === 'StasisStart')!.application, 'ws-b');
  await hangupAndWait(t, log, 'ws-in-a');
  await hangupAndWait(t, log, 'ws-in-b');
});

test('a second socket for the same app: the first gets ApplicationReplaced and nothing more for it; the second gets the events', async () => {
  // The first socket also serves a marker app, so its later events prove everything before them arrived.
  const first = await connect(['rep', 'rep-marker']);
  const second = await connect('rep');
  const replaced = await first.waitFor('ApplicationReplaced');
  assert.equal(Object.keys(replaced).sort(), ['application', 'asterisk_id', 'timestamp', 'type']);
  assert.is(replaced.application, 'rep');
  assert.match(replaced.timestamp, TS);
  assert.match(replaced.asterisk_id, EID);
  assert.not.ok(second.events.some((e) => e.type === 'ApplicationReplaced'));

  await createInApp(t, second, { app: 'rep', id: 'ws-rep' });
  assert.is((await t.http('POST', '/ari/channels/ws-rep/variable', { query: { variable: 'X', value: '1' } })).status, 204);
  await second.waitFor((e) => e.type === 'ChannelVarset' && e.channel?.id === 'ws-rep');
  await hangupAndWait(t, second, 'ws-rep');
  // The first socket is still open and still serves its other app.
  await createInApp(t, first, { app: 'rep-marker', id: 'ws-marker' });
  await hangupAndWait(t, first, 'ws-marker');
  assert.is(first.closed, undefined);
  assert.equal(first.of('ws-rep'), []);
  assert.equal(first.events.filter((e) => e.application === 'rep').map((e) => e.type), ['ApplicationReplaced']);
});

test('closing the socket deactivates the app: an originate into it never reaches StasisStart and is hung up after answer', async () => {
  const watch = await connect('ws-watch-close', { subscribeAll: true });
  const gone = await connectEvents(t.url, 'ws-gone');
  assert.is((await t.http('GET', '/ari/applications/ws-gone')).status, 200);
  await gone.close();
  // The server notices the close on its own schedule.
  await waitUntil(async () => (await t.http('GET', '/ari/applications/ws-gone')).status === 404, 'ws-gone is gone');
  const r = await t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'ws-gone', channelId: 'ws-orphan' } });
  assert.is(r.status, 200);
  await watch.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'ws-orphan');
  const types = eventSequence(watch, 'ws-orphan');
  assert.ok(types.includes('Dial:ANSWER'), types.join());
  assert.ok(types.indexOf('Dial:ANSWER') < types.indexOf('ChannelDestroyed'));
  assert.not.ok(types.includes('StasisStart'));
  assert.not.ok(types.includes('StasisEnd'));
  assert.equal(gone.events.filter((e) => e.channel?.id === 'ws-orphan' || e.peer?.id === 'ws-orphan'), []);
});

test('subscribeAll=true gets ChannelCreated for every new channel; an app without it does not', async () => {
  const all = await connect('ws-all', { subscribeAll: true });
  const o = await t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'app1', channelId: 'ws-sa-1' } });
  assert.is(o.status, 200);
  const created = await all.waitFor((e) => e.type === 'ChannelCreated' && e.channel?.id === 'ws-sa-1');
  assert.is(created.application, 'ws-all');
  assert.is(created.channel!.state, 'Down');
  // A call nobody originated (an inbound call running the dialplan) too.
  const inbound = await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/bob', extension: '2000', channelId: 'ws-sa-2' } });
  assert.is(inbound.status, 200);
  await all.waitFor((e) => e.type === 'ChannelCreated' && e.channel?.id === 'ws-sa-2');
  // app1 originated ws-sa-1 and received its StasisStart, which left after any ChannelCreated would have.
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ws-sa-1');
  assert.not.ok(ev.events.some((e) => e.type === 'ChannelCreated'));
  // subscribeAll also gets the rest of the channel's events (on its own socket: wait there, sockets are not ordered against each other).
  await all.waitFor((e) => e.type === 'Dial' && e.dialstatus === 'ANSWER' && e.peer?.id === 'ws-sa-1');
  await hangupAndWait(t, ev, 'ws-sa-1');
  await hangupAndWait(t, all, 'ws-sa-2');
  assert.not.ok(ev.events.some((e) => e.channel?.id === 'ws-sa-2'));
});

test('frames from the client over WS_MAX_PAYLOAD close the socket with 1009; smaller ones are answered (rest-over-ws.test.ts)', async () => {
  const ws = await open(eventsUrl(t.url, { app: 'ws-big', api_key: 'asterisk:asterisk' }));
  const log = new EventLog(ws);
  ws.send('x'.repeat(1000));
  await createInApp(t, log, { app: 'ws-big', id: 'ws-big-ch' });
  assert.is(ws.readyState, WebSocket.OPEN);
  const done = closed(ws);
  ws.send('x'.repeat(65536 + 1));
  const c = await done;
  assert.is(c.code, 1009);
  await t.http('DELETE', '/ari/channels/ws-big-ch');
});

test('heartbeat: the server pings (WS_PING_INTERVAL_MS); a client that answers stays connected', async () => {
  const hb = await startTestServer({ WS_PING_INTERVAL_MS: '200' });
  try {
    const ws = await open(eventsUrl(hb.url, { app: 'hb', api_key: 'asterisk:asterisk' }));
    let pings = 0;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${pings} pings`)), WAIT_MS);
      ws.on('ping', () => {
        if (++pings === 3) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    assert.is(ws.readyState, WebSocket.OPEN);
    assert.is((await hb.http('GET', '/ari/applications/hb')).status, 200);
    const done = closed(ws);
    ws.close();
    await done;
    hb.assertNoViolations();
  } finally {
    await hb.close();
  }
});

test('heartbeat: a client that never answers pings is terminated and its app deactivated', async () => {
  const hb = await startTestServer({ WS_PING_INTERVAL_MS: '200' });
  try {
    // ws ≥ 8.16: autoPong=false stops the automatic pong.
    const ws = await open(eventsUrl(hb.url, { app: 'mute', api_key: 'asterisk:asterisk' }), { autoPong: false });
    let pings = 0;
    ws.on('ping', () => pings++);
    const c = await closed(ws);
    assert.ok(pings >= 1, 'was pinged first');
    assert.is(c.code, 1006, 'terminated, no close handshake');
    await waitUntil(async () => (await hb.http('GET', '/ari/applications/mute')).status === 404, 'mute is gone');
    hb.assertNoViolations();
  } finally {
    await hb.close();
  }
});

test('slow consumer: a socket that stops reading is closed once WS_MAX_BUFFERED_BYTES is exceeded; other consumers keep receiving', async () => {
  const sc = await startTestServer(BACKLOG_ENV);
  try {
    const slowWs = await open(eventsUrl(sc.url, { app: 'slow', api_key: 'asterisk:asterisk' }));
    const slow = new EventLog(slowWs);
    const fast = await connectEvents(sc.url, 'fast');
    await createInApp(sc, slow, { app: 'slow', id: 'slow-ch' });
    const sub = await sc.http('POST', '/ari/applications/fast/subscription', { query: { eventSource: 'channel:slow-ch' } });
    assert.is(sub.status, 200);
    stopReading(slowWs);
    const N = BACKLOG_EVENTS;
    await setBigVariables(sc, 'slow-ch');
    // The fast consumer got every one of them.
    const got = await fast.waitForCount((e) => e.type === 'ChannelVarset' && e.channel?.id === 'slow-ch', N);
    assert.equal(got.map((e) => e.value.slice(0, e.value.indexOf(':'))), Array.from({ length: N }, (_, i) => String(i)));
    // The slow one was cut off: once it reads again it finds the connection closed.
    const done = closed(slowWs);
    readAgain(slowWs);
    await done;
    const seen = slow.events.filter((e) => e.type === 'ChannelVarset').length;
    assert.ok(seen < N, `the slow consumer was dropped (it saw ${seen} of ${N})`);
    // The fast consumer is still connected and still receiving.
    assert.is(fast.closed, undefined);
    assert.is((await sc.http('POST', '/ari/channels/slow-ch/variable', { query: { variable: 'SMALL', value: 'ok' } })).status, 204);
    await fast.waitFor((e) => e.type === 'ChannelVarset' && e.variable === 'SMALL');
    await fast.close();
    sc.assertNoViolations();
  } finally {
    await sc.close();
  }
});

test('every event carries type, timestamp (YYYY-MM-DDTHH:MM:SS.mmm+0000), asterisk_id and its application', async () => {
  const info = await t.http('GET', '/ari/asterisk/info', { query: { only: 'system' } });
  const eid = info.body.system.entity_id;
  assert.match(eid, EID);
  let count = 0;
  for (const { log, apps } of logs) {
    for (const e of log.events) {
      count++;
      assert.type(e.type, 'string');
      assert.match(e.timestamp, TS, `${e.type} timestamp`);
      assert.is(e.asterisk_id, eid, `${e.type} asterisk_id`);
      assert.ok(apps.includes(e.application), `${e.type} application ${e.application} not one of ${apps.join()}`);
    }
  }
  assert.ok(count > 50, `checked ${count} events`);
});

test.run();
