import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInApp, eventLabel, eventSequence, hangupAndWait } from '../_helpers/ari.js';
import { connectEvents } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('create-dial');
const ctx = useServer(test);

const enc = encodeURIComponent;

test('create: 200 Down snapshot, then ChannelVarset per body variable, ChannelDialplan, StasisStart (still Down)', async () => {
  const r = await ctx.t.http('POST', '/ari/channels/create', {
    query: { endpoint: 'PJSIP/alice', app: 'app1', appArgs: 'a,b', channelId: 'cr-1' },
    json: { variables: { FIRST: 'one', SECOND: 'two' } },
  });
  assert.is(r.status, 200);
  assert.is(r.body.id, 'cr-1');
  assert.is(r.body.state, 'Down');
  assert.match(r.body.name, /^PJSIP\/alice-[0-9a-f]{8}$/);
  assert.match(r.body.creationtime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
  assert.is(r.body.dialplan.app_name, '');
  assert.is(r.body.dialplan.app_data, '');
  const start = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'cr-1');
  assert.equal(start.args, ['a', 'b']);
  assert.is(start.channel!.state, 'Down');
  const where = start.channel!.dialplan as { app_name: string; app_data: string };
  assert.is(where.app_name, 'Stasis');
  assert.is(where.app_data, 'app1,a,b');
  assert.equal(eventSequence(ctx.ev, 'cr-1'), ['ChannelVarset', 'ChannelVarset', 'ChannelDialplan', 'StasisStart']);
  const [v1, v2, dp] = ctx.ev.of('cr-1');
  assert.equal([v1!.variable, v1!.value], ['FIRST', 'one']);
  assert.equal([v2!.variable, v2!.value], ['SECOND', 'two']);
  assert.is(dp!.dialplan_app, 'Stasis');
  assert.is(dp!.dialplan_app_data, 'app1,a,b');
  // No ChannelCreated: per-channel subscriptions start after creation.
  assert.not.ok(ctx.ev.of('cr-1').some((e) => e.type === 'ChannelCreated'));
  // The variables are on the channel.
  const v = await ctx.t.http('GET', '/ari/channels/cr-1/variable', { query: { variable: 'SECOND' } });
  assert.is(v.status, 200);
  assert.equal(v.body, { value: 'two' });
  // The channel is listed, Down, and has not been dialed.
  const got = await ctx.t.http('GET', '/ari/channels/cr-1');
  assert.is(got.status, 200);
  assert.is(got.body.state, 'Down');
  assert.not.ok(ctx.ev.of('cr-1').some((e) => e.type === 'Dial'));
  await hangupAndWait(ctx.t, ctx.ev, 'cr-1');
});

test('create with an app that has no WebSocket: the channel is created, then hung up at once (Stasis fails)', async () => {
  const watch = await connectEvents(ctx.t.url, 'watcher', { subscribeAll: true });
  const r = await ctx.t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'nobody-listens', channelId: 'cr-ghost' } });
  assert.is(r.status, 200);
  assert.is(r.body.state, 'Down');
  await watch.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'cr-ghost');
  const types = watch.types('cr-ghost');
  assert.is(types[0], 'ChannelCreated');
  assert.is(types[types.length - 1], 'ChannelDestroyed');
  assert.not.ok(types.includes('StasisStart'));
  assert.not.ok(types.includes('Dial'), 'never dialed');
  assert.is((await ctx.t.http('GET', '/ari/channels/cr-ghost')).status, 404);
  await watch.close();
});

test('create: missing app is 400; duplicate channelId is 409', async () => {
  const noApp = await ctx.t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice' } });
  assert.is(noApp.status, 400);
  assert.type(noApp.body?.message, 'string');
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'cr-dup', endpoint: 'PJSIP/alice' });
  const dup = await ctx.t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/bob', app: 'app1', channelId: 'cr-dup' } });
  assert.is(dup.status, 409);
  assert.equal(dup.body, { message: 'Channel with given unique ID already exists' });
  // The existing channel is untouched.
  const got = await ctx.t.http('GET', `/ari/channels/${id}`);
  assert.match(got.body.name, /^PJSIP\/alice-/);
  await ctx.t.http('DELETE', `/ari/channels/${id}`);
});

