import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ari from 'ari-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp, eventLabel } from '../_helpers/ari.js';
import { restartableServer } from '../_helpers/child.js';
import { connectEvents, waitUntil, type AriEvent, type EventLog } from '../_helpers/events.js';
import { startTestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';
import { tempDir } from '../_helpers/temp-dir.js';

// ARI's deviceStates resource and DeviceStateChanged: Stasis: devices applications set (kept across
// restarts), our endpoints' states following their calls, and who hears of each change.
const test = suite('device-states');
/** ev: an app that subscribes to devices one by one; all: an app subscribed to everything. */
const ctx = useServer(test, { events: { ev: 'ds-app', all: { apps: 'ds-all', subscribeAll: true } } });

const dev = (name: string) => `/ari/deviceStates/${encodeURIComponent(name)}`;
const isDevice = (name: string) => (e: AriEvent) => e.type === 'DeviceStateChanged' && e.device_state.name === name;
const deviceEvent = (log: EventLog, name: string, state: string) => log.waitFor((e) => isDevice(name)(e) && e.device_state.state === state);
/** The states announced for `name` on `log`, from event `from` on. */
const announced = (log: EventLog, name: string, from = 0) => log.events.slice(from).filter(isDevice(name)).map((e) => e.device_state.state);
/** Waits until `log` holds `n` announcements for `name` from event `from` on, and returns their states. */
async function announcedN(log: EventLog, name: string, from: number, n: number): Promise<string[]> {
  await log.waitForCount(isDevice(name), log.events.slice(0, from).filter(isDevice(name)).length + n);
  return announced(log, name, from);
}
const subscribe = (app: string, ...sources: string[]) => ctx.t.http('POST', `/ari/applications/${app}/subscription`, { query: { eventSource: sources.join(',') } });
const unsubscribe = (app: string, ...sources: string[]) => ctx.t.http('DELETE', `/ari/applications/${app}/subscription`, { query: { eventSource: sources.join(',') } });
/** Channel events of `id` and device events of `device`, in the order `log` got them. */
const sequence = (log: EventLog, id: string, device: string, from = 0) =>
  log.events.slice(from).filter((e) => e.channel?.id === id || e.peer?.id === id || isDevice(device)(e)).map((e) => (e.type === 'DeviceStateChanged' ? `Device:${e.device_state.state}` : eventLabel(e)));

test('nothing set yet: an empty list; GET answers any name (endpoint, offline endpoint, Stasis: device, unknown names)', async () => {
  const list = await ctx.t.http('GET', '/ari/deviceStates');
  assert.is(list.status, 200);
  assert.equal(list.body, []);
  const cases: Array<[string, string]> = [
    ['PJSIP/alice', 'NOT_INUSE'], ['pjsip/alice', 'NOT_INUSE'], ['PJSIP/offline', 'UNAVAILABLE'], ['Stasis:never-set', 'UNKNOWN'],
    ['PJSIP/nobody', 'INVALID'], ['SIP/alice', 'INVALID'], ['Nothing:here', 'INVALID'], ['lamp', 'INVALID'],
  ];
  for (const [name, state] of cases) {
    const r = await ctx.t.http('GET', dev(name));
    assert.is(r.status, 200, name);
    assert.equal(r.body, { name, state }, name);
  }
  // The name is one path segment: an unencoded slash is another route, which does not exist (as in Asterisk).
  const slash = await ctx.t.http('GET', '/ari/deviceStates/PJSIP/alice');
  assert.is(slash.status, 404);
  assert.equal(slash.body, { message: 'Resource not found' });
});

test('PUT a Stasis: device: 204; GET and the list read it; a change (not a repeat) is announced to subscribers and subscribeAll apps', async () => {
  const sub = await subscribe('ds-app', 'deviceState:Stasis:desk');
  assert.is(sub.status, 200);
  assert.equal(sub.body.device_names, ['Stasis:desk']);
  assert.is((await ctx.t.http('PUT', dev('Stasis:desk'), { query: { deviceState: 'INUSE' } })).status, 204);
  const first = await deviceEvent(ctx.ev, 'Stasis:desk', 'INUSE');
  assert.equal(Object.keys(first), ['type', 'timestamp', 'device_state', 'asterisk_id', 'application']);
  assert.equal({ ...first, timestamp: '' }, {
    type: 'DeviceStateChanged', timestamp: '', device_state: { name: 'Stasis:desk', state: 'INUSE' }, asterisk_id: first.asterisk_id, application: 'ds-app',
  });
  assert.equal((await deviceEvent(ctx.all, 'Stasis:desk', 'INUSE')).application, 'ds-all');
  // The same state again changes nothing; the case of the value does not matter.
  assert.is((await ctx.t.http('PUT', dev('Stasis:desk'), { query: { deviceState: 'INUSE' } })).status, 204);
  assert.is((await ctx.t.http('PUT', dev('Stasis:desk'), { query: { deviceState: 'busy' } })).status, 204);
  await deviceEvent(ctx.ev, 'Stasis:desk', 'BUSY');
  assert.equal(announced(ctx.ev, 'Stasis:desk'), ['INUSE', 'BUSY']);
  assert.equal((await ctx.t.http('GET', dev('Stasis:desk'))).body, { name: 'Stasis:desk', state: 'BUSY' });
  // The Stasis: prefix is matched without regard to case; the name is echoed as asked.
  assert.equal((await ctx.t.http('GET', dev('stasis:desk'))).body, { name: 'stasis:desk', state: 'BUSY' });
  assert.is((await ctx.t.http('PUT', dev('Stasis:aisle'), { query: { deviceState: 'RINGING' } })).status, 204);
  const list = await ctx.t.http('GET', '/ari/deviceStates');
  assert.equal(list.body, [{ name: 'Stasis:aisle', state: 'RINGING' }, { name: 'Stasis:desk', state: 'BUSY' }]);
  // ds-app is not subscribed to Stasis:aisle; the subscribeAll app is.
  await deviceEvent(ctx.all, 'Stasis:aisle', 'RINGING');
  assert.equal(announced(ctx.ev, 'Stasis:aisle'), []);
});

test('PUT and DELETE refusals, in Asterisk\'s order: not a Stasis: device 409, no name 404, no or unknown state 400', async () => {
  const put = (name: string, deviceState?: string) => ctx.t.http('PUT', dev(name), { query: { deviceState } });
  const uncontrolled = { message: 'Uncontrolled device specified' };
  const cases: Array<[Promise<{ status: number; body: unknown }>, number, unknown]> = [
    [put('PJSIP/alice', 'INUSE'), 409, uncontrolled],
    [put('Desk', 'bogus'), 409, uncontrolled],
    [put('Stasis:', 'INUSE'), 404, { message: 'Device name is missing' }],
    [put('Stasis:x', 'bogus'), 400, { message: 'Unknown device' }],
    [put('Stasis:x'), 400, { message: 'Unknown device' }],
    [put('Stasis:x', 'UNKNOWN'), 400, { message: 'Unknown device' }],
    [ctx.t.http('DELETE', dev('PJSIP/alice')), 409, uncontrolled],
    [ctx.t.http('DELETE', dev('Stasis:')), 404, { message: 'Device name is missing' }],
  ];
  for (const [i, [reply, status, body]] of cases.entries()) {
    const r = await reply;
    assert.is(r.status, status, `case ${i}`);
    assert.equal(r.body, body, `case ${i}`);
  }
  assert.equal((await ctx.t.http('GET', dev('Stasis:x'))).body, { name: 'Stasis:x', state: 'UNKNOWN' });
  assert.is((await ctx.t.http('PUT', dev('Stasis:x'), { query: { deviceState: 'INUSE' }, auth: 'viewer:secret-viewer' })).status, 403);
});

test('DELETE: 204, reads UNKNOWN and leaves the list, announced as UNKNOWN (again on a second delete); a device never set: 204, nothing announced', async () => {
  assert.is((await ctx.t.http('PUT', dev('Stasis:gone'), { query: { deviceState: 'ONHOLD' } })).status, 204);
  await deviceEvent(ctx.all, 'Stasis:gone', 'ONHOLD');
  assert.is((await ctx.t.http('DELETE', dev('Stasis:gone'))).status, 204);
  await deviceEvent(ctx.all, 'Stasis:gone', 'UNKNOWN');
  assert.equal((await ctx.t.http('GET', dev('Stasis:gone'))).body, { name: 'Stasis:gone', state: 'UNKNOWN' });
  assert.not.ok((await ctx.t.http('GET', '/ari/deviceStates')).body.some((d: { name: string }) => d.name === 'Stasis:gone'));
  assert.is((await ctx.t.http('DELETE', dev('Stasis:gone'))).status, 204);
  assert.is((await ctx.t.http('DELETE', dev('Stasis:never-set'))).status, 204);
  // A later change marks the end: every event before it has arrived.
  assert.is((await ctx.t.http('PUT', dev('Stasis:marker'), { query: { deviceState: 'INUSE' } })).status, 204);
  await deviceEvent(ctx.all, 'Stasis:marker', 'INUSE');
  assert.equal(announced(ctx.all, 'Stasis:gone'), ['ONHOLD', 'UNKNOWN', 'UNKNOWN']);
  assert.equal(announced(ctx.all, 'Stasis:never-set'), []);
});

test('subscriptions: deviceState:<any name> joins device_names; unsubscribe 200 then 422; mailbox: is no event source (400)', async () => {
  const sub = await subscribe('ds-app', 'deviceState:Stasis:a', 'deviceState:PJSIP/bob');
  assert.is(sub.status, 200);
  assert.equal(sub.body.device_names, ['Stasis:desk', 'Stasis:a', 'PJSIP/bob']);
  assert.equal((await ctx.t.http('GET', '/ari/applications/ds-app')).body.device_names, ['Stasis:desk', 'Stasis:a', 'PJSIP/bob']);
  const un = await unsubscribe('ds-app', 'deviceState:Stasis:a');
  assert.is(un.status, 200);
  assert.equal(un.body.device_names, ['Stasis:desk', 'PJSIP/bob']);
  const again = await unsubscribe('ds-app', 'deviceState:Stasis:a');
  assert.is(again.status, 422);
  assert.equal(again.body, { message: 'Event source was not subscribed to' });
  // A subscribeAll app counts as subscribed to every device.
  assert.is((await unsubscribe('ds-all', 'deviceState:Stasis:whatever')).status, 200);
  for (const source of ['mailbox:1000@default', 'mailbox:1000']) {
    const r = await subscribe('ds-app', source);
    assert.is(r.status, 400, source);
    assert.equal(r.body, { message: 'Invalid event source URI scheme' });
  }
  // No longer subscribed: a change of Stasis:a reaches the subscribeAll app only (Stasis:desk marks the end).
  const mark = ctx.ev.events.length;
  assert.is((await ctx.t.http('PUT', dev('Stasis:a'), { query: { deviceState: 'INUSE' } })).status, 204);
  assert.is((await ctx.t.http('PUT', dev('Stasis:desk'), { query: { deviceState: 'NOT_INUSE' } })).status, 204);
  await deviceEvent(ctx.ev, 'Stasis:desk', 'NOT_INUSE');
  assert.equal(announced(ctx.ev, 'Stasis:a', mark), []);
  await deviceEvent(ctx.all, 'Stasis:a', 'INUSE');
});

test('an endpoint follows its call: RINGING → INUSE → NOT_INUSE, each after the channel events of the same moment', async () => {
  assert.is((await subscribe('ds-app', 'deviceState:pjsip/manual')).status, 200);
  const mark = ctx.ev.events.length;
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/manual', app: 'ds-app', channelId: 'ds-call' } });
  assert.is(r.status, 200);
  assert.equal(await announcedN(ctx.ev, 'PJSIP/manual', mark, 1), ['RINGING']);
  assert.equal((await ctx.t.http('GET', dev('PJSIP/manual'))).body, { name: 'PJSIP/manual', state: 'RINGING' });
  assert.is((await ctx.t.http('POST', '/sim/channels/ds-call/answer')).status, 204);
  assert.equal(await announcedN(ctx.ev, 'PJSIP/manual', mark, 2), ['RINGING', 'INUSE']);
  assert.equal((await ctx.t.http('GET', dev('PJSIP/manual'))).body, { name: 'PJSIP/manual', state: 'INUSE' });
  assert.is((await ctx.t.http('DELETE', '/ari/channels/ds-call')).status, 204);
  assert.equal(await announcedN(ctx.ev, 'PJSIP/manual', mark, 3), ['RINGING', 'INUSE', 'NOT_INUSE']);
  assert.equal(sequence(ctx.ev, 'ds-call', 'PJSIP/manual', mark), [
    'Dial:', 'State:Ringing', 'Dial:RINGING', 'Device:RINGING',
    'State:Up', 'Dial:ANSWER', 'ChannelDialplan', 'StasisStart', 'Device:INUSE',
    'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed', 'Device:NOT_INUSE',
  ]);
  assert.equal((await ctx.t.http('GET', dev('PJSIP/manual'))).body, { name: 'PJSIP/manual', state: 'NOT_INUSE' });
});

test('two calls and hold: RINGINUSE while one is up and one rings; ONHOLD while we hold the call (not when the far end holds); an inbound call is INUSE at once', async () => {
  const mark = ctx.all.events.length;
  const originate = (id: string) => ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/manual', app: 'ds-app', channelId: id } });
  const manual = (n: number) => announcedN(ctx.all, 'PJSIP/manual', mark, n);
  assert.is((await originate('ds-up')).status, 200);
  await manual(1);
  assert.is((await ctx.t.http('POST', '/sim/channels/ds-up/answer')).status, 204);
  await manual(2);
  assert.is((await originate('ds-ring')).status, 200);
  assert.equal(await manual(3), ['RINGING', 'INUSE', 'RINGINUSE']);
  // The far end refuses the second call: back to the first alone.
  assert.is((await ctx.t.http('POST', '/sim/channels/ds-ring/hangup', { query: { reason: 'busy' } })).status, 204);
  await manual(4);
  // The far end holding us is not our device on hold (as chan_pjsip: ONHOLD marks a channel we hold): no change.
  assert.is((await ctx.t.http('POST', '/sim/channels/ds-up/hold')).status, 204);
  assert.is((await ctx.t.http('DELETE', '/sim/channels/ds-up/hold')).status, 204);
  await ctx.all.waitFor((e) => e.type === 'ChannelUnhold' && e.channel?.id === 'ds-up');
  assert.is((await ctx.t.http('POST', '/ari/channels/ds-up/hold')).status, 204);
  assert.equal(await manual(5), ['RINGING', 'INUSE', 'RINGINUSE', 'INUSE', 'ONHOLD']);
  assert.equal((await ctx.t.http('GET', dev('PJSIP/manual'))).body, { name: 'PJSIP/manual', state: 'ONHOLD' });
  assert.is((await ctx.t.http('DELETE', '/ari/channels/ds-up/hold')).status, 204);
  await manual(6);
  assert.is((await ctx.t.http('DELETE', '/ari/channels/ds-up')).status, 204);
  assert.equal(await manual(7), ['RINGING', 'INUSE', 'RINGINUSE', 'INUSE', 'ONHOLD', 'INUSE', 'NOT_INUSE']);

  // Inbound from carol into ds-app (extension 1001 leaves it ringing, in state Ring): in use until it ends.
  const from = ctx.all.events.length;
  await callInApp(ctx.t, ctx.ev, { id: 'ds-in', app: 'ds-app', endpoint: 'PJSIP/carol', extension: '1001' });
  assert.equal(await announcedN(ctx.all, 'PJSIP/carol', from, 1), ['INUSE']);
  assert.is((await ctx.t.http('POST', '/ari/channels/ds-in/answer')).status, 204);
  assert.is((await ctx.t.http('POST', '/sim/channels/ds-in/hangup')).status, 204);
  // Answering changes nothing (a ringing inbound call is already in use); its end does.
  assert.equal(await announcedN(ctx.all, 'PJSIP/carol', from, 2), ['INUSE', 'NOT_INUSE']);
});

test('deviceStateBusyAt: exactly that many calls in use make the endpoint BUSY (more fall back to the sum, as in Asterisk)', async () => {
  // The bundled fixtures, with PJSIP/manual busy at one call.
  const fixtures = tempDir('busy-fixtures');
  cpSync(join(import.meta.dirname, '..', '..', 'fixtures'), fixtures, { recursive: true });
  const file = join(fixtures, 'ari', 'endpoints.json');
  const eps = JSON.parse(readFileSync(file, 'utf8'));
  eps.endpoints['PJSIP/manual'].deviceStateBusyAt = 1;
  writeFileSync(file, JSON.stringify(eps));
  const s = await startTestServer({ FIXTURES_DIR: fixtures });
  const all = await connectEvents(s.url, 'busy-all', { subscribeAll: true });
  try {
    const manual = (n: number) => announcedN(all, 'PJSIP/manual', 0, n);
    const call = async (id: string) => {
      assert.is((await s.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/manual', app: 'busy-all', channelId: id } })).status, 200);
      await all.waitFor((e) => e.type === 'ChannelStateChange' && e.channel?.id === id && e.channel.state === 'Ringing');
      assert.is((await s.http('POST', `/sim/channels/${id}/answer`)).status, 204);
    };
    await call('busy-1');
    assert.equal(await manual(2), ['RINGING', 'BUSY']);
    // The second call rings while the first is up: still exactly one in use, so still BUSY (no event); answered, two are.
    await call('busy-2');
    assert.equal(await manual(3), ['RINGING', 'BUSY', 'INUSE']);
    assert.is((await s.http('DELETE', '/ari/channels/busy-2')).status, 204);
    await manual(4);
    assert.equal((await s.http('GET', dev('PJSIP/manual'))).body, { name: 'PJSIP/manual', state: 'BUSY' });
    assert.is((await s.http('DELETE', '/ari/channels/busy-1')).status, 204);
    assert.equal(await manual(5), ['RINGING', 'BUSY', 'INUSE', 'BUSY', 'NOT_INUSE']);
    s.assertNoViolations();
  } finally {
    await all.close();
    await s.close();
    rmSync(fixtures, { recursive: true, force: true });
  }
});

test('ari-client: deviceStates.update and get by name; DeviceStateChanged arrives with a DeviceState instance', async () => {
  const client = await ari.connect(ctx.t.url, 'asterisk', 'asterisk');
  try {
    await client.start('ds-client');
    await waitUntil(async () => (await ctx.t.http('GET', '/ari/applications/ds-client')).status === 200, 'ds-client is registered');
    await client.applications.subscribe({ applicationName: 'ds-client', eventSource: 'deviceState:Stasis:client' });
    const changed = new Promise<[any, any]>((resolve) => client.once('DeviceStateChanged', (e: any, instance: any) => resolve([e, instance])));
    await client.deviceStates.update({ deviceName: 'Stasis:client', deviceState: 'RINGING' });
    const [event, instance] = await changed;
    assert.equal(event.device_state, { name: 'Stasis:client', state: 'RINGING' });
    assert.is(instance.name, 'Stasis:client');
    const got = await client.deviceStates.get({ deviceName: 'Stasis:client' });
    assert.is(got.state, 'RINGING');
    assert.ok((await client.deviceStates.list()).some((d: any) => d.name === 'Stasis:client'));
  } finally {
    client.stop();
  }
});

test('restart: Stasis: states and device subscriptions survive SIGKILL; the app hears of changes once back; a delete is announced', async () => {
  const servers = restartableServer('devstate-restart', { SIM_TIME_SCALE: '10' });
  try {
    let server = await servers.start();
    const first = await connectEvents(server.url, 'ds-keep');
    assert.is((await server.http('POST', '/ari/applications/ds-keep/subscription', { query: { eventSource: 'deviceState:Stasis:kept' } })).status, 200);
    assert.is((await server.http('PUT', dev('Stasis:kept'), { query: { deviceState: 'INUSE' } })).status, 204);
    await servers.kill();
    await first.close();

    server = await servers.start();
    assert.equal((await server.http('GET', '/ari/deviceStates')).body, [{ name: 'Stasis:kept', state: 'INUSE' }]);
    assert.equal((await server.http('GET', dev('Stasis:kept'))).body, { name: 'Stasis:kept', state: 'INUSE' });
    assert.equal((await server.http('GET', dev('PJSIP/alice'))).body, { name: 'PJSIP/alice', state: 'NOT_INUSE' });
    const back = await connectEvents(server.url, 'ds-keep');
    assert.equal((await server.http('GET', '/ari/applications/ds-keep')).body.device_names, ['Stasis:kept']);
    assert.is((await server.http('PUT', dev('Stasis:kept'), { query: { deviceState: 'INUSE' } })).status, 204);
    assert.is((await server.http('DELETE', dev('Stasis:kept'))).status, 204);
    await back.waitFor(isDevice('Stasis:kept'));
    // The same state after the restart is no change; the delete is.
    assert.equal(announced(back, 'Stasis:kept'), ['UNKNOWN']);
    assert.equal((await server.http('GET', '/ari/deviceStates')).body, []);
    await back.close();
    server.assertNoViolations();
  } finally {
    await servers.cleanup();
  }
});

test.run();
