import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { restartableServer } from '../_helpers/child.js';
import { connectEvents, type AriEvent, type EventLog } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

// Simulated registrations: the far end of an endpoint registers, unregisters, lets a contact expire,
// or answers (or not) qualify pings, and applications subscribed to the endpoint hear
// EndpointStateChange, PeerStatusChange and ContactStatusChange in PJSIP's order; the endpoint's
// state, its device state and calls to it follow.
const test = suite('endpoint-registration');
/** ev: subscribed to PJSIP/offline by name; tech: to the whole PJSIP technology; all: to everything; bob: to PJSIP/bob only. */
const ctx = useServer(test, { events: { ev: 'reg-app', tech: 'reg-tech', all: { apps: 'reg-all', subscribeAll: true }, bob: 'reg-bob' } });

const ENDPOINT_EVENTS = new Set(['EndpointStateChange', 'PeerStatusChange', 'ContactStatusChange']);
const isEndpointEvent = (resource: string) => (e: AriEvent) => ENDPOINT_EVENTS.has(e.type) && e.endpoint?.resource === resource;
/** A short label: ESC:<state>, PSC:<peer_status>, CSC:<status>/<rtt>, Device:<state>. */
const label = (e: AriEvent): string =>
  e.type === 'EndpointStateChange' ? `ESC:${e.endpoint.state}`
    : e.type === 'PeerStatusChange' ? `PSC:${e.peer.peer_status}`
      : e.type === 'ContactStatusChange' ? `CSC:${e.contact_info.contact_status}/${e.contact_info.roundtrip_usec}`
        : `Device:${e.device_state.state}`;
/** The endpoint events about `resource` on `log` from event index `from` on, labelled. */
const seen = (log: EventLog, resource: string, from: number) => log.events.slice(from).filter(isEndpointEvent(resource)).map(label);
/** Waits until `log` has `n` endpoint events about `resource` after `from`, and returns them labelled. */
async function expectEvents(log: EventLog, resource: string, from: number, want: string[]): Promise<AriEvent[]> {
  const before = log.events.slice(0, from).filter(isEndpointEvent(resource)).length;
  await log.waitForCount(isEndpointEvent(resource), before + want.length);
  assert.equal(seen(log, resource, from), want);
  return log.events.slice(from).filter(isEndpointEvent(resource));
}
const contacts = (resource: string) => `/sim/endpoints/PJSIP/${resource}/contacts`;
const register = (resource: string, uri: string, query: Record<string, string | number | boolean> = {}) => ctx.t.http('POST', contacts(resource), { query: { uri, ...query } });
const unregister = (resource: string, uri: string) => ctx.t.http('DELETE', contacts(resource), { query: { uri } });
const qualify = (resource: string, uri: string, reachable: boolean, extra: Record<string, number> = {}) =>
  ctx.t.http('POST', `${contacts(resource)}/qualify`, { query: { uri, reachable, ...extra } });
const endpointState = async (resource: string) => (await ctx.t.http('GET', `/ari/endpoints/PJSIP/${resource}`)).body.state as string;
const deviceState = async (resource: string) => (await ctx.t.http('GET', `/ari/deviceStates/PJSIP%2F${resource}`)).body.state as string;
const blank = (e: AriEvent) => ({ ...e, timestamp: '', asterisk_id: '' });

test('subscriptions: by name, by technology, and to PJSIP/bob', async () => {
  for (const [app, source] of [['reg-app', 'endpoint:PJSIP/offline'], ['reg-tech', 'endpoint:PJSIP'], ['reg-bob', 'endpoint:PJSIP/bob']]) {
    const r = await ctx.t.http('POST', `/ari/applications/${app}/subscription`, { query: { eventSource: source! } });
    assert.is(r.status, 200, app);
  }
  assert.is(await endpointState('offline'), 'offline');
  assert.is(await deviceState('offline'), 'UNAVAILABLE');
});