test('dial PJSIP/alice: 204, Dial "" → Ringing → Dial RINGING → Up → Dial ANSWER; the channel stays in the app', async () => {
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'cr-dial', endpoint: 'PJSIP/alice' });
  const before = ctx.ev.of(id).length;
  const d = await ctx.t.http('POST', `/ari/channels/${id}/dial`);
  assert.is(d.status, 204);
  assert.is(d.text, '');
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === id && e.dialstatus === 'ANSWER');
  const after = ctx.ev.of(id).slice(before);
  assert.equal(after.map(eventLabel), ['Dial:', 'State:Ringing', 'Dial:RINGING', 'State:Up', 'Dial:ANSWER']);
  const dial = after[0]!;
  assert.is(dial.peer.id, id);
  assert.is(dial.dialstring, 'alice');
  assert.is(dial.forward, '');
  assert.is(dial.caller, undefined);
  assert.is(dial.application, 'app1');
  // Still in Stasis: a guarded operation works, and the state is Up.
  const ans = await ctx.t.http('POST', `/ari/channels/${id}/answer`);
  assert.is(ans.status, 204);
  const got = await ctx.t.http('GET', `/ari/channels/${id}`);
  assert.is(got.body.state, 'Up');
  assert.is(got.body.dialplan.app_name, 'Stasis');
  assert.not.ok(ctx.ev.of(id).some((e) => e.type === 'StasisEnd'));
  await hangupAndWait(ctx.t, ctx.ev, id);
  assert.equal(eventSequence(ctx.ev, id).slice(-3), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
});

test('dial with caller: Dial events carry the caller; the callee inherits connected line, language and inheritable variables', async () => {
  const o = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'app1', channelId: 'cr-caller', callerId: '"Front Desk" <100>' } });
  assert.is(o.status, 200);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'cr-caller');
  assert.is((await ctx.t.http('POST', '/ari/channels/cr-caller/variable', { query: { variable: '__TRACE', value: 'abc' } })).status, 204);
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'cr-callee', endpoint: 'PJSIP/alice' });
  const before = ctx.ev.of(id).length;
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/dial`, { query: { caller: 'cr-caller' } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === id && e.dialstatus === 'ANSWER');
  const dials = ctx.ev.of(id).slice(before).filter((e) => e.type === 'Dial');
  assert.equal(dials.map((e) => e.dialstatus), ['', 'RINGING', 'ANSWER']);
  for (const e of dials) {
    assert.is(e.caller?.id, 'cr-caller');
    assert.is(e.peer.id, id);
  }
  const got = await ctx.t.http('GET', `/ari/channels/${id}`);
  assert.equal(got.body.connected, { name: 'Front Desk', number: '100' });
  const inherited = await ctx.t.http('GET', `/ari/channels/${id}/variable`, { query: { variable: 'TRACE' } });
  assert.is(inherited.status, 200);
  assert.equal(inherited.body, { value: 'abc' });
  await ctx.t.http('DELETE', `/ari/channels/${id}`);
  await hangupAndWait(ctx.t, ctx.ev, 'cr-caller');
});

test('dial PJSIP/busy: Dial BUSY, then ChannelHangupRequest (17) → StasisEnd → ChannelDestroyed 17', async () => {
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', endpoint: 'PJSIP/busy' });
  const before = ctx.ev.of(id).length;
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/dial`)).status, 204);
  const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  const after = ctx.ev.of(id).slice(before);
  assert.equal(after.map(eventLabel), ['Dial:', 'Dial:BUSY', 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
  assert.is(after[2]!.cause, 17);
  assert.is(after[2]!.soft, undefined);
  assert.is(destroyed.cause, 17);
  assert.is(destroyed.cause_txt, 'User busy');
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).status, 404);
});

