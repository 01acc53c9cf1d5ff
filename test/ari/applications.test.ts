import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInApp, hangupAndWait } from '../_helpers/ari.js';
import type { EventLog } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('applications');
const ctx = useServer(test, { events: { ev1: 'app1', ev2: 'app2' } });

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/;
const EID = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/;
const empty = (name: string) => ({ name, channel_ids: [], bridge_ids: [], endpoint_ids: [], device_names: [], events_allowed: [], events_disallowed: [] });

/**
 * Everything the server sent `log` before this returns has arrived: a fresh
 * channel created in `app` reaches the same socket after anything queued earlier.
 */
let barriers = 0;
async function barrier(log: EventLog, app: string): Promise<void> {
  const id = `barrier-${++barriers}`;
  await createInApp(ctx.t, log, { app, id });
  await hangupAndWait(ctx.t, log, id);
}

test('GET /ari/applications lists the connected apps; channel_ids follow the app\'s channels', async () => {
  const r = await ctx.t.http('GET', '/ari/applications');
  assert.is(r.status, 200);
  assert.equal(r.body, [empty('app1'), empty('app2')]);
  await createInApp(ctx.t, ctx.ev1, { app: 'app1', id: 'ap-list' });
  const after = await ctx.t.http('GET', '/ari/applications');
  assert.equal(after.body.find((a: { name: string }) => a.name === 'app1').channel_ids, ['ap-list']);
  assert.equal(after.body.find((a: { name: string }) => a.name === 'app2').channel_ids, []);
  await hangupAndWait(ctx.t, ctx.ev1, 'ap-list');
  const gone = await ctx.t.http('GET', '/ari/applications/app1');
  assert.equal(gone.body.channel_ids, []);
});

test('GET /ari/applications/{name}: 200 with the model, 404 for an unknown app', async () => {
  const r = await ctx.t.http('GET', '/ari/applications/app2');
  assert.is(r.status, 200);
  assert.equal(r.body, empty('app2'));
  const missing = await ctx.t.http('GET', '/ari/applications/no-such-app');
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Application not found' });
});

test('subscribe channel:<id>: the app gets that channel\'s events; unsubscribe stops them; unsubscribing again is 422 (Asterisk\'s answer for a source the app is not subscribed to)', async () => {
  await createInApp(ctx.t, ctx.ev1, { app: 'app1', id: 'ap-sub' });
  const sub = await ctx.t.http('POST', '/ari/applications/app2/subscription', { query: { eventSource: 'channel:ap-sub' } });
  assert.is(sub.status, 200);
  assert.is(sub.body.name, 'app2');
  assert.equal(sub.body.channel_ids, ['ap-sub']);
  assert.equal((await ctx.t.http('GET', '/ari/applications/app2')).body.channel_ids, ['ap-sub']);
  // app1 sets a variable: app2 hears about it, addressed to app2.
  assert.is((await ctx.t.http('POST', '/ari/channels/ap-sub/variable', { query: { variable: 'SEEN_BY', value: 'both' } })).status, 204);
  const e = await ctx.ev2.waitFor((x) => x.type === 'ChannelVarset' && x.channel?.id === 'ap-sub');
  assert.is(e.variable, 'SEEN_BY');
  assert.is(e.value, 'both');
  assert.is(e.application, 'app2');
  await ctx.ev1.waitFor((x) => x.type === 'ChannelVarset' && x.channel?.id === 'ap-sub');
  // The subscription does not put the channel in app2: its StasisStart went to app1 only.
  assert.not.ok(ctx.ev2.of('ap-sub').some((x) => x.type === 'StasisStart'));

  const unsub = await ctx.t.http('DELETE', '/ari/applications/app2/subscription', { query: { eventSource: 'channel:ap-sub' } });
  assert.is(unsub.status, 200);
  assert.equal(unsub.body.channel_ids, []);
  assert.is((await ctx.t.http('POST', '/ari/channels/ap-sub/variable', { query: { variable: 'AFTER', value: '1' } })).status, 204);
  await ctx.ev1.waitFor((x) => x.type === 'ChannelVarset' && x.channel?.id === 'ap-sub' && x.variable === 'AFTER');
  await barrier(ctx.ev2, 'app2');
  assert.not.ok(ctx.ev2.of('ap-sub').some((x) => x.variable === 'AFTER'), 'no events after unsubscribing');

  const again = await ctx.t.http('DELETE', '/ari/applications/app2/subscription', { query: { eventSource: 'channel:ap-sub' } });
  assert.is(again.status, 422);
  assert.equal(again.body, { message: 'Event source was not subscribed to' });
  await hangupAndWait(ctx.t, ctx.ev1, 'ap-sub');
});

