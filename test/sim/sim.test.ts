import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp, createInApp, eventSequence, hangupAndWait, originateInApp } from '../_helpers/ari.js';
import { sleep, type EventLog } from '../_helpers/events.js';
import { TEST_SCALE } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('sim');
/** ev: the Stasis application calls are sent to; all: sees every channel (subscribeAll). */
const ctx = useServer(test, { events: { ev: 'simapp', all: { apps: 'simwatch', subscribeAll: true } } });

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/;
const destroyed = (log: EventLog, id: string) => log.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
const stasisStart = (id: string) => ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);

/**
 * An inbound call into extension `ring` (Ringing(), then a long Wait): stays alive, in Ring, outside any app.
 * The dialplan starts after the 200, so wait until it has reached the Wait.
 */
async function ringingCall(channelId: string, endpoint = 'PJSIP/alice') {
  const r = await ctx.t.http('POST', '/sim/calls', { query: { endpoint, extension: 'ring', channelId } });
  assert.is(r.status, 200, r.text);
  await ctx.all.waitFor((e) => e.type === 'ChannelDialplan' && e.channel?.id === channelId && e.dialplan_app === 'Wait');
  return r;
}

/** An outgoing call to PJSIP/manual, which rings until the simulation answers (no originate timeout). */
async function manualCall(channelId: string) {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/manual', app: 'simapp', channelId, timeout: -1 } });
  assert.is(r.status, 200, r.text);
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === channelId && e.dialstatus === 'RINGING');
}

// ---- POST /sim/calls ----------------------------------------------------------------------------

test('POST /sim/calls answers 200 with the channel still in Ring, before the dialplan answers it', async () => {
  const r = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: 'in-ring' }, json: { variables: { STASIS_APP: 'simapp' } } });
  assert.is(r.status, 200);
  assert.is(r.body.id, 'in-ring');
  assert.is(r.body.state, 'Ring');
  assert.is(r.body.dialplan.context, 'default');
  assert.is(r.body.dialplan.exten, '1000');
  const start = await stasisStart('in-ring');
  assert.is(start.channel!.state, 'Up');
  await hangupAndWait(ctx.t, ctx.all, 'in-ring');
});

test('POST /sim/calls: caller and channel defaults come from the endpoint fixture', async () => {
  const r = await ringingCall('in-alice');
  assert.match(r.body.name, /^PJSIP\/alice-[0-9a-f]{8}$/);
  assert.is(r.body.state, 'Ring');
  assert.equal(r.body.caller, { name: 'Alice', number: '1001' });
  assert.equal(r.body.connected, { name: '', number: '' });
  assert.is(r.body.language, 'en');
  assert.is(r.body.accountcode, '');
  assert.match(r.body.creationtime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
  assert.is(r.body.dialplan.context, 'default');
  assert.is(r.body.dialplan.exten, 'ring');
  const created = await ctx.all.waitFor((e) => e.type === 'ChannelCreated' && e.channel?.id === 'in-alice');
  assert.is(created.channel!.state, 'Ring');
  // A generated id when none is given; the fixture's language.
  const carol = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/carol', extension: 'ring' } });
  assert.is(carol.status, 200);
  assert.match(carol.body.id, /^\d+\.\d+$/);
  assert.equal(carol.body.caller, { name: 'Carol', number: '1003' });
  assert.is(carol.body.language, 'fr');
  await hangupAndWait(ctx.t, ctx.all, 'in-alice');
  await hangupAndWait(ctx.t, ctx.all, carol.body.id);
});

test('POST /sim/calls: callerId override, channelId, and a JSON body carrying the parameters and variables', async () => {
  const r = await ctx.t.http('POST', '/sim/calls', {
    json: {
      endpoint: 'PJSIP/bob',
      extension: 'ring',
      channelId: 'in-json',
      callerId: '"Front Desk" <(555) 010-0199>',
      variables: { GREETING: 'hi', TRACKED: { value: 'yes', report_events: true } },
    },
  });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.id, 'in-json');
  assert.match(r.body.name, /^PJSIP\/bob-/);
  assert.equal(r.body.caller, { name: 'Front Desk', number: '5550100199' });
  assert.equal(r.body.channelvars, { TRACKED: 'yes' });
  const set = ctx.all.of('in-json').filter((e) => e.type === 'ChannelVarset').map((e) => `${e.variable}=${e.value}`);
  await ctx.all.waitFor((e) => e.type === 'ChannelVarset' && e.channel?.id === 'in-json' && e.variable === 'TRACKED');
  assert.ok(ctx.all.of('in-json').some((e) => e.type === 'ChannelVarset' && e.variable === 'GREETING' && e.value === 'hi'), String(set));
  // A CALLERID() function in the variables applies as a write.
  const fn = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/bob', extension: 'ring', channelId: 'in-fn' }, json: { variables: { 'CALLERID(name)': 'Renamed' } } });
  assert.equal(fn.body.caller, { name: 'Renamed', number: '1002' });
  await hangupAndWait(ctx.t, ctx.all, 'in-json');
  await hangupAndWait(ctx.t, ctx.all, 'in-fn');
});

