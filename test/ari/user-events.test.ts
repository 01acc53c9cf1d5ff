import ari from 'ari-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp, createInApp, hangupAndWait } from '../_helpers/ari.js';
import { connectEvents, waitUntil, WAIT_MS, type AriEvent, type EventLog } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('user-events');
const ctx = useServer(test, { events: { ev1: 'app1', ev2: 'app2' } });

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/;
const isUserEvent = (name: string) => (e: AriEvent) => e.type === 'ChannelUserevent' && e.eventname === name;

/** POST /ari/events/user/{name}: the status and body of the answer. */
async function raise(name: string, query: Record<string, string | undefined>, json?: unknown) {
  const r = await ctx.t.http('POST', `/ari/events/user/${encodeURIComponent(name)}`, { query, ...(json !== undefined ? { json } : {}) });
  return { status: r.status, body: r.body };
}

/**
 * Everything the server sent `log` before this returns has arrived: a user
 * event raised now reaches the same socket after anything sent earlier.
 */
let barriers = 0;
async function barrier(log: EventLog, app: string): Promise<void> {
  const name = `barrier-${++barriers}`;
  assert.equal(await raise(name, { application: app }), { status: 204, body: undefined });
  await log.waitFor(isUserEvent(name));
}

const userEvents = (log: EventLog) => log.events.filter((e) => e.type === 'ChannelUserevent' && !String(e.eventname).startsWith('barrier-'));

test('POST /events/user/{name} with no source and no body: 204, then one ChannelUserevent to that application only, eventname repeated in userevent', async () => {
  const r = await raise('Ping', { application: 'app1' });
  assert.equal(r, { status: 204, body: undefined });
  const e = await ctx.ev1.waitFor(isUserEvent('Ping'));
  assert.equal(Object.keys(e).sort(), ['application', 'asterisk_id', 'eventname', 'timestamp', 'type', 'userevent']);
  assert.is(e.application, 'app1');
  assert.match(e.timestamp, TS);
  assert.equal(e.userevent, { eventname: 'Ping' });
  await barrier(ctx.ev2, 'app2');
  assert.equal(userEvents(ctx.ev2), [], 'app2 heard nothing');
});

test('variables: any JSON values pass through as the userevent fields; the path name replaces a variable called eventname', async () => {
  const variables = { who: 'alice', count: 3, ok: true, none: null, nested: { a: [1, 'two'] }, eventname: 'ignored' };
  assert.is((await raise('Fields', { application: 'app2' }, { variables })).status, 204);
  const e = await ctx.ev2.waitFor(isUserEvent('Fields'));
  assert.is(e.eventname, 'Fields');
  assert.equal(e.userevent, { ...variables, eventname: 'Fields' });
  // A body without "variables" is the same as none.
  assert.is((await raise('NoVars', { application: 'app2' }, { other: 1 })).status, 204);
  assert.equal((await ctx.ev2.waitFor(isUserEvent('NoVars'))).userevent, { eventname: 'NoVars' });
});

test('sources: channel, bridge and endpoint snapshots as GET answers them; the app need not be subscribed to any of them', async () => {
  await createInApp(ctx.t, ctx.ev1, { app: 'app1', id: 'ue-ch' });
  assert.is((await ctx.t.http('POST', '/ari/bridges', { query: { bridgeId: 'ue-br', type: 'mixing', name: 'ue' } })).status, 200);
  const source = 'channel:ue-ch,bridge:ue-br,endpoint:PJSIP/alice';
  assert.is((await raise('Sourced', { application: 'app2', source }, { variables: { k: 'v' } })).status, 204);
  const e = await ctx.ev2.waitFor(isUserEvent('Sourced'));
  assert.equal(e.channel, (await ctx.t.http('GET', '/ari/channels/ue-ch')).body);
  assert.equal(e.bridge, (await ctx.t.http('GET', '/ari/bridges/ue-br')).body);
  assert.equal(e.endpoint, (await ctx.t.http('GET', '/ari/endpoints/PJSIP/alice')).body);
  assert.equal(e.endpoint.channel_ids, ['ue-ch']);
  assert.equal(e.userevent, { k: 'v', eventname: 'Sourced' });
  // The channel's own application was not told: the event goes to the named application alone.
  await barrier(ctx.ev1, 'app1');
  assert.not.ok(ctx.ev1.events.some(isUserEvent('Sourced')));
  // Endpoint technology is matched without regard to case.
  assert.is((await raise('LowerTech', { application: 'app2', source: 'endpoint:pjsip/alice' })).status, 204);
  assert.is((await ctx.ev2.waitFor(isUserEvent('LowerTech'))).endpoint.technology, 'PJSIP');
});