test('subscribe errors: unknown channel or endpoint 422, unknown app 404; nothing changes', async () => {
  const unknown = await ctx.t.http('POST', '/ari/applications/app2/subscription', { query: { eventSource: 'channel:no-such-channel' } });
  assert.is(unknown.status, 422);
  assert.equal(unknown.body, { message: 'Event source does not exist' });
  const unknownEndpoint = await ctx.t.http('POST', '/ari/applications/app2/subscription', { query: { eventSource: 'endpoint:PJSIP/nobody' } });
  assert.is(unknownEndpoint.status, 422);
  assert.equal(unknownEndpoint.body, { message: 'Event source does not exist' });
  const noApp = await ctx.t.http('POST', '/ari/applications/no-such-app/subscription', { query: { eventSource: 'endpoint:PJSIP/alice' } });
  assert.is(noApp.status, 404);
  assert.equal(noApp.body, { message: 'Application not found' });
  assert.equal((await ctx.t.http('GET', '/ari/applications/app2')).body, empty('app2'));
});

// Asterisk's texts (res/ari/resource_applications.c): "Invalid event source URI scheme", "Missing parameter eventSource".
test('subscribe/unsubscribe with an unknown scheme is 400 "Invalid event source URI scheme"', async () => {
  for (const method of ['POST', 'DELETE']) {
    const r = await ctx.t.http(method, '/ari/applications/app2/subscription', { query: { eventSource: 'carrier-pigeon:x' } });
    assert.is(r.status, 400, method);
    assert.equal(r.body, { message: 'Invalid event source URI scheme' }, method);
  }
  assert.equal((await ctx.t.http('GET', '/ari/applications/app2')).body, empty('app2'));
});

test('subscribe/unsubscribe without eventSource is 400 "Missing parameter eventSource"', async () => {
  for (const method of ['POST', 'DELETE']) {
    const r = await ctx.t.http(method, '/ari/applications/app2/subscription');
    assert.is(r.status, 400, method);
    assert.equal(r.body, { message: 'Missing parameter eventSource' }, method);
  }
});

test('endpoint:PJSIP/alice subscription: the app gets ChannelCreated for new alice channels, not for others', async () => {
  const sub = await ctx.t.http('POST', '/ari/applications/app2/subscription', { query: { eventSource: 'endpoint:PJSIP/alice' } });
  assert.is(sub.status, 200);
  assert.equal(sub.body.endpoint_ids, ['PJSIP/alice']);
  const alice = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/alice', app: 'app1', channelId: 'ap-alice' } });
  assert.is(alice.status, 200);
  const bob = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/bob', app: 'app1', channelId: 'ap-bob' } });
  assert.is(bob.status, 200);
  const created = await ctx.ev2.waitFor((e) => e.type === 'ChannelCreated' && e.channel?.id === 'ap-alice');
  assert.is(created.application, 'app2');
  assert.match(created.channel!.name, /^PJSIP\/alice-/);
  await ctx.ev1.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ap-alice');
  await ctx.ev1.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ap-bob');
  // app1 originated both but is not subscribed to all channels: no ChannelCreated for it.
  assert.not.ok(ctx.ev1.events.some((e) => e.type === 'ChannelCreated'));
  await hangupAndWait(ctx.t, ctx.ev1, 'ap-alice');
  await hangupAndWait(ctx.t, ctx.ev1, 'ap-bob');
  const unsub = await ctx.t.http('DELETE', '/ari/applications/app2/subscription', { query: { eventSource: 'endpoint:PJSIP/alice' } });
  assert.is(unsub.status, 200);
  assert.equal(unsub.body.endpoint_ids, []);
  await barrier(ctx.ev2, 'app2');
  assert.equal(ctx.ev2.of('ap-bob'), [], 'nothing about the bob channel');
  const again = await ctx.t.http('DELETE', '/ari/applications/app2/subscription', { query: { eventSource: 'endpoint:PJSIP/alice' } });
  assert.is(again.status, 422);
  assert.equal(again.body, { message: 'Event source was not subscribed to' });
});