test('dial timeout: PJSIP/noanswer with timeout=1 gives Dial NOANSWER, then the channel ends with cause 19', async () => {
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', endpoint: 'PJSIP/noanswer' });
  const before = ctx.ev.of(id).length;
  const t0 = Date.now();
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/dial`, { query: { timeout: 1 } })).status, 204);
  const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  // 1 simulated second is 50 ms at the test scale.
  assert.ok(Date.now() - t0 >= 45, 'waited for the timeout');
  const after = ctx.ev.of(id).slice(before).map(eventLabel);
  assert.equal(after, ['Dial:', 'State:Ringing', 'Dial:RINGING', 'Dial:NOANSWER', 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
  assert.is(destroyed.cause, 19);
  assert.is(destroyed.cause_txt, 'User alerting, no answer');
});

test('a second dial once the channel is ringing is 409 "Channel is not in the \'Down\' state"', async () => {
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', endpoint: 'PJSIP/noanswer' });
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/dial`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelStateChange' && e.channel?.id === id && e.channel.state === 'Ringing');
  const again = await ctx.t.http('POST', `/ari/channels/${id}/dial`);
  assert.is(again.status, 409);
  assert.equal(again.body, { message: 'Channel is not in the \'Down\' state' });
  // Only one dial happened.
  assert.is(ctx.ev.of(id).filter((e) => e.type === 'Dial' && e.dialstatus === '').length, 1);
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('dial on an originated channel is 409: not in Stasis while ringing, not Down once answered', async () => {
  const o = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/manual', app: 'app1', channelId: 'cr-orig' } });
  assert.is(o.status, 200);
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'cr-orig' && e.dialstatus === 'RINGING');
  // An originated channel enters the app only when answered.
  const ringing = await ctx.t.http('POST', '/ari/channels/cr-orig/dial');
  assert.is(ringing.status, 409);
  assert.equal(ringing.body, { message: 'Channel not in Stasis application' });
  assert.is((await ctx.t.http('POST', '/sim/channels/cr-orig/answer')).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'cr-orig');
  const up = await ctx.t.http('POST', '/ari/channels/cr-orig/dial');
  assert.is(up.status, 409);
  assert.equal(up.body, { message: 'Channel is not in the \'Down\' state' });
  await hangupAndWait(ctx.t, ctx.ev, 'cr-orig');
});

test('dial on an unknown channel is 404', async () => {
  const r = await ctx.t.http('POST', '/ari/channels/no-such-channel/dial');
  assert.is(r.status, 404);
  assert.equal(r.body, { message: 'Channel not found' });
});

test('create Local/1000@default: ;2 runs the dialplan only after dial; dial on ;2 (not in an app) is 409', async () => {
  const apps = await connectEvents(ctx.t.url, 'trunkline');
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'lc', endpoint: 'Local/1000@default' });
  const created1 = await ctx.t.http('GET', '/ari/channels/lc');
  assert.match(created1.body.name, /^Local\/1000@default-[0-9a-f]{8};1$/);
  assert.is(created1.body.state, 'Down');
  // The second half exists and has not started the dialplan. Asterisk allocates the
  // pair as (Down, Ring): core_local.c local_request → ast_unreal_new_channels(…, AST_STATE_DOWN, AST_STATE_RING, …).
  const two = await ctx.t.http('GET', `/ari/channels/${enc('lc;2')}`);
  assert.is(two.status, 200);
  assert.match(two.body.name, /^Local\/1000@default-[0-9a-f]{8};2$/);
  assert.is(two.body.state, 'Ring');
  assert.is(two.body.dialplan.app_name, '');
  assert.equal(apps.of('lc;2'), []);
  // Watch ;2 from app1 too; its state does not change by being looked at.
  const sub = await ctx.t.http('POST', '/ari/applications/app1/subscription', { query: { eventSource: 'channel:lc;2' } });
  assert.is(sub.status, 200);
  const again = await ctx.t.http('GET', `/ari/channels/${enc('lc;2')}`);
  assert.is(again.body.state, 'Ring', 'the snapshot of ;2 is stable');
  // ;2 is not in any application: dial is 409 there.
  const notInApp = await ctx.t.http('POST', `/ari/channels/${enc('lc;2')}/dial`);
  assert.is(notInApp.status, 409);
  assert.equal(notInApp.body, { message: 'Channel not in Stasis application' });

  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/dial`)).status, 204);
  const start2 = await apps.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'lc;2');
  assert.equal(start2.args, ['1000']);
  assert.equal(start2.channel!.dialplan, { context: 'default', exten: '1000', priority: 2, app_name: 'Stasis', app_data: 'trunkline,1000' });
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'lc' && e.dialstatus === 'ANSWER');
  assert.is((await ctx.t.http('GET', '/ari/channels/lc')).body.state, 'Up');
  // The StasisStart of ;2 goes to its own app only.
  assert.not.ok(ctx.ev.of('lc;2').some((e) => e.type === 'StasisStart'));
  // ;2 was already Ring: the only state change app1 saw on it is Answer() taking it Up.
  await ctx.ev.waitFor((e) => e.type === 'ChannelStateChange' && e.channel?.id === 'lc;2' && e.channel.state === 'Up');
  assert.equal(ctx.ev.of('lc;2').filter((e) => e.type === 'ChannelStateChange').map((e) => e.channel!.state), ['Up']);
  await ctx.t.http('DELETE', '/ari/channels/lc');
  await apps.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === 'lc;2');
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'lc');
  await apps.close();
});

test.run();