test('an unqualified registration: the endpoint goes online (EndpointStateChange, PeerStatusChange), then the contact is NonQualified, then Unknown', async () => {
  const uri = 'sip:offline@192.0.2.10:5060;transport=udp';
  const [ev0, tech0, all0, bob0] = [ctx.ev.events.length, ctx.tech.events.length, ctx.all.events.length, ctx.bob.events.length];
  const r = await register('offline', uri);
  assert.is(r.status, 204);
  assert.is(r.text, '');
  const events = await expectEvents(ctx.ev, 'offline', ev0, ['ESC:online', 'PSC:Reachable', 'CSC:NonQualified/0', 'CSC:Unknown/0']);
  const endpoint = { technology: 'PJSIP', resource: 'offline', state: 'online', channel_ids: [] };
  assert.equal(events.map(blank), [
    { type: 'EndpointStateChange', timestamp: '', endpoint, asterisk_id: '', application: 'reg-app' },
    { type: 'PeerStatusChange', timestamp: '', endpoint, peer: { peer_status: 'Reachable' }, asterisk_id: '', application: 'reg-app' },
    { type: 'ContactStatusChange', timestamp: '', endpoint, contact_info: { uri, contact_status: 'NonQualified', aor: 'offline', roundtrip_usec: '0' }, asterisk_id: '', application: 'reg-app' },
    { type: 'ContactStatusChange', timestamp: '', endpoint, contact_info: { uri, contact_status: 'Unknown', aor: 'offline', roundtrip_usec: '0' }, asterisk_id: '', application: 'reg-app' },
  ]);
  // The technology's subscriber and the subscribeAll app hear the same; the device state follows for subscribeAll.
  await expectEvents(ctx.tech, 'offline', tech0, ['ESC:online', 'PSC:Reachable', 'CSC:NonQualified/0', 'CSC:Unknown/0']);
  await expectEvents(ctx.all, 'offline', all0, ['ESC:online', 'PSC:Reachable', 'CSC:NonQualified/0', 'CSC:Unknown/0']);
  const device = await ctx.all.waitFor((e) => e.type === 'DeviceStateChanged' && e.device_state.name === 'PJSIP/offline');
  assert.equal(device.device_state, { name: 'PJSIP/offline', state: 'NOT_INUSE' });
  assert.ok(ctx.all.events.indexOf(device) > ctx.all.events.findIndex((e, i) => i >= all0 && e.type === 'PeerStatusChange'));
  assert.is(await endpointState('offline'), 'online');
  assert.is(await deviceState('offline'), 'NOT_INUSE');
  const list = await ctx.t.http('GET', '/ari/endpoints');
  assert.equal(list.body.find((e: { resource: string }) => e.resource === 'offline').state, 'online');
  const view = await ctx.t.http('GET', '/sim/endpoints/PJSIP/offline');
  assert.is(view.status, 200);
  assert.equal({ ...view.body, contacts: view.body.contacts.map((c: Record<string, unknown>) => ({ ...c, expires: typeof c.expires })) }, {
    endpoint, contacts: [{ uri, aor: 'offline', contact_status: 'Unknown', qualified: false, roundtrip_usec: '0', expires: 'string' }], messages: [], refers: [],
  });
  // Registering the same contact again only moves its expiry: nothing is announced.
  assert.is((await register('offline', uri, { expires: 7200 })).status, 204);
  assert.is((await unregister('offline', uri)).status, 204);
  await expectEvents(ctx.ev, 'offline', ev0, ['ESC:online', 'PSC:Reachable', 'CSC:NonQualified/0', 'CSC:Unknown/0', 'ESC:offline', 'PSC:Unreachable', 'CSC:Removed/0']);
  await ctx.all.waitFor((e) => e.type === 'DeviceStateChanged' && e.device_state.name === 'PJSIP/offline' && e.device_state.state === 'UNAVAILABLE');
  assert.is(await endpointState('offline'), 'offline');
  assert.equal(seen(ctx.bob, 'offline', bob0), []);
  // A contact that is not (or no longer) there.
  const again = await unregister('offline', uri);
  assert.is(again.status, 404);
  assert.equal(again.body, { message: 'Contact not found' });
});

test('a second contact keeps the endpoint online; it goes offline with the last one', async () => {
  const from = ctx.ev.events.length;
  assert.is((await register('offline', 'sip:offline@192.0.2.10')).status, 204);
  assert.is((await register('offline', 'sip:offline@192.0.2.11')).status, 204);
  assert.is((await unregister('offline', 'sip:offline@192.0.2.10')).status, 204);
  assert.is((await unregister('offline', 'sip:offline@192.0.2.11')).status, 204);
  await expectEvents(ctx.ev, 'offline', from, [
    'ESC:online', 'PSC:Reachable', 'CSC:NonQualified/0', 'CSC:Unknown/0',
    'CSC:NonQualified/0', 'CSC:Unknown/0',
    'CSC:Removed/0',
    'ESC:offline', 'PSC:Unreachable', 'CSC:Removed/0',
  ]);
});

