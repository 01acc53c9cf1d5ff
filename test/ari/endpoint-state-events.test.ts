import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hangupAndWait, originateInApp } from '../_helpers/ari.js';
import type { AriEvent, EventLog } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

// An endpoint's snapshot is published again whenever it changes: a channel of the endpoint
// appearing or ending, not only the endpoint going online or offline. Apps subscribed to the
// endpoint, to its technology, or to everything hear each one as EndpointStateChange; an app
// that only owns the channel does not.
const test = suite('endpoint-state-events');
/** ev: owns the calls; carol: subscribed to PJSIP/carol; tech: to PJSIP; all: to everything; bob: to PJSIP/bob. */
const ctx = useServer(test, {
  events: { ev: 'ese-app', carol: 'ese-carol', tech: 'ese-tech', all: { apps: 'ese-all', subscribeAll: true }, bob: 'ese-bob' },
});

const isAbout = (resource: string) => (e: AriEvent) => e.type === 'EndpointStateChange' && e.endpoint?.resource === resource;
/** The channel_ids of each EndpointStateChange about `resource` on `log`, joined by `+` (`-` when none). */
const idsSeen = (log: EventLog, resource: string) => log.events.filter(isAbout(resource)).map((e) => (e.endpoint.channel_ids as string[]).join('+') || '-');
const waitIds = async (log: EventLog, resource: string, n: number) => {
  await log.waitForCount(isAbout(resource), n);
  return idsSeen(log, resource);
};

test('subscriptions: PJSIP/carol, the PJSIP technology, PJSIP/bob', async () => {
  for (const [app, source] of [['ese-carol', 'endpoint:PJSIP/carol'], ['ese-tech', 'endpoint:PJSIP'], ['ese-bob', 'endpoint:PJSIP/bob']] as const) {
    const r = await ctx.t.http('POST', `/ari/applications/${app}/subscription`, { query: { eventSource: source } });
    assert.is(r.status, 200, r.text);
  }
});

test('an endpoint made at run time (asterisk/config/dynamic) publishes its first snapshot to apps that hear about it', async () => {
  const from = { all: ctx.all.events.length, tech: ctx.tech.events.length, ev: ctx.ev.events.length };
  const r = await ctx.t.http('PUT', '/ari/asterisk/config/dynamic/res_pjsip/endpoint/ese-dyn', { json: { fields: [{ attribute: 'context', value: 'default' }] } });
  assert.is(r.status, 200, r.text);
  const made = (await ctx.t.http('GET', '/ari/endpoints/PJSIP/ese-dyn')).body;
  assert.equal(made.channel_ids, []);
  for (const log of [ctx.all, ctx.tech]) {
    const e = await log.waitFor(isAbout('ese-dyn'));
    assert.equal(e.endpoint, made);
  }
  // Changing it again (the same state) publishes nothing more; apps not subscribed hear nothing.
  assert.is((await ctx.t.http('PUT', '/ari/asterisk/config/dynamic/res_pjsip/endpoint/ese-dyn', { json: { fields: [{ attribute: 'language', value: 'fr' }] } })).status, 200);
  // A second new endpoint marks the end: anything the change above published would have come before it.
  assert.is((await ctx.t.http('PUT', '/ari/asterisk/config/dynamic/res_pjsip/endpoint/ese-dyn2', { json: { fields: [] } })).status, 200);
  await ctx.all.waitFor(isAbout('ese-dyn2'));
  await ctx.tech.waitFor(isAbout('ese-dyn2'));
  assert.is(ctx.all.events.slice(from.all).filter(isAbout('ese-dyn')).length, 1);
  assert.is(ctx.tech.events.slice(from.tech).filter(isAbout('ese-dyn')).length, 1);
  assert.equal(ctx.ev.events.slice(from.ev).filter((e) => e.type === 'EndpointStateChange'), []);
});