test('several sources of one kind: the event carries the last one', async () => {
  await createInApp(ctx.t, ctx.ev1, { app: 'app1', id: 'ue-ch2' });
  assert.is((await raise('Twice', { application: 'app2', source: 'channel:ue-ch,channel:ue-ch2' })).status, 204);
  assert.is((await ctx.ev2.waitFor(isUserEvent('Twice'))).channel!.id, 'ue-ch2');
  // Repeated sources as a JSON list work the same way.
  assert.is((await raise('TwiceJson', { application: 'app2' }, { source: ['channel:ue-ch2', 'channel:ue-ch'] })).status, 204);
  assert.is((await ctx.ev2.waitFor(isUserEvent('TwiceJson'))).channel!.id, 'ue-ch');
  await hangupAndWait(ctx.t, ctx.ev1, 'ue-ch2');
});

// Asterisk's texts (res/ari/resource_events.c).
test('errors: missing application 400, unknown application 404, bad scheme 400 (deviceState: too), missing source 422, bad variables 400; first failure wins; nothing sent', async () => {
  const refused = (status: number, message: string) => ({ status, body: { message } });
  const MISSING_APP = refused(400, 'Missing parameter application');
  const BAD_SCHEME = refused(400, 'Invalid event source URI scheme');
  const NOT_FOUND = refused(422, 'Event source was not found');
  const BAD_DATA = refused(400, 'Invalid userevent data');
  assert.equal(await raise('Refused', {}), MISSING_APP);
  assert.equal(await raise('Refused', { application: '' }), MISSING_APP);
  // The application is looked up first, then the variables, then each source in turn: the first failure answers.
  assert.equal(await raise('Refused', { application: 'no-such-app' }), refused(404, 'Application not found'));
  assert.equal(await raise('Refused', { application: 'no-such-app', source: 'carrier:x' }, { variables: 5 }), refused(404, 'Application not found'));
  assert.equal(await raise('Refused', { application: 'app2', source: 'carrier:x' }, { variables: 5 }), BAD_DATA);
  // Schemes are channel:, bridge: and endpoint:, spelled so; deviceState: is not one for user events.
  for (const source of ['carrier:x', 'deviceState:PJSIP/alice', 'Channel:ue-ch', 'ue-ch', 'carrier:x,channel:nope']) {
    assert.equal(await raise('Refused', { application: 'app2', source }), BAD_SCHEME, source);
  }
  // Channels by unique id only (not by name); endpoints as tech/resource (a technology alone names none).
  for (const source of ['channel:nope', 'channel:PJSIP/alice-00000001', 'bridge:nope', 'endpoint:PJSIP/nobody', 'endpoint:PJSIP', 'channel:nope,carrier:x', 'channel:ue-ch,bridge:nope']) {
    assert.equal(await raise('Refused', { application: 'app2', source }), NOT_FOUND, source);
  }
  for (const variables of ['a=1', ['a'], 5, true, null]) {
    assert.equal(await raise('Refused', { application: 'app2' }, { variables }), BAD_DATA, JSON.stringify(variables));
  }
  await barrier(ctx.ev2, 'app2');
  await barrier(ctx.ev1, 'app1');
  assert.not.ok([...ctx.ev1.events, ...ctx.ev2.events].some(isUserEvent('Refused')), 'no refused event was sent');
  await hangupAndWait(ctx.t, ctx.ev1, 'ue-ch');
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/ue-br')).status, 204);
});

test('an application the server remembers but that has no WebSocket: 204, and the event is lost (not replayed on reconnect)', async () => {
  const gone = await connectEvents(ctx.t.url, 'ue-gone');
  await createInApp(ctx.t, gone, { app: 'ue-gone', id: 'ue-held' });
  await gone.close();
  assert.is((await ctx.t.http('GET', '/ari/applications/ue-gone')).status, 200, 'remembered for its channel');
  assert.equal(await raise('WhileAway', { application: 'ue-gone' }), { status: 204, body: undefined });
  const back = await connectEvents(ctx.t.url, 'ue-gone');
  await barrier(back, 'ue-gone');
  assert.not.ok(back.events.some(isUserEvent('WhileAway')));
  await hangupAndWait(ctx.t, back, 'ue-held');
  await back.close();
});

