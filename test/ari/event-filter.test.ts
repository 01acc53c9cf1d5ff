import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInApp, hangupAndWait } from '../_helpers/ari.js';
import { connectEvents, type EventLog } from '../_helpers/events.js';
import { startTestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';
import { tempDir } from '../_helpers/temp-dir.js';

const test = suite('event-filter');
const ctx = useServer(test, { events: { ev1: 'app1', ev2: 'app2' } });

const put = async (app: string, json?: unknown, body?: string) => {
  const opts = body !== undefined ? { body, headers: { 'content-type': 'application/json' } } : json !== undefined ? { json } : {};
  const r = await ctx.t.http('PUT', `/ari/applications/${app}/eventFilter`, opts);
  return { status: r.status, body: r.body };
};
const model = (name: string, allowed: unknown[] = [], disallowed: unknown[] = []) =>
  ({ name, channel_ids: [], bridge_ids: [], endpoint_ids: [], device_names: [], events_allowed: allowed, events_disallowed: disallowed });
const types = (...t: string[]) => t.map((type) => ({ type }));

/** A user event to `app` that gets through any filter allowing ChannelUserevent: everything sent before it has arrived. */
let barriers = 0;
async function barrier(log: EventLog, app: string): Promise<void> {
  const name = `barrier-${++barriers}`;
  assert.is((await ctx.t.http('POST', `/ari/events/user/${name}`, { query: { application: app } })).status, 204);
  await log.waitFor((e) => e.type === 'ChannelUserevent' && e.eventname === name);
}

/** Runs a channel through app1's life: create (StasisStart), a variable, hang up; returns what ev1 heard about it. */
async function lifeOf(id: string): Promise<string[]> {
  const r = await ctx.t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'app1', channelId: id } });
  assert.is(r.status, 200);
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/variable`, { query: { variable: 'X', value: '1' } })).status, 204);
  await hangupAndWait(ctx.t, ctx.ev2, id).catch(() => undefined);
  await barrier(ctx.ev1, 'app1');
  return ctx.ev1.of(id).map((e) => e.type);
}

test('no filter: every event of the channel arrives; the model shows empty lists', async () => {
  assert.equal((await ctx.t.http('GET', '/ari/applications/app1')).body, model('app1'));
  // app2 watches the channel too, so the test can wait for its end whatever app1's filter lets through.
  assert.is((await ctx.t.http('POST', '/ari/applications/app2/subscription', { query: { eventSource: 'endpoint:PJSIP/alice' } })).status, 200);
  assert.equal(await lifeOf('ef-none'), ['ChannelDialplan', 'StasisStart', 'ChannelVarset', 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
});

test('allowed list: only those types are sent; the answer is the application with the list as given', async () => {
  const allowed = [{ type: 'StasisStart' }, { type: 'StasisEnd', note: 'kept as given' }, { type: 'ChannelUserevent' }];
  assert.equal(await put('app1', { allowed }), { status: 200, body: model('app1', allowed) });
  assert.equal((await ctx.t.http('GET', '/ari/applications/app1')).body, model('app1', allowed));
  assert.equal(await lifeOf('ef-allowed'), ['StasisStart', 'StasisEnd']);
  // Other applications are not filtered.
  assert.ok(ctx.ev2.of('ef-allowed').some((e) => e.type === 'ChannelVarset'));
});

test('disallowed list alone: the allowed list stays; a type in both lists is held back (disallowed wins)', async () => {
  const r = await put('app1', { disallowed: types('StasisEnd') });
  assert.equal(r, { status: 200, body: model('app1', [{ type: 'StasisStart' }, { type: 'StasisEnd', note: 'kept as given' }, { type: 'ChannelUserevent' }], types('StasisEnd')) });
  assert.equal(await lifeOf('ef-both'), ['StasisStart']);
});

test('an empty list empties that list only; {} empties both; so does a PUT with no body', async () => {
  assert.equal(await put('app1', { allowed: [] }), { status: 200, body: model('app1', [], types('StasisEnd')) });
  assert.equal(await lifeOf('ef-dis'), ['ChannelDialplan', 'StasisStart', 'ChannelVarset', 'ChannelHangupRequest', 'ChannelDestroyed']);
  assert.equal(await put('app1', { allowed: types('StasisStart', 'ChannelUserevent') }), { status: 200, body: model('app1', types('StasisStart', 'ChannelUserevent'), types('StasisEnd')) });
  assert.equal(await put('app1', {}), { status: 200, body: model('app1') });
  assert.equal(await put('app1', { allowed: types('ChannelUserevent'), disallowed: types('X') }), { status: 200, body: model('app1', types('ChannelUserevent'), types('X')) });
  assert.equal(await put('app1'), { status: 200, body: model('app1') });
  assert.equal(await lifeOf('ef-reset'), ['ChannelDialplan', 'StasisStart', 'ChannelVarset', 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
});

test('type names compare exactly (case included); unknown keys in the body are ignored', async () => {
  assert.equal(await put('app1', { allowed: types('stasisstart', 'ChannelUserevent'), other: 1 }), { status: 200, body: model('app1', types('stasisstart', 'ChannelUserevent')) });
  assert.equal(await lifeOf('ef-case'), []);
  // An entry without a usable type names nothing, but still makes the allowed list non-empty.
  assert.equal(await put('app1', { allowed: [{ kind: 'StasisStart' }, { type: 5 }, { type: 'ChannelUserevent' }] }), { status: 200, body: model('app1', [{ kind: 'StasisStart' }, { type: 5 }, { type: 'ChannelUserevent' }]) });
  assert.equal(await lifeOf('ef-notype'), []);
  assert.is((await put('app1', {})).status, 200);
});

test('a whole body that is an array sets both lists to it, as Asterisk reads it', async () => {
  const list = types('ChannelVarset');
  assert.equal(await put('app1', list), { status: 200, body: model('app1', list, list) });
  assert.equal(await put('app1', []), { status: 200, body: model('app1') });
});

// Asterisk's texts (res/ari/resource_applications.c).
test('errors: unknown application 404; a list that is not an array of objects, or a body neither object nor array, 400 "Invalid format definition" with nothing changed', async () => {
  assert.equal(await put('no-such-app', {}), { status: 404, body: { message: 'Application not found' } });
  assert.equal(await put('app1', { allowed: types('StasisStart', 'ChannelUserevent') }), { status: 200, body: model('app1', types('StasisStart', 'ChannelUserevent')) });
  const bad: unknown[] = [
    { allowed: 'StasisStart' }, { allowed: null }, { allowed: { type: 'StasisStart' } }, { allowed: ['StasisStart'] }, { allowed: [[]] },
    { disallowed: 5 }, { allowed: types('ChannelVarset'), disallowed: 'x' }, { disallowed: types('X'), allowed: [null] }, 5, 'text', true, null,
  ];
  for (const json of bad) {
    assert.equal(await put('app1', undefined, JSON.stringify(json)), { status: 400, body: { message: 'Invalid format definition' } }, JSON.stringify(json));
  }
  assert.equal((await ctx.t.http('GET', '/ari/applications/app1')).body, model('app1', types('StasisStart', 'ChannelUserevent')), 'unchanged');
  const malformed = await put('app1', undefined, '{"allowed":');
  assert.is(malformed.status, 400);
  assert.is(typeof malformed.body.message, 'string');
  assert.is((await put('app1', {})).status, 200);
});

test('ChannelUserevent and ApplicationReplaced are filtered like any event', async () => {
  assert.is((await put('app2', { disallowed: types('ChannelUserevent', 'ApplicationReplaced') })).status, 200);
  assert.is((await ctx.t.http('POST', '/ari/events/user/Hidden', { query: { application: 'app2' } })).status, 204);
  // A second socket for app2 takes it over; the first is not told (its ApplicationReplaced is held back).
  const newer = await connectEvents(ctx.t.url, 'app2');
  assert.is((await put('app2', { disallowed: [] })).status, 200);
  await barrier(newer, 'app2');
  // A ping answered on the older socket: every frame written to it before has arrived.
  await new Promise((resolve) => {
    ctx.ev2.ws.once('pong', resolve);
    ctx.ev2.ws.ping();
  });
  assert.not.ok(newer.events.some((e) => e.eventname === 'Hidden'));
  assert.not.ok(ctx.ev2.events.some((e) => e.type === 'ApplicationReplaced' || e.eventname === 'Hidden'));
  await newer.close();
  assert.is((await ctx.t.http('DELETE', '/ari/applications/app2/subscription', { query: { eventSource: 'endpoint:PJSIP/alice' } })).status, 200);
});

test('the filter lasts while the application is remembered, across its WebSockets; it goes when the application is forgotten', async () => {
  let log = await connectEvents(ctx.t.url, 'ef-held');
  await createInApp(ctx.t, log, { app: 'ef-held', id: 'ef-held-ch' });
  assert.is((await put('ef-held', { allowed: types('ChannelDestroyed') })).status, 200);
  await log.close();
  log = await connectEvents(ctx.t.url, 'ef-held');
  assert.equal((await ctx.t.http('GET', '/ari/applications/ef-held')).body.events_allowed, types('ChannelDestroyed'), 'kept while its channel holds the app');
  await hangupAndWait(ctx.t, log, 'ef-held-ch');
  assert.equal(log.types(), ['ChannelDestroyed']);
  await log.close();
  // Nothing holds it now: it is forgotten, and comes back without a filter.
  assert.is((await ctx.t.http('GET', '/ari/applications/ef-held')).status, 404);
  log = await connectEvents(ctx.t.url, 'ef-held');
  assert.equal((await ctx.t.http('GET', '/ari/applications/ef-held')).body, model('ef-held'));
  await log.close();
});

test('restart: an application restored with its channels keeps its filter; one held by nothing loses it', async () => {
  const dir = tempDir('event-filter');
  let s = await startTestServer({}, dir);
  try {
    const kept = await connectEvents(s.url, 'ef-kept');
    assert.is((await s.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'ef-kept', channelId: 'ef-kept-ch' } })).status, 200);
    await kept.waitFor((e) => e.type === 'StasisStart');
    const lone = await connectEvents(s.url, 'ef-lone');
    assert.is((await s.http('PUT', '/ari/applications/ef-kept/eventFilter', { json: { disallowed: types('ChannelVarset') } })).status, 200);
    assert.is((await s.http('PUT', '/ari/applications/ef-lone/eventFilter', { json: { allowed: types('StasisStart') } })).status, 200);
    await kept.close();
    await lone.close();
    s.assertNoViolations();
    await s.close({ keepData: true });
    s = await startTestServer({}, dir);
    assert.equal((await s.http('GET', '/ari/applications/ef-kept')).body.events_disallowed, types('ChannelVarset'));
    assert.is((await s.http('GET', '/ari/applications/ef-lone')).status, 404);
    const back = await connectEvents(s.url, 'ef-kept');
    assert.is((await s.http('POST', '/ari/channels/ef-kept-ch/variable', { query: { variable: 'HIDDEN', value: '1' } })).status, 204);
    await s.http('DELETE', '/ari/channels/ef-kept-ch');
    await back.waitFor((e) => e.type === 'ChannelDestroyed');
    assert.not.ok(back.events.some((e) => e.type === 'ChannelVarset'));
    await back.close();
    s.assertNoViolations();
  } finally {
    await s.close();
  }
});

test.run();