test('a call to carol: its channel joins channel_ids once it exists and leaves after ChannelDestroyed; endpoint events only for endpoint subscribers', async () => {
  const call = await originateInApp(ctx.t, ctx.ev, { app: 'ese-app', id: 'to-carol', endpoint: 'PJSIP/carol' });
  const destroyed = await hangupAndWait(ctx.t, ctx.ev, call.id);
  assert.is(destroyed.cause, 16);
  assert.equal(await waitIds(ctx.carol, 'carol', 2), ['to-carol', '-']);
  assert.equal(await waitIds(ctx.tech, 'carol', 2), ['to-carol', '-']);
  assert.equal(await waitIds(ctx.all, 'carol', 2), ['to-carol', '-']);
  const first = ctx.carol.events.find(isAbout('carol'))!;
  assert.equal({ ...first, timestamp: '', asterisk_id: '' }, {
    type: 'EndpointStateChange', timestamp: '', endpoint: { technology: 'PJSIP', resource: 'carol', state: 'online', channel_ids: ['to-carol'] }, asterisk_id: '', application: 'ese-carol',
  });
  // The app that owns the channel is not subscribed to its endpoint, nor is bob's.
  assert.equal(ctx.ev.events.filter((e) => e.type === 'EndpointStateChange'), []);
  assert.equal(ctx.bob.events.filter(isAbout('carol')), []);
});

test('subscribeAll: the exact order of the channel, endpoint and device events of one call', async () => {
  const from = ctx.all.events.length;
  const call = await originateInApp(ctx.t, ctx.ev, { app: 'ese-app', id: 'carol-2', endpoint: 'PJSIP/carol' });
  await hangupAndWait(ctx.t, ctx.ev, call.id);
  await ctx.all.waitForCount(isAbout('carol'), 4);
  const label = (e: AriEvent) =>
    e.type === 'EndpointStateChange' ? `ESC:${(e.endpoint.channel_ids as string[]).join('+') || '-'}`
      : e.type === 'DeviceStateChanged' ? `Device:${e.device_state.state}`
        : e.type === 'Dial' ? `Dial:${e.dialstatus}`
          : e.type === 'ChannelStateChange' ? `State:${e.channel!.state}` : e.type;
  const mine = ctx.all.events.slice(from).filter((e) => e.channel?.id === 'carol-2' || e.peer?.id === 'carol-2' || isAbout('carol')(e) || e.device_state?.name === 'PJSIP/carol');
  assert.equal(mine.map(label), [
    'ChannelCreated', 'ESC:carol-2',
    'Dial:', 'State:Ringing', 'Dial:RINGING', 'Device:RINGING',
    'State:Up', 'Dial:ANSWER', 'ChannelDialplan', 'Device:INUSE',
    'ChannelHangupRequest', 'ChannelDestroyed', 'ESC:-', 'Device:NOT_INUSE',
  ]);
});

test('two calls on bob: each change publishes the whole list, in arrival order', async () => {
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'ese-app', id: 'bob-a', endpoint: 'PJSIP/bob' });
  const b = await originateInApp(ctx.t, ctx.ev, { app: 'ese-app', id: 'bob-b', endpoint: 'PJSIP/bob' });
  assert.equal((await ctx.t.http('GET', '/ari/endpoints/PJSIP/bob')).body.channel_ids, ['bob-a', 'bob-b']);
  await hangupAndWait(ctx.t, ctx.ev, a.id);
  await hangupAndWait(ctx.t, ctx.ev, b.id);
  assert.equal(await waitIds(ctx.bob, 'bob', 4), ['bob-a', 'bob-a+bob-b', 'bob-b', '-']);
  assert.equal(await waitIds(ctx.tech, 'bob', 4), ['bob-a', 'bob-a+bob-b', 'bob-b', '-']);
  assert.equal(idsSeen(ctx.carol, 'bob'), []);
});

test('a call the endpoint cannot take (offline): announced as it appears and as it ends', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/offline', app: 'ese-app', channelId: 'to-offline' } });
  assert.is(r.status, 200, r.text);
  await ctx.all.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'to-offline');
  const ids = await waitIds(ctx.tech, 'offline', 2);
  assert.equal(ids, ['to-offline', '-']);
  assert.ok(ctx.tech.events.filter(isAbout('offline')).every((e) => e.endpoint.state === 'offline'));
});

test.run();