test('POST /sim/calls errors: 400 for a missing/unknown/Local endpoint or unknown context/extension, 409 for a duplicate id', async () => {
  const before = (await ctx.t.http('GET', '/ari/channels')).body.length;
  const bad: Array<Record<string, string>> = [
    { extension: '1000' },
    { endpoint: 'PJSIP/nobody', extension: '1000' },
    { endpoint: 'alice', extension: '1000' },
    { endpoint: 'PJSIP/alice', context: 'no-such-context', extension: '1000' },
    { endpoint: 'PJSIP/alice', extension: '9999' },
    { endpoint: 'PJSIP/alice', context: 'ivr', extension: '1000' },
    { endpoint: 'Local/1000@default', extension: '1000' },
    { endpoint: 'PJSIP/alice', extension: 'ring', channelId: 'x'.repeat(150) },
  ];
  for (const query of bad) {
    const r = await ctx.t.http('POST', '/sim/calls', { query });
    assert.is(r.status, 400, JSON.stringify(query));
    assert.type(r.body?.message, 'string');
  }
  const missing = await ctx.t.http('POST', '/sim/calls', { query: { extension: '1000' } });
  assert.match(missing.body.message, /endpoint/);
  await ringingCall('in-dup');
  const dup = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/bob', extension: 'ring', channelId: 'in-dup' } });
  assert.is(dup.status, 409);
  assert.equal(dup.body, { message: 'Channel with given unique ID already exists' });
  // The same id is taken for ARI originates too.
  const dup2 = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/bob', app: 'simapp', channelId: 'in-dup' } });
  assert.is(dup2.status, 409);
  assert.is((await ctx.t.http('GET', '/ari/channels')).body.length, before + 1);
  await hangupAndWait(ctx.t, ctx.all, 'in-dup');
});

// ---- GET /sim/channels/{id} ------------------------------------------------------------------------

test('GET /sim/channels/{id}: by id and by name, what the far end perceives; 404 for an unknown channel', async () => {
  const r = await ringingCall('view-1');
  const byId = await ctx.t.http('GET', '/sim/channels/view-1');
  assert.is(byId.status, 200);
  assert.is(byId.body.channel.id, 'view-1');
  assert.is(byId.body.channel.state, 'Ring');
  assert.is(byId.body.endpoint, 'PJSIP/alice');
  assert.is(byId.body.direction, 'inbound');
  assert.equal(byId.body.far_end, {
    answered: false,
    ringing: true, // Ringing() in the dialplan indicates ringing to the caller
    on_hold: false,
    hearing: 'nothing',
    muted_in: false,
    muted_out: false,
    dtmf_received: [],
    holding: false,
    talking: false,
    progress: false,
    transfer_notify: [],
  });
  const byName = await ctx.t.http('GET', `/sim/channels/${encodeURIComponent(r.body.name)}`);
  assert.is(byName.status, 200);
  assert.is(byName.body.channel.id, 'view-1');
  const missing = await ctx.t.http('GET', '/sim/channels/no-such-channel');
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Channel not found' });
  await hangupAndWait(ctx.t, ctx.all, 'view-1');
  assert.is((await ctx.t.http('GET', '/sim/channels/view-1')).status, 404);
});