test('a qualified contact: NonQualified while offline, then online as its qualify answers; unreachable and back; a repeated answer says nothing', async () => {
  const uri = 'sip:offline@198.51.100.7:5062';
  const from = ctx.ev.events.length;
  assert.is((await register('offline', uri, { qualify: true })).status, 204);
  const first = await expectEvents(ctx.ev, 'offline', from, ['CSC:NonQualified/0', 'ESC:online', 'PSC:Reachable', 'CSC:Reachable/20000']);
  // Created before its qualify was answered: the endpoint was still offline then.
  assert.is(first[0]!.endpoint.state, 'offline');
  assert.is(first[3]!.endpoint.state, 'online');
  assert.is((await qualify('offline', uri, false)).status, 204);
  assert.is(await endpointState('offline'), 'offline');
  assert.is((await qualify('offline', uri, false)).status, 204);
  assert.is((await qualify('offline', uri, true, { roundtrip_usec: 1234 })).status, 204);
  assert.is((await qualify('offline', uri, true, { roundtrip_usec: 999 })).status, 204);
  assert.is((await unregister('offline', uri)).status, 204);
  await expectEvents(ctx.ev, 'offline', from, [
    'CSC:NonQualified/0', 'ESC:online', 'PSC:Reachable', 'CSC:Reachable/20000',
    'ESC:offline', 'PSC:Unreachable', 'CSC:Unreachable/0',
    'ESC:online', 'PSC:Reachable', 'CSC:Reachable/1234',
    'ESC:offline', 'PSC:Unreachable', 'CSC:Removed/0',
  ]);
});

test('qualify of an unqualified or unknown contact; bad registrations', async () => {
  assert.is((await register('offline', 'sip:offline@192.0.2.30')).status, 204);
  const unqualified = await qualify('offline', 'sip:offline@192.0.2.30', false);
  assert.is(unqualified.status, 409);
  assert.equal(unqualified.body, { message: 'Contact is not qualified' });
  assert.is((await unregister('offline', 'sip:offline@192.0.2.30')).status, 204);
  const missing = await qualify('offline', 'sip:offline@192.0.2.31', true);
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Contact not found' });
  const badUri = await register('offline', 'offline@192.0.2.10');
  assert.is(badUri.status, 400);
  assert.equal(badUri.body, { message: 'Invalid contact URI' });
  const noEndpoint = await register('nobody', 'sip:nobody@192.0.2.10');
  assert.is(noEndpoint.status, 404);
  assert.equal(noEndpoint.body, { message: 'Endpoint not found' });
  const noEndpointView = await ctx.t.http('GET', '/sim/endpoints/PJSIP/nobody');
  assert.is(noEndpointView.status, 404);
  assert.equal(noEndpointView.body, { message: 'Endpoint not found' });
  assert.is((await register('offline', 'sip:offline@192.0.2.10', { expires: 0 })).status, 400);
});

test('an endpoint with a fixed address (alice) stays online: its contacts only raise ContactStatusChange', async () => {
  const from = ctx.tech.events.length;
  assert.is((await register('alice', 'sip:alice@192.0.2.50')).status, 204);
  assert.is((await unregister('alice', 'sip:alice@192.0.2.50')).status, 204);
  await expectEvents(ctx.tech, 'alice', from, ['CSC:NonQualified/0', 'CSC:Unknown/0', 'CSC:Removed/0']);
  assert.is(await endpointState('alice'), 'online');
  // reg-app is subscribed to PJSIP/offline only.
  assert.equal(seen(ctx.ev, 'alice', 0), []);
});

test('a registration runs out after its expiry (simulated seconds): the contact goes as if unregistered', async () => {
  const from = ctx.ev.events.length;
  assert.is((await register('offline', 'sip:offline@192.0.2.40', { expires: 1 })).status, 204);
  await expectEvents(ctx.ev, 'offline', from, ['ESC:online', 'PSC:Reachable', 'CSC:NonQualified/0', 'CSC:Unknown/0', 'ESC:offline', 'PSC:Unreachable', 'CSC:Removed/0']);
  assert.equal((await ctx.t.http('GET', '/sim/endpoints/PJSIP/offline')).body.contacts, []);
});