test('dialplan UserEvent(): ChannelUserevent to the apps that hear about the channel, fields cut at the first colon, values trimmed, pairs without a colon skipped', async () => {
  const sub = await ctx.t.http('POST', '/ari/applications/app2/subscription', { query: { eventSource: 'endpoint:PJSIP/alice' } });
  assert.is(sub.status, 200);
  await callInApp(ctx.t, ctx.ev1, { id: 'ue-dp', app: 'app1', extension: 'userevent' });
  const e = await ctx.ev2.waitFor(isUserEvent('CallReady'));
  assert.is(e.application, 'app2');
  assert.equal(e.userevent, { eventname: 'CallReady', caller: '1001', where: 'default/userevent', 'Spaced Key': 'x:y' });
  assert.is(e.channel!.id, 'ue-dp');
  assert.equal(e.channel!.dialplan, { context: 'default', exten: 'userevent', priority: 2, app_name: 'UserEvent', app_data: 'CallReady,caller: 1001,where:  default/userevent ,no colon here,Spaced Key:x:y' });
  assert.equal(Object.keys(e).sort(), ['application', 'asterisk_id', 'channel', 'eventname', 'timestamp', 'type', 'userevent']);
  // It comes between the ChannelDialplan of UserEvent and that of Stasis.
  await ctx.ev2.waitFor((x) => x.type === 'ChannelDialplan' && x.channel?.id === 'ue-dp' && x.dialplan_app === 'Stasis');
  const seq = ctx.ev2.of('ue-dp').filter((x) => x.type === 'ChannelDialplan' || x.type === 'ChannelUserevent').map((x) => (x.type === 'ChannelDialplan' ? x.dialplan_app : x.type));
  assert.equal(seq, ['Answer', 'UserEvent', 'ChannelUserevent', 'Stasis']);
  // app1 was not subscribed to the channel yet: it saw StasisStart, not the user event.
  assert.not.ok(ctx.ev1.of('ue-dp').some((x) => x.type === 'ChannelUserevent'));

  // Back in the dialplan (label bare): UserEvent(${UE_NAME}) with a name and no fields.
  assert.is((await ctx.t.http('POST', '/ari/channels/ue-dp/variable', { query: { variable: 'UE_NAME', value: 'Named' } })).status, 204);
  assert.is((await ctx.t.http('POST', '/ari/channels/ue-dp/continue')).status, 204);
  const named = await ctx.ev2.waitFor(isUserEvent('Named'));
  assert.equal(named.userevent, { eventname: 'Named' });
  const end = await ctx.ev2.waitFor((x) => x.type === 'ChannelDestroyed' && x.channel?.id === 'ue-dp');
  assert.is(end.cause, 16);
  assert.ok(ctx.ev2.of('ue-dp').some((x) => x.type === 'ChannelVarset' && x.variable === 'AFTER_BARE'), 'the dialplan went on after it');
});

test('dialplan UserEvent() with no arguments ends the call there (the next priority never runs)', async () => {
  await callInApp(ctx.t, ctx.ev1, { id: 'ue-empty', app: 'app1', extension: 'userevent' });
  await ctx.ev2.waitFor((x) => x.type === 'ChannelUserevent' && x.channel?.id === 'ue-empty');
  assert.is((await ctx.t.http('POST', '/ari/channels/ue-empty/continue')).status, 204);
  const end = await ctx.ev2.waitFor((x) => x.type === 'ChannelDestroyed' && x.channel?.id === 'ue-empty');
  assert.is(end.cause, 16);
  const events = ctx.ev2.of('ue-empty');
  assert.is(events.filter((x) => x.type === 'ChannelUserevent').length, 1, 'only CallReady');
  assert.not.ok(events.some((x) => x.type === 'ChannelVarset' && x.variable === 'AFTER_BARE'));
  assert.ok(events.some((x) => x.type === 'ChannelDialplan' && x.dialplan_app === 'UserEvent' && x.dialplan_app_data === ''));
  assert.is((await ctx.t.http('DELETE', '/ari/applications/app2/subscription', { query: { eventSource: 'endpoint:PJSIP/alice' } })).status, 200);
});

test('the real ari-client: events.userEvent with sources and variables reaches client.on("ChannelUserevent") with Channel and Endpoint instances', async () => {
  const client = await ari.connect(ctx.t.url, 'asterisk', 'asterisk');
  try {
    await client.start('ue-client');
    await waitUntil(async () => (await ctx.t.http('GET', '/ari/applications/ue-client')).status === 200, 'ue-client is registered');
    await createInApp(ctx.t, ctx.ev1, { app: 'app1', id: 'ue-ac' });
    const got = new Promise<[any, any]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for ChannelUserevent')), WAIT_MS);
      client.once('ChannelUserevent', (event: any, instances: any) => {
        clearTimeout(timer);
        resolve([event, instances]);
      });
    });
    await client.events.userEvent({ eventName: 'FromClient', application: 'ue-client', source: ['channel:ue-ac', 'endpoint:PJSIP/alice'], variables: { order: '42', n: 7 } });
    const [event, instances] = await got;
    assert.is(event.eventname, 'FromClient');
    assert.equal(event.userevent, { order: '42', n: 7, eventname: 'FromClient' });
    assert.is(instances.channel.id, 'ue-ac');
    assert.is(typeof instances.channel.hangup, 'function', 'a Channel instance');
    assert.is(instances.endpoint.resource, 'alice');
    // An unknown application is the client's error, with Asterisk's message.
    const err = await client.events.userEvent({ eventName: 'X', application: 'no-such-app' }).then(() => undefined, (e: Error) => e);
    assert.match(String(err?.message), /Application not found/);
  } finally {
    client.stop();
  }
  await hangupAndWait(ctx.t, ctx.ev1, 'ue-ac');
});

test.run();
