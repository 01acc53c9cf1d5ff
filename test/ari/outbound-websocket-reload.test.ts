import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectEvents, type EventLog } from '../_helpers/events.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { socketClosed } from '../_helpers/socket-closed.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { waitUntil } from '../_helpers/wait.js';
import { startWsPeer, type WsPeer } from '../_helpers/ws-peer.js';

// Run-time reconfiguration of ARI outbound WebSockets: as Asterisk does on an ari.conf reload, a reload
// of res_ari (PUT /ari/asterisk/modules/res_ari.so) reads ARI_OUTBOUND_WEBSOCKETS_FILE again and applies
// the difference. The peers are real WebSocket servers on 127.0.0.1.

const test = suite('outbound-websocket-reload');

const started: Array<TestServer | WsPeer | EventLog> = [];
let dir = '';
test.before.each(() => {
  dir = tempDir('outbound-reload');
});
test.after.each(async () => {
  for (const x of started.splice(0).reverse()) {
    if ('assertNoViolations' in x) x.assertNoViolations();
    await x.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

async function peer(): Promise<WsPeer> {
  const p = await startWsPeer();
  started.push(p);
  return p;
}

const entry = (p: WsPeer, apps: string, extra: Record<string, unknown> = {}) => ({
  uri: p.url('/ari'), connection_type: 'persistent', apps, local_ari_user: 'asterisk', reconnect_interval: 20, ...extra,
});

/** A server reading its outbound connections from a file; `write` replaces the file's content. */
async function server(connections: Record<string, unknown>): Promise<{ t: TestServer; write: (c: Record<string, unknown> | string) => void }> {
  const file = join(dir, 'outbound.json');
  const write = (c: Record<string, unknown> | string) => writeFileSync(file, typeof c === 'string' ? c : JSON.stringify(c));
  write(connections);
  const t = await startTestServer({ ARI_OUTBOUND_WEBSOCKETS_FILE: file, WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS: 'true' });
  started.push(t);
  return { t, write };
}

const reload = async (t: TestServer) => assert.is((await t.http('PUT', '/ari/asterisk/modules/res_ari.so')).status, 204);
/** Frames of a connection as `type:application` labels. */
const labels = (log: EventLog) => log.events.map((e) => `${e.type}:${e.application}`);
const appNames = async (t: TestServer) => ((await t.http('GET', '/ari/applications')).body as Array<{ name: string }>).map((a) => a.name).sort();

test('apps added and removed on a kept connection, a removed connection, a new one: only the difference is applied', async () => {
  const [p, q, r] = [await peer(), await peer(), await peer()];
  const { t, write } = await server({ keep: entry(p, 'rl-a1, rl-a2'), gone: entry(q, 'rl-b1') });
  const kept = await p.connection(0);
  const removed = await q.connection(0);
  await kept.log.waitForCount('ApplicationRegistered', 2);
  await removed.log.waitFor('ApplicationRegistered');
  const removedClosed = socketClosed(removed.ws);
  write({ keep: entry(p, 'rl-a1, rl-a3'), fresh: entry(r, 'rl-c1') });
  await reload(t);
  // The kept connection stays open: it loses rl-a2 and gains rl-a3, nothing else.
  await kept.log.waitFor((e) => e.type === 'ApplicationRegistered' && e.application === 'rl-a3');
  assert.equal(labels(kept.log), ['ApplicationRegistered:rl-a1', 'ApplicationRegistered:rl-a2', 'ApplicationUnregistered:rl-a2', 'ApplicationRegistered:rl-a3']);
  // The removed one says so for its app and closes normally.
  assert.equal((await removedClosed).code, 1000);
  assert.equal(labels(removed.log), ['ApplicationRegistered:rl-b1', 'ApplicationUnregistered:rl-b1']);
  // The new one connects and registers its app.
  const fresh = await r.connection(0);
  await fresh.log.waitFor('ApplicationRegistered');
  assert.equal(labels(fresh.log), ['ApplicationRegistered:rl-c1']);
  assert.is(p.connections.length, 1);
  assert.equal(await appNames(t), ['rl-a1', 'rl-a3', 'rl-c1']);
});

test('a changed connection (its uri) is closed with 1000 and reconnected with the new settings; its apps register again', async () => {
  const p = await peer();
  const { t, write } = await server({ conn: entry(p, 'rl-d1') });
  const first = await p.connection(0);
  await first.log.waitFor('ApplicationRegistered');
  const closed = socketClosed(first.ws);
  write({ conn: { ...entry(p, 'rl-d1'), uri: p.url('/ari/v2'), username: 'bot', password: 'pw' } });
  await reload(t);
  assert.is((await closed).code, 1000);
  const second = await p.connection(1);
  assert.is(second.req.url, '/ari/v2');
  assert.is(second.req.headers.authorization, `Basic ${Buffer.from('bot:pw').toString('base64')}`);
  await second.log.waitFor('ApplicationRegistered');
  assert.equal(labels(second.log), ['ApplicationRegistered:rl-d1']);
  assert.equal(labels(first.log), ['ApplicationRegistered:rl-d1']);
});

test('an unchanged configuration changes nothing; one that no longer reads leaves the connections as they were', async () => {
  const p = await peer();
  const { t, write } = await server({ conn: entry(p, 'rl-e1') });
  const c = await p.connection(0);
  await c.log.waitFor('ApplicationRegistered');
  await reload(t);
  write('{"conn": {"uri": "http://nowhere"');
  await reload(t);
  await waitUntil(() => t.logs.some((l) => l.includes('outbound websocket configuration not reloaded')), 'the bad file is logged');
  assert.equal(labels(c.log), ['ApplicationRegistered:rl-e1']);
  assert.is(p.upgrades.length, 1);
  assert.equal(await appNames(t), ['rl-e1']);
  // A later good file is applied again.
  write({});
  await reload(t);
  await c.log.waitFor('ApplicationUnregistered');
  assert.equal(await appNames(t), []);
});

test('per-call entries: one added by a reload serves the next Stasis(); removing it leaves the call under way on its connection', async () => {
  const p = await peer();
  const { t, write } = await server({});
  const perCall = { pc: { uri: p.url('/per-call'), connection_type: 'per_call_config', apps: 'rl-pc', local_ari_user: 'asterisk', reconnect_interval: 20 } };
  write(perCall);
  await reload(t);
  const call = (id: string) => t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: id }, json: { variables: { STASIS_APP: 'rl-pc' } } });
  assert.is((await call('rl-pc-1')).status, 200);
  const c = await p.connection(0);
  const start = await c.log.waitFor('StasisStart');
  assert.is(start.channel!.id, 'rl-pc-1');
  write({});
  await reload(t);
  // The call keeps its connection and is still controlled over it; the next call finds no application.
  const closed = socketClosed(c.ws);
  assert.is((await t.http('DELETE', '/ari/channels/rl-pc-1')).status, 204);
  assert.is((await closed).code, 1000);
  assert.equal(c.log.events.map((e) => e.type), ['ApplicationRegistered', 'StasisStart', 'ChannelHangupRequest', 'StasisEnd']);
  const all = await connectEvents(t.url, 'watch', { subscribeAll: true });
  started.push(all);
  assert.is((await call('rl-pc-2')).status, 200);
  const status = await all.waitFor((e) => e.type === 'ChannelVarset' && e.variable === 'STASISSTATUS' && e.channel?.id === 'rl-pc-2');
  assert.is(status.value, 'FAILED');
  assert.is(p.connections.length, 1);
});

test.run();