test('calls follow registrations: an offline endpoint fails at once (CHANUNAVAIL), a registered one is rung', async () => {
  const before = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/offline', app: 'reg-app', channelId: 'reg-call-1' } });
  assert.is(before.status, 200);
  const gone = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'reg-call-1');
  assert.is(gone.cause, 20);
  assert.is((await register('offline', 'sip:offline@192.0.2.60')).status, 204);
  const after = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/offline', app: 'reg-app', channelId: 'reg-call-2' } });
  assert.is(after.status, 200);
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'reg-call-2');
  // The far end has the call (this endpoint never answers by itself): it is live until we hang up.
  const far = await ctx.t.http('GET', '/sim/channels/reg-call-2');
  assert.is(far.status, 200);
  assert.equal(ctx.ev.of('reg-call-2').filter((e) => e.type === 'Dial').map((e) => e.dialstatus), ['']);
  assert.is((await ctx.t.http('DELETE', '/ari/channels/reg-call-2')).status, 204);
  const ended = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'reg-call-2');
  assert.is.not(ended.cause, 20);
  assert.is((await unregister('offline', 'sip:offline@192.0.2.60')).status, 204);
});

test('a socket that subscribes to everything later hears the next change, and a read of the endpoint agrees with it', async () => {
  const late = await connectEvents(ctx.t.url, 'reg-late', { subscribeAll: true });
  try {
    assert.is((await register('offline', 'sip:offline@192.0.2.70')).status, 204);
    await expectEvents(late, 'offline', 0, ['ESC:online', 'PSC:Reachable', 'CSC:NonQualified/0', 'CSC:Unknown/0']);
    assert.is(await endpointState('offline'), 'online');
    assert.is((await unregister('offline', 'sip:offline@192.0.2.70')).status, 204);
    await expectEvents(late, 'offline', 0, ['ESC:online', 'PSC:Reachable', 'CSC:NonQualified/0', 'CSC:Unknown/0', 'ESC:offline', 'PSC:Unreachable', 'CSC:Removed/0']);
  } finally {
    await late.close();
  }
});

test('after a kill and restart: contacts, their status and what the far end received are back; one that expired meanwhile is gone', async () => {
  const servers = restartableServer('registration-restart', { SIM_TIME_SCALE: '10' });
  const reg = (query: Record<string, string | number | boolean>) => server.http('POST', '/sim/endpoints/PJSIP/offline/contacts', { query });
  let server = await servers.start();
  try {
    assert.is((await reg({ uri: 'sip:offline@192.0.2.80', qualify: true })).status, 204);
    assert.is((await reg({ uri: 'sip:offline@192.0.2.81', expires: 1 })).status, 204);
    assert.is((await reg({ uri: 'sip:offline@192.0.2.82' })).status, 204);
    assert.is((await server.http('POST', '/sim/endpoints/PJSIP/offline/contacts/qualify', { query: { uri: 'sip:offline@192.0.2.80', reachable: false } })).status, 204);
    assert.is((await server.http('PUT', '/ari/endpoints/sendMessage', { query: { to: 'pjsip:offline', from: 'sip:pbx@example.com', body: 'kept' } })).status, 202);
    await servers.kill();

    // The expired contact's timer is due at start, so it is gone before the first request is served.
    server = await servers.start();
    const log = await connectEvents(server.url, 'reg-restart');
    assert.is((await server.http('POST', '/ari/applications/reg-restart/subscription', { query: { eventSource: 'endpoint:PJSIP/offline' } })).status, 200);
    const after = (await server.http('GET', '/sim/endpoints/PJSIP/offline')).body;
    assert.equal(after.contacts.map((c: { uri: string; contact_status: string; qualified: boolean }) => `${c.uri} ${c.contact_status} ${c.qualified}`), [
      'sip:offline@192.0.2.80 Unreachable true', 'sip:offline@192.0.2.82 Unknown false',
    ]);
    assert.is(after.endpoint.state, 'online');
    assert.equal(after.messages.map((m: { body: string }) => m.body), ['kept']);
    // The restored contacts still drive the endpoint's state.
    assert.is((await server.http('DELETE', '/sim/endpoints/PJSIP/offline/contacts', { query: { uri: 'sip:offline@192.0.2.82' } })).status, 204);
    await expectEvents(log, 'offline', 0, ['ESC:offline', 'PSC:Unreachable', 'CSC:Removed/0']);
    assert.is((await server.http('GET', '/ari/endpoints/PJSIP/offline')).body.state, 'offline');
    await log.close();
    server.assertNoViolations();
  } finally {
    await servers.cleanup();
  }
});

test.run();