// ---- POST /sim/channels/{id}/answer ----------------------------------------------------------------

test('answer: a ringing PJSIP/manual call answers (204) and the originate completes with StasisStart', async () => {
  await manualCall('man-ans');
  let view = await ctx.t.http('GET', '/sim/channels/man-ans');
  assert.is(view.body.direction, 'outbound');
  assert.is(view.body.channel.state, 'Ringing');
  assert.is(view.body.far_end.answered, false);
  const r = await ctx.t.http('POST', '/sim/channels/man-ans/answer');
  assert.is(r.status, 204);
  assert.is(r.text, '');
  const start = await stasisStart('man-ans');
  assert.is(start.channel!.state, 'Up');
  assert.equal(start.args, []);
  assert.equal(eventSequence(ctx.ev, 'man-ans'), ['Dial:', 'State:Ringing', 'Dial:RINGING', 'State:Up', 'Dial:ANSWER', 'ChannelDialplan', 'StasisStart']);
  view = await ctx.t.http('GET', '/sim/channels/man-ans');
  assert.is(view.body.far_end.answered, true);
  // Already answered: 409.
  const again = await ctx.t.http('POST', '/sim/channels/man-ans/answer');
  assert.is(again.status, 409);
  assert.type(again.body.message, 'string');
  await hangupAndWait(ctx.t, ctx.all, 'man-ans');
});

test('answer: an inbound channel is 409, an unknown one 404', async () => {
  await ringingCall('ans-in');
  const r = await ctx.t.http('POST', '/sim/channels/ans-in/answer');
  assert.is(r.status, 409);
  assert.type(r.body.message, 'string');
  assert.is((await ctx.t.http('GET', '/ari/channels/ans-in')).body.state, 'Ring');
  const missing = await ctx.t.http('POST', '/sim/channels/nope/answer');
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Channel not found' });
  await hangupAndWait(ctx.t, ctx.all, 'ans-in');
  // A Local ;1 waiting for its ;2 (1001 rings and waits in the app): the dialplan answers it, not the simulation.
  const loc = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'Local/1001@default', app: 'simapp', channelId: 'ans-loc' }, json: { variables: { STASIS_APP: 'simapp' } } });
  assert.is(loc.status, 200, loc.text);
  await stasisStart('ans-loc;2');
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'ans-loc' && e.dialstatus === 'RINGING');
  const l = await ctx.t.http('POST', '/sim/channels/ans-loc/answer');
  assert.is(l.status, 409);
  assert.is((await ctx.t.http('GET', '/ari/channels/ans-loc')).body.state, 'Ringing');
  await hangupAndWait(ctx.t, ctx.all, 'ans-loc');
});

// ---- POST /sim/channels/{id}/hangup -------------------------------------------------------------------

test('hangup before answer rejects the call: cause 17 gives Dial BUSY and ChannelDestroyed 17, no StasisStart', async () => {
  await manualCall('rej-busy');
  const r = await ctx.t.http('POST', '/sim/channels/rej-busy/hangup', { query: { cause: 17 } });
  assert.is(r.status, 204);
  assert.is(r.text, '');
  const d = await destroyed(ctx.ev, 'rej-busy');
  assert.is(d.cause, 17);
  assert.is(d.cause_txt, 'User busy');
  assert.equal(eventSequence(ctx.ev, 'rej-busy'), ['Dial:', 'State:Ringing', 'Dial:RINGING', 'Dial:BUSY', 'ChannelDestroyed']);

  await manualCall('rej-cong');
  assert.is((await ctx.t.http('POST', '/sim/channels/rej-cong/hangup', { query: { reason: 'congestion' } })).status, 204);
  const c = await destroyed(ctx.ev, 'rej-cong');
  assert.is(c.cause, 34);
  assert.is(c.cause_txt, 'Circuit/channel congestion');
  assert.ok(ctx.ev.of('rej-cong').some((e) => e.type === 'Dial' && e.dialstatus === 'CONGESTION'));
  assert.not.ok(ctx.ev.of('rej-cong').some((e) => e.type === 'StasisStart' || e.type === 'ChannelHangupRequest'));
});