test('GET /ari/asterisk/info: build, system, config, status; ?only=system gives only system; entity_id is the events\' asterisk_id', async () => {
  const r = await ctx.t.http('GET', '/ari/asterisk/info');
  assert.is(r.status, 200);
  assert.equal(Object.keys(r.body).sort(), ['build', 'config', 'status', 'system']);
  assert.match(r.body.system.entity_id, EID);
  assert.type(r.body.system.version, 'string');
  assert.match(r.body.status.startup_time, TS);
  assert.match(r.body.status.last_reload_time, TS);
  assert.is(r.body.config.default_language, 'en');
  const only = await ctx.t.http('GET', '/ari/asterisk/info', { query: { only: 'system' } });
  assert.is(only.status, 200);
  assert.equal(Object.keys(only.body), ['system']);
  assert.equal(only.body.system, r.body.system);
  const two = await ctx.t.http('GET', '/ari/asterisk/info', { query: { only: 'build,status' } });
  assert.equal(Object.keys(two.body).sort(), ['build', 'status']);
  // The same id as every event carries.
  await createInApp(ctx.t, ctx.ev1, { app: 'app1', id: 'ap-eid' });
  await hangupAndWait(ctx.t, ctx.ev1, 'ap-eid');
  assert.ok(ctx.ev1.events.length > 0);
  for (const e of ctx.ev1.events) assert.is(e.asterisk_id, r.body.system.entity_id);
});

test('GET /ari/asterisk/ping: {asterisk_id, ping: "pong", timestamp}', async () => {
  const r = await ctx.t.http('GET', '/ari/asterisk/ping');
  assert.is(r.status, 200);
  assert.equal(Object.keys(r.body).sort(), ['asterisk_id', 'ping', 'timestamp']);
  assert.is(r.body.ping, 'pong');
  assert.match(r.body.timestamp, TS);
  const info = await ctx.t.http('GET', '/ari/asterisk/info', { query: { only: 'system' } });
  assert.is(r.body.asterisk_id, info.body.system.entity_id);
});

test('endpoints: list, by tech, one; channel_ids lists live channels; unknown tech or resource is 404', async () => {
  const all = await ctx.t.http('GET', '/ari/endpoints');
  assert.is(all.status, 200);
  const names = all.body.map((e: { technology: string; resource: string }) => `${e.technology}/${e.resource}`).sort();
  assert.equal(names, ['PJSIP/alice', 'PJSIP/bob', 'PJSIP/busy', 'PJSIP/carol', 'PJSIP/congested', 'PJSIP/instant', 'PJSIP/manual', 'PJSIP/noanswer', 'PJSIP/offline', 'PJSIP/trunk']);
  const offline = all.body.find((e: { resource: string }) => e.resource === 'offline');
  assert.is(offline.state, 'offline');
  const byTech = await ctx.t.http('GET', '/ari/endpoints/PJSIP');
  assert.is(byTech.status, 200);
  assert.is(byTech.body.length, 10);
  assert.ok(byTech.body.every((e: { technology: string }) => e.technology === 'PJSIP'));

  const idle = await ctx.t.http('GET', '/ari/endpoints/PJSIP/alice');
  assert.is(idle.status, 200);
  assert.equal(idle.body, { technology: 'PJSIP', resource: 'alice', state: 'online', channel_ids: [] });
  await createInApp(ctx.t, ctx.ev1, { app: 'app1', id: 'ep-1' });
  await createInApp(ctx.t, ctx.ev1, { app: 'app1', id: 'ep-2' });
  await createInApp(ctx.t, ctx.ev1, { app: 'app1', id: 'ep-bob', endpoint: 'PJSIP/bob' });
  const busy = await ctx.t.http('GET', '/ari/endpoints/PJSIP/alice');
  assert.equal([...busy.body.channel_ids].sort(), ['ep-1', 'ep-2']);
  assert.equal((await ctx.t.http('GET', '/ari/endpoints/PJSIP/bob')).body.channel_ids, ['ep-bob']);
  const listed = (await ctx.t.http('GET', '/ari/endpoints')).body.find((e: { resource: string }) => e.resource === 'alice');
  assert.equal([...listed.channel_ids].sort(), ['ep-1', 'ep-2']);
  await hangupAndWait(ctx.t, ctx.ev1, 'ep-1');
  assert.equal((await ctx.t.http('GET', '/ari/endpoints/PJSIP/alice')).body.channel_ids, ['ep-2']);
  await hangupAndWait(ctx.t, ctx.ev1, 'ep-2');
  await hangupAndWait(ctx.t, ctx.ev1, 'ep-bob');

  const badTech = await ctx.t.http('GET', '/ari/endpoints/Carrier');
  assert.is(badTech.status, 404);
  assert.equal(badTech.body, { message: 'No Endpoints found - invalid tech Carrier' });
  const badResource = await ctx.t.http('GET', '/ari/endpoints/PJSIP/nobody');
  assert.is(badResource.status, 404);
  assert.equal(badResource.body, { message: 'Endpoint not found' });
});

test.run();