test('hangup after answer: ChannelHangupRequest {cause} without soft, then StasisEnd, then ChannelDestroyed', async () => {
  await originateInApp(ctx.t, ctx.ev, { app: 'simapp', id: 'far-bye' });
  const h = await ctx.t.http('POST', '/sim/channels/far-bye/hangup');
  assert.is(h.status, 204);
  const d = await destroyed(ctx.ev, 'far-bye');
  const end = ctx.ev.of('far-bye').slice(ctx.ev.of('far-bye').findIndex((e) => e.type === 'ChannelHangupRequest'));
  assert.equal(end.map((e) => e.type), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
  assert.is(end[0]!.cause, 16);
  assert.is(end[0]!.soft, undefined);
  assert.is(d.cause, 16);
  assert.is(d.cause_txt, 'Normal Clearing');

  await callInApp(ctx.t, ctx.ev, { app: 'simapp', id: 'far-bye-2' });
  assert.is((await ctx.t.http('POST', '/sim/channels/far-bye-2/hangup', { query: { reason: 'normal_unspecified' } })).status, 204);
  const req = await ctx.ev.waitFor((e) => e.type === 'ChannelHangupRequest' && e.channel?.id === 'far-bye-2');
  assert.is(req.cause, 31);
  assert.is(req.soft, undefined);
  const d2 = await destroyed(ctx.all, 'far-bye-2');
  assert.is(d2.cause, 31);
  assert.is(d2.cause_txt, 'Normal, unspecified');
  assert.equal(ctx.ev.of('far-bye-2').map((e) => e.type), ['StasisStart', 'ChannelHangupRequest', 'StasisEnd']);
});

test('hangup errors: cause and reason together 400, bad cause or reason 400, unknown channel 404', async () => {
  await ringingCall('hang-err');
  const both = await ctx.t.http('POST', '/sim/channels/hang-err/hangup', { query: { cause: 17, reason: 'busy' } });
  assert.is(both.status, 400);
  assert.type(both.body.message, 'string');
  for (const query of [{ cause: 'loud' }, { cause: 200 }, { cause: -1 }, { reason: 'bored' }]) {
    const r = await ctx.t.http('POST', '/sim/channels/hang-err/hangup', { query });
    assert.is(r.status, 400, JSON.stringify(query));
  }
  assert.is((await ctx.t.http('GET', '/ari/channels/hang-err')).status, 200, 'still up after the 400s');
  const missing = await ctx.t.http('POST', '/sim/channels/nope/hangup');
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Channel not found' });
  // An inbound call hung up by its caller: cause from reason.
  assert.is((await ctx.t.http('POST', '/sim/channels/hang-err/hangup', { query: { reason: 'busy' } })).status, 204);
  const d = await destroyed(ctx.all, 'hang-err');
  assert.is(d.cause, 17);
});

// ---- POST /sim/channels/{id}/dtmf -------------------------------------------------------------------------

test('dtmf: each digit raises ChannelDtmfReceived {digit, duration_ms} in order', async () => {
  await callInApp(ctx.t, ctx.ev, { app: 'simapp', id: 'dtmf-1' });
  const r = await ctx.t.http('POST', '/sim/channels/dtmf-1/dtmf', { query: { dtmf: '12#*A9' } });
  assert.is(r.status, 204);
  assert.is(r.text, '');
  const got = await ctx.ev.waitForCount((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === 'dtmf-1', 6);
  assert.equal(got.map((e) => e.digit), ['1', '2', '#', '*', 'A', '9']);
  assert.ok(got.every((e) => e.duration_ms === 100));
  // Digits are 100 ms long with 100 ms between them (simulated): five more digits take at least 1000 ms.
  const at = (e: { timestamp: string }) => Date.parse(e.timestamp.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  assert.ok(at(got[5]!) - at(got[0]!) >= 1000 / TEST_SCALE - 1, `${at(got[5]!) - at(got[0]!)} ms wall`);
  const t2 = await ctx.t.http('POST', '/sim/channels/dtmf-1/dtmf', { query: { dtmf: '0', duration: 250, between: 0 } });
  assert.is(t2.status, 204);
  const seven = await ctx.ev.waitForCount((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === 'dtmf-1', 7);
  assert.equal({ digit: seven[6]!.digit, duration_ms: seven[6]!.duration_ms }, { digit: '0', duration_ms: 250 });
  // What the far end pressed is not what we sent it.
  assert.equal((await ctx.t.http('GET', '/sim/channels/dtmf-1')).body.far_end.dtmf_received, []);
  await hangupAndWait(ctx.t, ctx.all, 'dtmf-1');
});

test('dtmf errors: invalid digit 400, missing 400, unknown channel 404, a Down channel 409', async () => {
  await callInApp(ctx.t, ctx.ev, { app: 'simapp', id: 'dtmf-err' });
  for (const query of [{ dtmf: '12x' }, { dtmf: 'w' }, {}, { dtmf: '' }, { dtmf: '1', duration: 0 }]) {
    const r = await ctx.t.http('POST', '/sim/channels/dtmf-err/dtmf', { query });
    assert.is(r.status, 400, JSON.stringify(query));
    assert.type(r.body.message, 'string');
  }
  const missing = await ctx.t.http('POST', '/sim/channels/nope/dtmf', { query: { dtmf: '1' } });
  assert.is(missing.status, 404);
  await sleep(50);
  assert.not.ok(ctx.ev.of('dtmf-err').some((e) => e.type === 'ChannelDtmfReceived'));
  await hangupAndWait(ctx.t, ctx.all, 'dtmf-err');
  // channels/create: in the app, still Down.
  await createInApp(ctx.t, ctx.ev, { app: 'simapp', id: 'dtmf-down' });
  const down = await ctx.t.http('POST', '/sim/channels/dtmf-down/dtmf', { query: { dtmf: '1' } });
  assert.is(down.status, 409);
  await hangupAndWait(ctx.t, ctx.all, 'dtmf-down');
});

// ---- hold / unhold ---------------------------------------------------------------------------------

test('hold: ChannelHold with the music class given (else N/A), ChannelUnhold; far_end.holding follows', async () => {
  await callInApp(ctx.t, ctx.ev, { app: 'simapp', id: 'hold-1' });
  const on = await ctx.t.http('POST', '/sim/channels/hold-1/hold', { query: { musicclass: 'jazz' } });
  assert.is(on.status, 204);
  const h = await ctx.ev.waitFor((e) => e.type === 'ChannelHold' && e.channel?.id === 'hold-1');
  assert.is(h.musicclass, 'jazz');
  assert.is((await ctx.t.http('GET', '/sim/channels/hold-1')).body.far_end.holding, true);
  assert.is((await ctx.t.http('DELETE', '/sim/channels/hold-1/hold')).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelUnhold' && e.channel?.id === 'hold-1');
  assert.is((await ctx.t.http('GET', '/sim/channels/hold-1')).body.far_end.holding, false);
  assert.is((await ctx.t.http('POST', '/sim/channels/hold-1/hold')).status, 204);
  const holds = await ctx.ev.waitForCount((e) => e.type === 'ChannelHold' && e.channel?.id === 'hold-1', 2);
  assert.is(holds[1]!.musicclass, 'N/A');
  assert.equal(ctx.ev.of('hold-1').map((e) => e.type), ['StasisStart', 'ChannelHold', 'ChannelUnhold', 'ChannelHold']);
  assert.is((await ctx.t.http('POST', '/sim/channels/nope/hold')).status, 404);
  assert.is((await ctx.t.http('DELETE', '/sim/channels/nope/hold')).status, 404);
  await hangupAndWait(ctx.t, ctx.all, 'hold-1');
});

// ---- talk -----------------------------------------------------------------------------------------

test('talk: no events until TALK_DETECT(set); then ChannelTalkingStarted and ChannelTalkingFinished with a duration', async () => {
  await callInApp(ctx.t, ctx.ev, { app: 'simapp', id: 'talk-1' });
  assert.is((await ctx.t.http('POST', '/sim/channels/talk-1/talk')).status, 204);
  assert.is((await ctx.t.http('GET', '/sim/channels/talk-1')).body.far_end.talking, true);
  assert.is((await ctx.t.http('DELETE', '/sim/channels/talk-1/talk')).status, 204);
  // A later event on the same channel shows nothing came before it.
  await ctx.t.http('POST', '/sim/channels/talk-1/hold');
  await ctx.ev.waitFor((e) => e.type === 'ChannelHold' && e.channel?.id === 'talk-1');
  assert.equal(ctx.ev.of('talk-1').map((e) => e.type), ['StasisStart', 'ChannelHold']);

  const set = await ctx.t.http('POST', '/ari/channels/talk-1/variable', { query: { variable: 'TALK_DETECT(set)', value: '' } });
  assert.is(set.status, 204);
  assert.is((await ctx.t.http('POST', '/sim/channels/talk-1/talk')).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelTalkingStarted' && e.channel?.id === 'talk-1');
  await sleep(30); // 600 simulated ms
  assert.is((await ctx.t.http('DELETE', '/sim/channels/talk-1/talk')).status, 204);
  const fin = await ctx.ev.waitFor((e) => e.type === 'ChannelTalkingFinished' && e.channel?.id === 'talk-1');
  assert.type(fin.duration, 'number');
  assert.ok(fin.duration > 0, `duration ${fin.duration}`);
  assert.ok(fin.duration >= 500, `duration is in simulated ms: ${fin.duration}`);
  assert.equal(ctx.ev.of('talk-1').map((e) => e.type), ['StasisStart', 'ChannelHold', 'ChannelTalkingStarted', 'ChannelTalkingFinished']);
  assert.is((await ctx.t.http('GET', '/sim/channels/talk-1')).body.far_end.talking, false);
  assert.is((await ctx.t.http('POST', '/sim/channels/nope/talk')).status, 404);
  assert.is((await ctx.t.http('DELETE', '/sim/channels/nope/talk')).status, 404);
  await hangupAndWait(ctx.t, ctx.all, 'talk-1');
});

// ---- GET /sim/history ---------------------------------------------------------------------------------

test('history: ended channels newest first, with cause, times, last app and variables; limit and before page', async () => {
  await callInApp(ctx.t, ctx.ev, { app: 'simapp', id: 'hist-a', variables: { NOTE: 'a' } });
  assert.is((await ctx.t.http('POST', '/sim/channels/hist-a/hangup')).status, 204);
  await destroyed(ctx.all, 'hist-a');
  await manualCall('hist-b');
  await ctx.t.http('POST', '/sim/channels/hist-b/hangup', { query: { reason: 'busy' } });
  await destroyed(ctx.all, 'hist-b');
  await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/bob', extension: 'congestion', channelId: 'hist-c' } });
  await destroyed(ctx.all, 'hist-c');
  await ringingCall('hist-live');

  const h = await ctx.t.http('GET', '/sim/history', { query: { limit: 3 } });
  assert.is(h.status, 200);
  assert.equal(h.body.map((r: { id: string }) => r.id), ['hist-c', 'hist-b', 'hist-a']);
  const [c, b, a] = h.body;

  assert.is(c.cause, 34);
  assert.is(c.cause_txt, 'Circuit/channel congestion');
  assert.is(c.direction, 'inbound');
  assert.is(c.endpoint, 'PJSIP/bob');
  assert.equal(c.caller, { name: 'Bob', number: '1002' });
  assert.is(c.answertime, undefined);
  assert.is(c.app, undefined);
  assert.equal(c.dialplan, { context: 'default', exten: 'congestion', priority: 1, app_name: 'Congestion', app_data: '' });

  assert.is(b.cause, 17);
  assert.is(b.cause_txt, 'User busy');
  assert.is(b.direction, 'outbound');
  assert.is(b.endpoint, 'PJSIP/manual');
  assert.is(b.answertime, undefined);
  assert.is(b.app, undefined, 'never entered its app');

  assert.is(a.cause, 16);
  assert.is(a.cause_txt, 'Normal Clearing');
  assert.is(a.app, 'simapp');
  assert.match(a.name, /^PJSIP\/alice-[0-9a-f]{8}$/);
  assert.is(a.variables.NOTE, 'a');
  assert.is(a.variables.STASIS_APP, 'simapp');
  for (const k of ['creationtime', 'answertime', 'endtime']) assert.match(a[k], TS, k);
  assert.ok(a.creationtime <= a.answertime && a.answertime <= a.endtime);

  const page = await ctx.t.http('GET', '/sim/history', { query: { limit: 1, before: 'hist-c' } });
  assert.is(page.status, 200);
  assert.equal(page.body.map((r: { id: string }) => r.id), ['hist-b']);
  const rest = await ctx.t.http('GET', '/sim/history', { query: { before: 'hist-b' } });
  assert.is(rest.body[0].id, 'hist-a');
  const full = await ctx.t.http('GET', '/sim/history');
  assert.not.ok(full.body.some((r: { id: string }) => r.id === 'hist-live'), 'live channels are not history');
  assert.is(full.body[0].id, 'hist-c');

  const unknown = await ctx.t.http('GET', '/sim/history', { query: { before: 'never-existed' } });
  assert.is(unknown.status, 404);
  assert.type(unknown.body.message, 'string');
  const live = await ctx.t.http('GET', '/sim/history', { query: { before: 'hist-live' } });
  assert.is(live.status, 404, 'a live channel is not in the history');
  for (const limit of [0, 1001, 'many']) assert.is((await ctx.t.http('GET', '/sim/history', { query: { limit } })).status, 400, String(limit));
  await hangupAndWait(ctx.t, ctx.all, 'hist-live');
});

// ---- auth and docs -----------------------------------------------------------------------------------

test('/sim is for write users only: viewer gets 403 even on GET; wrong or missing credentials 401', async () => {
  await ringingCall('auth-1');
  const viewer = 'viewer:secret-viewer';
  for (const [method, path] of [
    ['GET', '/sim/history'],
    ['GET', '/sim/channels/auth-1'],
    ['GET', '/sim/api-docs.json'],
    ['POST', '/sim/calls?endpoint=PJSIP/alice&extension=ring'],
    ['POST', '/sim/channels/auth-1/hangup'],
  ] as const) {
    const r = await ctx.t.http(method, path, { auth: viewer });
    assert.is(r.status, 403, `${method} ${path}`);
    assert.equal(r.body, { message: 'Write access denied' });
  }
  // The viewer can still read the same channel through ARI.
  assert.is((await ctx.t.http('GET', '/ari/channels/auth-1', { auth: viewer })).status, 200);
  for (const auth of ['asterisk:wrong', 'nobody:asterisk', null]) {
    const r = await ctx.t.http('GET', '/sim/history', { auth });
    assert.is(r.status, 401, String(auth));
    assert.equal(r.body, { message: 'Authentication required' });
    assert.is(r.headers.get('www-authenticate'), 'Basic realm="Asterisk REST Interface"');
  }
  assert.is((await ctx.t.http('GET', '/sim/api-docs.json', { auth: null })).status, 401);
  // api_key works here as on /ari.
  assert.is((await ctx.t.http('GET', '/sim/channels/auth-1', { auth: null, query: { api_key: 'asterisk:asterisk' } })).status, 200);
  assert.is((await ctx.t.http('GET', '/sim/channels/auth-1', { auth: null, query: { api_key: viewer } })).status, 403);
  await hangupAndWait(ctx.t, ctx.all, 'auth-1');
});

test('GET /sim/api-docs.json: a Swagger 1.1 declaration of every sim operation; ARI resources.json does not list sim', async () => {
  const r = await ctx.t.http('GET', '/sim/api-docs.json');
  assert.is(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
  const doc = r.body;
  assert.is(doc.swaggerVersion, '1.1');
  assert.is(doc.basePath, `http://${ctx.t.host}/sim`);
  const ops = doc.apis.flatMap((a: { path: string; operations: Array<{ httpMethod: string; nickname: string }> }) =>
    a.operations.map((o) => `${o.httpMethod} ${a.path} ${o.nickname}`));
  assert.equal(ops.sort(), [
    'DELETE /channels/{channelId}/hold unhold',
    'DELETE /channels/{channelId}/talk stopTalking',
    'DELETE /endpoints/{tech}/{resource}/contacts unregister',
    'DELETE /endpoints/{tech}/{resource}/script deleteEndpointScript',
    'DELETE /faults clearFaults',
    'DELETE /faults/{faultId} removeFault',
    'GET /channels/{channelId} getChannel',
    'GET /channels/{channelId}/heard heard',
    'GET /channels/{channelId}/heard.wav heardAudio',
    'GET /clock getClock',
    'GET /endpoints/{tech}/{resource} getEndpoint',
    'GET /endpoints/{tech}/{resource}/script getEndpointScript',
    'GET /events tapEvents',
    'GET /faults listFaults',
    'GET /history history',
    'POST /calls placeCall',
    'POST /channels/{channelId}/answer answer',
    'POST /channels/{channelId}/attendedTransfer attendedTransfer',
    'POST /channels/{channelId}/audio setAudio',
    'POST /channels/{channelId}/dtmf pressDtmf',
    'POST /channels/{channelId}/hangup hangup',
    'POST /channels/{channelId}/hold hold',
    'POST /channels/{channelId}/talk startTalking',
    'POST /channels/{channelId}/transfer blindTransfer',
    'POST /clock/advance advanceClock',
    'POST /endpoints/{tech}/{resource}/contacts register',
    'POST /endpoints/{tech}/{resource}/contacts/qualify qualify',
    'POST /endpoints/{tech}/{resource}/messages sendMessage',
    'POST /faults addFault',
    'PUT /channels/{channelId}/audio uploadAudio',
    'PUT /endpoints/{tech}/{resource}/script setEndpointScript',
  ]);
  const placeCall = doc.apis.find((a: { path: string }) => a.path === '/calls').operations[0];
  assert.equal(
    placeCall.parameters.map((p: { name: string; paramType: string }) => `${p.name}:${p.paramType}`).sort(),
    ['callerId:query', 'channelId:query', 'context:query', 'endpoint:query', 'extension:query', 'redirectingFrom:query', 'script:body', 'variables:body'],
  );
  for (const m of ['SimChannel', 'FarEnd', 'CallRecord']) assert.ok(doc.models[m], m);

  const listing = await ctx.t.http('GET', '/ari/api-docs/resources.json');
  assert.not.ok(listing.body.apis.some((a: { path: string }) => a.path.includes('sim')), 'sim is not an ARI resource');
  assert.is((await ctx.t.http('GET', '/ari/api-docs/sim.json')).status, 404);
});

test.run();
