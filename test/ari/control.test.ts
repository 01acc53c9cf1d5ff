import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp, createInApp, originateInApp } from '../_helpers/ari.js';
import { connectEvents, type AriEvent, type EventLog } from '../_helpers/events.js';
import { TEST_SCALE } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';
import { pollUntil, WAIT_MS } from '../_helpers/wait.js';

// ARI operations on existing channels (ari.md §3.2, §3.4–3.6): hangup, the 404/409/412
// guards, answer, ring, hold, mute, moh, silence, sendDTMF, continue, move and redirect.
const test = suite('control');
/**
 * ev: app1, channels this suite originates or creates.
 * tl: trunkline, where the bundled dialplan's Stasis(${STASIS_APP}) puts inbound calls.
 * all: a subscribeAll app, to follow channels outside Stasis (dialplan after continue, plain dialplan calls).
 */
const ctx = useServer(test, { events: { ev: 'app1', tl: 'trunkline', all: { apps: 'watcher', subscribeAll: true } } });

// ---- helpers ---------------------------------------------------------------------------

let seq = 0;
const uid = (prefix: string) => `${prefix}-${++seq}`;
const is = (type: string, id: string) => (e: AriEvent) => e.type === type && e.channel?.id === id;
const types = (events: AriEvent[]) => events.map((e) => e.type);
interface Location { context: string; exten: string; priority: number; app_name: string; app_data: string }
const loc = (e: AriEvent) => e.channel!.dialplan as Location;
/** A channel's events on `log` from index `from` on. */
const since = (log: EventLog, id: string, from: number) => log.of(id).slice(from);

/** Originate into app1 to PJSIP/instant: Up and in Stasis. */
async function upInApp(endpoint = 'PJSIP/instant'): Promise<string> {
  const { id, start } = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: uid('up'), endpoint });
  assert.is(start.channel!.state, 'Up');
  return id;
}

/** channels/create into app1: in Stasis, still Down. */
async function downInApp(endpoint = 'PJSIP/alice', app = 'app1', log = ctx.ev): Promise<string> {
  const { id, body, start } = await createInApp(ctx.t, log, { app, id: uid('down'), endpoint });
  assert.is(body.state, 'Down');
  assert.is(start.channel!.state, 'Down');
  return id;
}

/** channels/create + dial to PJSIP/noanswer: in Stasis and Ringing (originate-with-app would only enter on answer). */
async function ringingInApp(): Promise<string> {
  const id = await downInApp('PJSIP/noanswer');
  const d = await ctx.t.http('POST', `/ari/channels/${id}/dial`);
  assert.is(d.status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelStateChange' && e.channel?.id === id && e.channel.state === 'Ringing');
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).body.state, 'Ringing');
  return id;
}

/** An inbound call from the far end (POST /sim/calls) into the default context. */
async function inbound(extension: string, context = 'default'): Promise<string> {
  const id = uid(`in-${extension}`);
  const r = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension, context, channelId: id } });
  assert.is(r.status, 200);
  return id;
}

/** An inbound call whose dialplan enters Stasis(trunkline, …). */
async function inboundInStasis(extension: string, context = 'default'): Promise<{ id: string; start: AriEvent }> {
  return callInApp(ctx.t, ctx.tl, { id: uid(`in-${extension}`), extension, context });
}

/** Local/1000@default into app1: ;1 in app1 (Up), ;2 runs 1000 and sits in Stasis(trunkline,1000). */
async function localPair(): Promise<{ one: string; two: string }> {
  const one = uid('loc');
  const two = `${one};2`;
  await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: one, endpoint: 'Local/1000@default' });
  await ctx.tl.waitFor(is('StasisStart', two));
  return { one, two };
}

let fences = 0;
/**
 * Sets a variable and waits for its ChannelVarset. The set runs on the channel's control
 * queue behind every earlier command, so anything those commands emitted is already in `log`.
 */
async function fence(log: EventLog, id: string): Promise<void> {
  const value = String(++fences);
  const r = await ctx.t.http('POST', `/ari/channels/${id}/variable`, { query: { variable: 'FENCE', value } });
  assert.is(r.status, 204);
  await log.waitFor((e) => e.type === 'ChannelVarset' && e.channel?.id === id && e.variable === 'FENCE' && e.value === value);
}

/** What the far end perceives (GET /sim/channels/{id}). */
async function far(id: string): Promise<Record<string, any>> {
  const r = await ctx.t.http('GET', `/sim/channels/${encodeURIComponent(id)}`);
  assert.is(r.status, 200, `GET /sim/channels/${id}`);
  return r.body.far_end;
}

/** DELETE the channel and assert 204, without waiting for it to go (unlike hangupAndWait). */
async function hangup(id: string): Promise<void> {
  const r = await ctx.t.http('DELETE', `/ari/channels/${encodeURIComponent(id)}`);
  assert.is(r.status, 204);
}

const ch = (id: string, op = '') => `/ari/channels/${encodeURIComponent(id)}${op ? `/${op}` : ''}`;

/**
 * How early, in simulated ms, a timed step may look: offsets are wall-clock milliseconds times
 * the scale, and a timer's whole-millisecond rounding shows up to 2 wall ms early.
 */
const EARLY = 2 * TEST_SCALE;

/**
 * A simulated gap measured on the wall clock: never shorter than asked (less the rounding).
 * No upper bound: on a busy machine timers fire late, and lateness is not a fault of the server.
 */
function atLeast(actual: number, expected: number, what: string): void {
  assert.ok(actual >= expected - EARLY, `${what}: ${actual} simulated ms, expected at least ${expected} (− ${EARLY})`);
}

// ---- hangup ------------------------------------------------------------------------------

test('hangup: 204, ChannelHangupRequest {cause 32, soft} → StasisEnd → ChannelDestroyed cause 16 by default', async () => {
  const id = await downInApp();
  const from = ctx.ev.of(id).length;
  const r = await ctx.t.http('DELETE', ch(id));
  assert.is(r.status, 204);
  assert.is(r.text, '');
  await ctx.ev.waitFor(is('ChannelDestroyed', id));
  const end = since(ctx.ev, id, from);
  assert.equal(types(end), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
  assert.is(end[0]!.cause, 32);
  assert.is(end[0]!.soft, true);
  assert.is(end[2]!.cause, 16);
  assert.is(end[2]!.cause_txt, 'Normal Clearing');
  const gone = await ctx.t.http('GET', ch(id));
  assert.is(gone.status, 404);
  assert.equal(gone.body, { message: 'Channel not found' });
});

test('hangup: every reason maps to its cause and cause_txt (ari.md §3.5)', async () => {
  const table: Array<[string, number, string]> = [
    ['normal', 16, 'Normal Clearing'],
    ['busy', 17, 'User busy'],
    ['congestion', 34, 'Circuit/channel congestion'],
    ['no_answer', 19, 'User alerting, no answer'],
    ['timeout', 18, 'No user responding'],
    ['rejected', 21, 'Call Rejected'],
    ['unallocated', 1, 'Unallocated (unassigned) number'],
    ['normal_unspecified', 31, 'Normal, unspecified'],
    ['number_incomplete', 28, 'Invalid number format'],
    ['codec_mismatch', 58, 'Bearer capability not available'],
    ['interworking', 127, 'Interworking, unspecified'],
    ['failure', 38, 'Network out of order'],
    ['answered_elsewhere', 26, 'Answered elsewhere'],
  ];
  for (const [reason, cause, text] of table) {
    const id = await downInApp();
    const r = await ctx.t.http('DELETE', ch(id), { query: { reason } });
    assert.is(r.status, 204, reason);
    const d = await ctx.ev.waitFor(is('ChannelDestroyed', id));
    assert.is(d.cause, cause, reason);
    assert.is(d.cause_txt, text, reason);
    // The request itself is always the soft-hangup flag, whatever the cause.
    const req = ctx.ev.of(id).find((e) => e.type === 'ChannelHangupRequest')!;
    assert.is(req.cause, 32, reason);
    assert.is(req.soft, true, reason);
  }
});

test('hangup: reason_code is any cause code; reason+reason_code is 400; unknown reason 400; unknown channel 404', async () => {
  const a = await downInApp();
  assert.is((await ctx.t.http('DELETE', ch(a), { query: { reason_code: '21' } })).status, 204);
  const da = await ctx.ev.waitFor(is('ChannelDestroyed', a));
  assert.is(da.cause, 21);
  assert.is(da.cause_txt, 'Call Rejected');

  const b = await downInApp();
  assert.is((await ctx.t.http('DELETE', ch(b), { query: { reason_code: '42' } })).status, 204);
  const db = await ctx.ev.waitFor(is('ChannelDestroyed', b));
  assert.is(db.cause, 42);
  assert.is(db.cause_txt, 'Switching equipment congestion');

  const c = await downInApp();
  const both = await ctx.t.http('DELETE', ch(c), { query: { reason: 'busy', reason_code: '17' } });
  assert.is(both.status, 400);
  assert.equal(both.body, { message: 'The reason and reason_code can\'t both be specified' });
  const badCode = await ctx.t.http('DELETE', ch(c), { query: { reason_code: 'abc' } });
  assert.is(badCode.status, 400);
  assert.equal(badCode.body, { message: 'Invalid reason for hangup reason code provided' });
  // Current Asterisk looks the channel up first: an unknown channel is 404 whatever the reason.
  assert.is((await ctx.t.http('DELETE', '/ari/channels/nope', { query: { reason: 'bored' } })).status, 404);
  const bad = await ctx.t.http('DELETE', ch(c), { query: { reason: 'bored' } });
  assert.is(bad.status, 400);
  assert.equal(bad.body, { message: 'Invalid reason for hangup reason provided' });
  // Neither 400 touched the channel.
  assert.is((await ctx.t.http('GET', ch(c))).status, 200);
  assert.not.ok(ctx.ev.of(c).some((e) => e.type === 'ChannelHangupRequest'));

  const missing = await ctx.t.http('DELETE', ch('no-such-channel'));
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Channel not found' });
  const missingWithReason = await ctx.t.http('DELETE', ch('no-such-channel'), { query: { reason: 'busy' } });
  assert.is(missingWithReason.status, 404);
  assert.equal(missingWithReason.body, { message: 'Channel not found' });
  await hangup(c);
});

test('hangup: a channel that is not in an application can be hung up too (no StasisEnd)', async () => {
  const id = await inbound('3000'); // Answer(), Echo(): Up, never in Stasis
  await ctx.all.waitFor((e) => e.type === 'ChannelStateChange' && e.channel?.id === id && e.channel.state === 'Up');
  const from = ctx.all.of(id).length;
  const r = await ctx.t.http('DELETE', ch(id), { query: { reason: 'busy' } });
  assert.is(r.status, 204);
  await ctx.all.waitFor(is('ChannelDestroyed', id));
  const end = since(ctx.all, id, from);
  assert.equal(types(end), ['ChannelHangupRequest', 'ChannelDestroyed']);
  assert.is(end[0]!.cause, 32);
  assert.is(end[0]!.soft, true);
  assert.is(end[1]!.cause, 17);
  assert.is(end[1]!.cause_txt, 'User busy');
  assert.is((await ctx.t.http('GET', ch(id))).status, 404);
  assert.equal(ctx.tl.of(id), []);
});

// ---- guards ------------------------------------------------------------------------------

/** Every guarded operation, with the parameters it needs to get past parameter checks. */
const GUARDED: Array<[method: string, op: string, query?: Record<string, string>]> = [
  ['POST', 'answer'],
  ['POST', 'ring'],
  ['DELETE', 'ring'],
  ['POST', 'hold'],
  ['DELETE', 'hold'],
  ['POST', 'mute'],
  ['DELETE', 'mute'],
  ['POST', 'moh'],
  ['DELETE', 'moh'],
  ['POST', 'silence'],
  ['DELETE', 'silence'],
  ['POST', 'dtmf', { dtmf: '1' }],
  ['POST', 'continue'],
  ['POST', 'redirect', { endpoint: 'PJSIP/bob' }],
];

test('guards: unknown channel 404, not in Stasis 409, Down or Ringing in Stasis 412 (table over every operation)', async () => {
  const upNotInApp = await inbound('3000'); // Up, dialplan only
  const ringNotInApp = await inbound('ring'); // Ring, dialplan only (Ringing(), Wait(600))
  const down = await downInApp();
  const ringing = await ringingInApp();
  assert.is((await ctx.t.http('GET', ch(upNotInApp))).body.state, 'Up');
  assert.is((await ctx.t.http('GET', ch(ringNotInApp))).body.state, 'Ring');
  const downFrom = ctx.ev.of(down).length;
  const ringingFrom = ctx.ev.of(ringing).length;

  for (const [method, op, query] of GUARDED) {
    const label = `${method} ${op}`;
    const nf = await ctx.t.http(method, ch('no-such-channel', op), { query });
    assert.is(nf.status, 404, `${label} unknown channel`);
    assert.equal(nf.body, { message: 'Channel not found' }, `${label} unknown channel`);
    for (const id of [upNotInApp, ringNotInApp]) {
      const r = await ctx.t.http(method, ch(id, op), { query });
      assert.is(r.status, 409, `${label} not in Stasis (${id})`);
      assert.equal(r.body, { message: 'Channel not in Stasis application' }, `${label} not in Stasis`);
    }
    for (const id of [down, ringing]) {
      const r = await ctx.t.http(method, ch(id, op), { query });
      assert.is(r.status, 412, `${label} on ${id}`);
      assert.equal(r.body, { message: 'Channel in invalid state' }, `${label} on ${id}`);
    }
  }

  // The guards come before parameter checks (Asterisk's order): no dtmf / no endpoint on a Down channel is still 412.
  assert.is((await ctx.t.http('POST', ch(down, 'dtmf'))).status, 412);
  assert.is((await ctx.t.http('POST', ch(down, 'redirect'))).status, 412);

  // Nothing happened to any of them.
  assert.is((await ctx.t.http('GET', ch(down))).body.state, 'Down');
  assert.is((await ctx.t.http('GET', ch(ringing))).body.state, 'Ringing');
  assert.is((await ctx.t.http('GET', ch(upNotInApp))).body.state, 'Up');
  for (const id of [down, ringing]) {
    const f = await far(id);
    assert.is(f.on_hold, false);
    assert.is(f.muted_in, false);
    assert.is(f.muted_out, false);
    assert.is(f.hearing, 'nothing');
    assert.equal(f.dtmf_received, []);
    assert.is(f.redirected_to, undefined);
  }
  await fence(ctx.ev, down);
  await fence(ctx.ev, ringing);
  assert.equal(types(since(ctx.ev, down, downFrom)), ['ChannelVarset']);
  assert.equal(types(since(ctx.ev, ringing, ringingFrom)), ['ChannelVarset']);

  // move only has 404/409: it works on Down and Ringing channels.
  const mnf = await ctx.t.http('POST', ch('no-such-channel', 'move'), { query: { app: 'app1' } });
  assert.is(mnf.status, 404);
  assert.equal(mnf.body, { message: 'Channel not found' });
  for (const id of [upNotInApp, ringNotInApp]) {
    const r = await ctx.t.http('POST', ch(id, 'move'), { query: { app: 'app1' } });
    assert.is(r.status, 409);
    assert.equal(r.body, { message: 'Channel not in Stasis application' });
  }
  for (const id of [down, ringing]) {
    const r = await ctx.t.http('POST', ch(id, 'move'), { query: { app: 'ghost-app', appArgs: 'g' } });
    assert.is(r.status, 204, `move on ${id}`);
    const failed = await ctx.ev.waitFor(is('ApplicationMoveFailed', id));
    assert.is(failed.destination, 'ghost-app');
  }

  for (const id of [upNotInApp, ringNotInApp, down, ringing]) await hangup(id);
});

// ---- answer ----------------------------------------------------------------------------

test('answer: an inbound Ring channel in Stasis → 204 and ChannelStateChange Up; answering an Up channel is a silent 204', async () => {
  const { id, start } = await inboundInStasis('1001'); // Ringing(), then Stasis(trunkline,ringing) without answering
  assert.is(start.channel!.state, 'Ring');
  assert.equal(start.args, ['ringing']);
  assert.equal(start.channel!.dialplan, { context: 'default', exten: '1001', priority: 3, app_name: 'Stasis', app_data: 'trunkline,ringing' });
  const before = await far(id);
  assert.is(before.answered, false);
  assert.is(before.ringing, true);

  const from = ctx.tl.of(id).length;
  const r = await ctx.t.http('POST', ch(id, 'answer'));
  assert.is(r.status, 204);
  assert.is(r.text, '');
  const change = await ctx.tl.waitFor(is('ChannelStateChange', id));
  assert.is(change.channel!.state, 'Up');
  assert.is((await ctx.t.http('GET', ch(id))).body.state, 'Up');
  assert.is((await far(id)).answered, true);

  const again = await ctx.t.http('POST', ch(id, 'answer'));
  assert.is(again.status, 204);
  await fence(ctx.tl, id);
  assert.equal(types(since(ctx.tl, id, from)), ['ChannelStateChange', 'ChannelVarset']);
  await hangup(id);
});

// ---- ring / hold / mute / moh / silence ---------------------------------------------------------

test('ring / ringStop indicate ringing to the far end and emit nothing', async () => {
  const id = await upInApp();
  const from = ctx.ev.of(id).length;
  assert.is((await far(id)).ringing, false);
  assert.is((await ctx.t.http('POST', ch(id, 'ring'))).status, 204);
  assert.is((await far(id)).ringing, true);
  assert.is((await ctx.t.http('DELETE', ch(id, 'ring'))).status, 204);
  assert.is((await far(id)).ringing, false);
  await fence(ctx.ev, id);
  assert.equal(types(since(ctx.ev, id, from)), ['ChannelVarset']);
  await hangup(id);
});

test('hold / unhold indicate hold to the far end and emit nothing on the channel', async () => {
  const id = await upInApp();
  const from = ctx.ev.of(id).length;
  const h = await ctx.t.http('POST', ch(id, 'hold'));
  assert.is(h.status, 204);
  assert.is(h.text, '');
  assert.is((await far(id)).on_hold, true);
  assert.is((await ctx.t.http('DELETE', ch(id, 'hold'))).status, 204);
  assert.is((await far(id)).on_hold, false);
  await fence(ctx.ev, id);
  assert.equal(types(since(ctx.ev, id, from)), ['ChannelVarset']);
  await hangup(id);
});

test('HOLD_INTERCEPT(set): hold raises ChannelHold (musicclass N/A) and unhold ChannelUnhold instead of indicating', async () => {
  const id = await upInApp();
  const set = await ctx.t.http('POST', ch(id, 'variable'), { query: { variable: 'HOLD_INTERCEPT(set)', value: '' } });
  assert.is(set.status, 204);
  const from = ctx.ev.of(id).length;
  assert.is((await ctx.t.http('POST', ch(id, 'hold'))).status, 204);
  const held = await ctx.ev.waitFor(is('ChannelHold', id));
  assert.is(held.musicclass, 'N/A');
  assert.is((await far(id)).on_hold, false);
  assert.is((await ctx.t.http('DELETE', ch(id, 'hold'))).status, 204);
  await ctx.ev.waitFor(is('ChannelUnhold', id));
  assert.is((await far(id)).on_hold, false);
  await fence(ctx.ev, id);
  assert.equal(types(since(ctx.ev, id, from)), ['ChannelHold', 'ChannelUnhold', 'ChannelVarset']);

  // HOLD_INTERCEPT(remove): hold indicates to the far end again.
  assert.is((await ctx.t.http('POST', ch(id, 'variable'), { query: { variable: 'HOLD_INTERCEPT(remove)', value: '' } })).status, 204);
  const from2 = ctx.ev.of(id).length;
  assert.is((await ctx.t.http('POST', ch(id, 'hold'))).status, 204);
  assert.is((await far(id)).on_hold, true);
  await fence(ctx.ev, id);
  assert.equal(types(since(ctx.ev, id, from2)), ['ChannelVarset']);
  await hangup(id);
});

test('Local pair: hold on ;1 raises ChannelHold on ;2 (not on ;1), unhold ChannelUnhold', async () => {
  const { one, two } = await localPair();
  const oneFrom = ctx.ev.of(one).length;
  assert.is((await ctx.t.http('POST', ch(one, 'hold'))).status, 204);
  const held = await ctx.tl.waitFor(is('ChannelHold', two));
  assert.is(held.musicclass, 'N/A');
  // app1 is subscribed to ;2 as well (it originated the pair).
  assert.is((await ctx.ev.waitFor(is('ChannelHold', two))).musicclass, 'N/A');
  assert.is((await far(one)).on_hold, true);
  assert.is((await far(two)).holding, true);
  assert.is((await ctx.t.http('DELETE', ch(one, 'hold'))).status, 204);
  await ctx.tl.waitFor(is('ChannelUnhold', two));
  assert.is((await far(one)).on_hold, false);
  assert.is((await far(two)).holding, false);
  await fence(ctx.ev, one);
  assert.equal(types(since(ctx.ev, one, oneFrom)), ['ChannelVarset']);
  assert.equal(types(ctx.tl.of(two).filter((e) => e.type === 'ChannelHold' || e.type === 'ChannelUnhold')), ['ChannelHold', 'ChannelUnhold']);
  await hangup(one);
  await ctx.ev.waitFor(is('ChannelDestroyed', two));
});

test('mute / unmute by direction (default both) change what the far end hears and emit nothing', async () => {
  const id = await upInApp();
  const from = ctx.ev.of(id).length;
  const state = async () => {
    const f = await far(id);
    return [f.muted_in, f.muted_out];
  };
  assert.equal(await state(), [false, false]);
  assert.is((await ctx.t.http('POST', ch(id, 'mute'))).status, 204);
  assert.equal(await state(), [true, true]);
  assert.is((await ctx.t.http('DELETE', ch(id, 'mute'), { query: { direction: 'in' } })).status, 204);
  assert.equal(await state(), [false, true]);
  assert.is((await ctx.t.http('DELETE', ch(id, 'mute'), { query: { direction: 'out' } })).status, 204);
  assert.equal(await state(), [false, false]);
  assert.is((await ctx.t.http('POST', ch(id, 'mute'), { query: { direction: 'in' } })).status, 204);
  assert.equal(await state(), [true, false]);
  assert.is((await ctx.t.http('POST', ch(id, 'mute'), { query: { direction: 'out' } })).status, 204);
  assert.equal(await state(), [true, true]);
  assert.is((await ctx.t.http('DELETE', ch(id, 'mute'), { query: { direction: 'both' } })).status, 204);
  assert.equal(await state(), [false, false]);
  assert.is((await ctx.t.http('POST', ch(id, 'mute'), { query: { direction: 'both' } })).status, 204);
  assert.equal(await state(), [true, true]);
  assert.is((await ctx.t.http('DELETE', ch(id, 'mute'))).status, 204); // unmute defaults to both as well
  assert.equal(await state(), [false, false]);
  await fence(ctx.ev, id);
  assert.equal(types(since(ctx.ev, id, from)), ['ChannelVarset']);
  await hangup(id);
});

test('mute / unmute: an invalid direction is 400 "Invalid direction specified"', async () => {
  const id = await upInApp();
  for (const method of ['POST', 'DELETE']) {
    const r = await ctx.t.http(method, ch(id, 'mute'), { query: { direction: 'sideways' } });
    assert.is(r.status, 400, `${method} mute`);
    assert.equal(r.body, { message: 'Invalid direction specified' }, `${method} mute`);
  }
  const f = await far(id);
  assert.equal([f.muted_in, f.muted_out], [false, false]);
  await hangup(id);
});

test('moh (mohClass, unknown class falls back to default) and silence replace each other; no events', async () => {
  const id = await upInApp();
  const from = ctx.ev.of(id).length;
  const hearing = async () => {
    const f = await far(id);
    return { hearing: f.hearing, moh_class: f.moh_class };
  };
  assert.equal(await hearing(), { hearing: 'nothing', moh_class: undefined });
  assert.is((await ctx.t.http('POST', ch(id, 'moh'))).status, 204);
  assert.equal(await hearing(), { hearing: 'moh', moh_class: 'default' });
  assert.is((await ctx.t.http('POST', ch(id, 'moh'), { query: { mohClass: 'jazz' } })).status, 204);
  assert.equal(await hearing(), { hearing: 'moh', moh_class: 'jazz' });
  assert.is((await ctx.t.http('POST', ch(id, 'moh'), { query: { mohClass: 'no-such-class' } })).status, 204);
  assert.equal(await hearing(), { hearing: 'moh', moh_class: 'default' });
  // Silence replaces music on hold …
  assert.is((await ctx.t.http('POST', ch(id, 'silence'))).status, 204);
  assert.equal(await hearing(), { hearing: 'silence', moh_class: undefined });
  // … and music on hold replaces silence.
  assert.is((await ctx.t.http('POST', ch(id, 'moh'), { query: { mohClass: 'jazz' } })).status, 204);
  assert.equal(await hearing(), { hearing: 'moh', moh_class: 'jazz' });
  assert.is((await ctx.t.http('DELETE', ch(id, 'moh'))).status, 204);
  assert.equal(await hearing(), { hearing: 'nothing', moh_class: undefined });
  assert.is((await ctx.t.http('POST', ch(id, 'silence'))).status, 204);
  assert.equal(await hearing(), { hearing: 'silence', moh_class: undefined });
  assert.is((await ctx.t.http('DELETE', ch(id, 'silence'))).status, 204);
  assert.equal(await hearing(), { hearing: 'nothing', moh_class: undefined });
  await fence(ctx.ev, id);
  assert.equal(types(since(ctx.ev, id, from)), ['ChannelVarset']);
  await hangup(id);
});

// ---- sendDTMF -------------------------------------------------------------------------------

test('sendDTMF: missing or empty dtmf is 400 "DTMF is required"; an invalid character or timing is 400', async () => {
  const id = await upInApp();
  const missing = await ctx.t.http('POST', ch(id, 'dtmf'));
  assert.is(missing.status, 400);
  assert.equal(missing.body, { message: 'DTMF is required' });
  const empty = await ctx.t.http('POST', ch(id, 'dtmf'), { query: { dtmf: '' } });
  assert.is(empty.status, 400);
  assert.equal(empty.body, { message: 'DTMF is required' });
  const invalid = await ctx.t.http('POST', ch(id, 'dtmf'), { query: { dtmf: '12x' } });
  assert.is(invalid.status, 400);
  assert.type(invalid.body?.message, 'string');
  const negative = await ctx.t.http('POST', ch(id, 'dtmf'), { query: { dtmf: '1', between: -1 } });
  assert.is(negative.status, 400);
  await fence(ctx.ev, id);
  assert.equal((await far(id)).dtmf_received, []);
  await hangup(id);
});

test('sendDTMF: before/between/duration are honoured (far_end.dtmf_received offsets), and later commands wait for it', async () => {
  const id = await upInApp();
  const created = Date.parse((await ctx.t.http('GET', ch(id))).body.creationtime.replace(/\+0000$/, 'Z'));
  const sent = Date.now();
  const r = await ctx.t.http('POST', ch(id, 'dtmf'), { query: { dtmf: '12#', before: 500, between: 200, duration: 150 } });
  assert.is(r.status, 204);
  assert.is(r.text, '');
  // The next command on the channel runs after the whole sequence: 500 + 3 × (150 + 200) = 1550 simulated ms.
  await fence(ctx.ev, id);
  assert.ok(Date.now() - sent >= 1550 / TEST_SCALE - 2, `the variable set waited for the DTMF (${Date.now() - sent} ms)`);
  const got = (await far(id)).dtmf_received as Array<{ digit: string; duration_ms: number; offset_ms: number }>;
  assert.equal(got.map((d) => d.digit), ['1', '2', '#']);
  assert.equal(got.map((d) => d.duration_ms), [150, 150, 150]);
  // The first digit starts `before` after the request; the next each duration + between later.
  // Lower bounds only, as a busy machine delays timers; a server that dropped `before`, `between`
  // or `duration` (using the defaults of 0, 100, 100) would still make a gap too short.
  atLeast(got[0]!.offset_ms, (sent - created) * TEST_SCALE + 500, 'first offset');
  atLeast(got[1]!.offset_ms - got[0]!.offset_ms, 350, 'offset 1→2');
  atLeast(got[2]!.offset_ms - got[1]!.offset_ms, 350, 'offset 2→#');

  // Defaults: between 100, duration 100; "w" pauses 500 ms.
  await ctx.t.http('POST', ch(id, 'dtmf'), { query: { dtmf: '4a' } });
  await ctx.t.http('POST', ch(id, 'dtmf'), { query: { dtmf: '5w6' } });
  await fence(ctx.ev, id);
  const more = ((await far(id)).dtmf_received as typeof got).slice(3);
  assert.equal(more.map((d) => d.digit), ['4', 'A', '5', '6']);
  assert.equal(more.map((d) => d.duration_ms), [100, 100, 100, 100]);
  atLeast(more[1]!.offset_ms - more[0]!.offset_ms, 200, 'default 4→A');
  // Between two requests the next one waits for its turn in the channel's queue (the last digit's
  // duration and `between` first).
  atLeast(more[2]!.offset_ms - more[1]!.offset_ms, 200, 'A then the next sequence');
  atLeast(more[3]!.offset_ms - more[2]!.offset_ms, 700, '5 w 6');
  // `after` holds the queue once the digits are done: 100 + 100 + 1000 simulated ms.
  const beforeAfter = Date.now();
  assert.is((await ctx.t.http('POST', ch(id, 'dtmf'), { query: { dtmf: '7', after: 1000 } })).status, 204);
  await fence(ctx.ev, id);
  assert.ok(Date.now() - beforeAfter >= 1200 / TEST_SCALE - 2, `after was honoured (${Date.now() - beforeAfter} ms)`);
  // Sent DTMF is not received DTMF: no event on the channel itself.
  assert.not.ok(ctx.ev.of(id).some((e) => e.type === 'ChannelDtmfReceived'));
  await hangup(id);
});

test('sendDTMF: an answer queued behind a long DTMF sequence waits for it', async () => {
  const { id } = await inboundInStasis('1001');
  const t0 = Date.now();
  const d = await ctx.t.http('POST', ch(id, 'dtmf'), { query: { dtmf: '9', duration: 4000 } });
  assert.is(d.status, 204);
  const a = await ctx.t.http('POST', ch(id, 'answer'));
  const took = Date.now() - t0;
  assert.is(a.status, 204);
  // 4000 ms digit + 100 ms between = 4100 simulated ms = 205 ms of wall time.
  assert.ok(took >= 4100 / TEST_SCALE - 2, `answer returned after ${took} ms`);
  const up = await ctx.tl.waitFor(is('ChannelStateChange', id));
  assert.is(up.channel!.state, 'Up');
  const got = (await far(id)).dtmf_received;
  assert.equal(got.map((x: { digit: string }) => x.digit), ['9']);
  await hangup(id);
});

test('sendDTMF: commands queued behind it still get an answer when the channel hangs up meanwhile', async () => {
  const { id } = await inboundInStasis('1001');
  // A digit far longer than the test (1000 simulated s): the hangup, not the digit's end, releases the queue.
  assert.is((await ctx.t.http('POST', ch(id, 'dtmf'), { query: { dtmf: '9', duration: 1_000_000 } })).status, 204);
  // Both wait on the control queue behind the digit.
  const answer = ctx.t.http('POST', ch(id, 'answer'));
  const setVar = ctx.t.http('POST', ch(id, 'variable'), { query: { variable: 'LATE', value: '1' } });
  // Nothing in the API shows a queued command: look at the channel's queue until both wait there
  // (instead of sleeping and hoping both requests arrived before the hangup).
  const waiting = () => (ctx.t.server.telephony.engine.find(id)?.rt.queue as unknown as { items: unknown[] } | undefined)?.items.length ?? -1;
  await pollUntil(() => waiting() >= 2, WAIT_MS, 5);
  assert.is(waiting(), 2, 'the answer and the variable set wait behind the digit');
  assert.is((await ctx.t.http('DELETE', ch(id))).status, 204);
  await ctx.tl.waitFor(is('StasisEnd', id));
  // Asterisk flushes a departing channel's command queue, completing each command as failed, so
  // every request gets a reply. The wait is a liveness check, not a timing target: generous.
  const timeout = new Promise<'no reply'>((r) => setTimeout(() => r('no reply'), 20_000).unref());
  const [a, v] = await Promise.all([Promise.race([answer, timeout]), Promise.race([setVar, timeout])]);
  assert.is.not(a, 'no reply', 'the queued answer request never got a reply');
  assert.is.not(v, 'no reply', 'the queued variable request never got a reply');
  // Neither command ran: the channel was never answered.
  assert.is.not((a as { status: number }).status, 204);
  assert.not.ok(ctx.tl.of(id).some((e) => e.type === 'ChannelStateChange'));
});

test('sendDTMF on a Local ;1 arrives as ChannelDtmfReceived on ;2 with digit and duration_ms', async () => {
  const { one, two } = await localPair();
  const r = await ctx.t.http('POST', ch(one, 'dtmf'), { query: { dtmf: '5#', duration: 120, between: 50 } });
  assert.is(r.status, 204);
  const got = await ctx.tl.waitForCount(is('ChannelDtmfReceived', two), 2);
  assert.equal(got.map((e) => [e.digit, e.duration_ms]), [['5', 120], ['#', 120]]);
  // app1 subscribed to both halves sees them too; ;1 itself receives nothing.
  await ctx.ev.waitForCount(is('ChannelDtmfReceived', two), 2);
  await fence(ctx.ev, one);
  assert.not.ok(ctx.ev.of(one).some((e) => e.type === 'ChannelDtmfReceived'));
  assert.equal(((await far(one)).dtmf_received as Array<{ digit: string }>).map((x) => x.digit), ['5', '#']);
  await hangup(one);
  await ctx.ev.waitFor(is('ChannelDestroyed', two));
});

// ---- continue ------------------------------------------------------------------------------

test('continue with no parameters: StasisEnd, then the dialplan resumes at priority + 1', async () => {
  const { id, start } = await inboundInStasis('1000');
  assert.equal(start.channel!.dialplan, { context: 'default', exten: '1000', priority: 2, app_name: 'Stasis', app_data: 'trunkline,1000' });
  const allFrom = ctx.all.of(id).length;
  const tlFrom = ctx.tl.of(id).length;
  const r = await ctx.t.http('POST', ch(id, 'continue'));
  assert.is(r.status, 204);
  assert.is(r.text, '');
  const dp = await ctx.all.waitFor((e) => e.type === 'ChannelDialplan' && e.channel?.id === id && ctx.all.of(id).indexOf(e) >= allFrom);
  assert.equal(dp.channel!.dialplan, { context: 'default', exten: '1000', priority: 3, app_name: 'Hangup', app_data: '' });
  assert.is(dp.dialplan_app, 'Hangup');
  const gone = await ctx.all.waitFor(is('ChannelDestroyed', id));
  assert.is(gone.cause, 16);
  // The app saw StasisEnd and nothing after: a dialplan channel is unsubscribed when it leaves.
  assert.equal(types(since(ctx.tl, id, tlFrom)), ['StasisEnd']);
  assert.ok(ctx.all.of(id).indexOf(dp) < ctx.all.of(id).indexOf(gone));
});

test('continue with no parameters re-enters Stasis when priority + 1 loops back (ivr: Goto(s,menu))', async () => {
  const { id, start } = await inboundInStasis('s', 'ivr');
  assert.equal(start.args, ['ivr']);
  assert.is(loc(start).priority, 3);
  const allFrom = ctx.all.of(id).length;
  const tlFrom = ctx.tl.of(id).length;
  assert.is((await ctx.t.http('POST', ch(id, 'continue'))).status, 204);
  const again = await ctx.tl.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id && e !== start);
  assert.equal(again.args, ['ivr']);
  assert.equal(again.channel!.dialplan, { context: 'ivr', exten: 's', priority: 3, app_name: 'Stasis', app_data: 'trunkline,ivr' });
  assert.equal(types(since(ctx.tl, id, tlFrom)), ['StasisEnd', 'StasisStart']);
  const dps = since(ctx.all, id, allFrom).filter((e) => e.type === 'ChannelDialplan').map((e) => [loc(e).priority, e.dialplan_app, e.dialplan_app_data]);
  assert.equal(dps, [[4, 'Goto', 's,menu'], [3, 'Stasis', 'trunkline,ivr']]);
  await hangup(id);
});

/** Continues `id` with `query` and returns the dialplan priorities/apps it then runs (on the subscribeAll socket) until it reaches `until`. */
async function continueAndTrace(id: string, query: Record<string, string | number>, untilApp: string): Promise<Array<[string, string, number, string]>> {
  const from = ctx.all.of(id).length;
  const r = await ctx.t.http('POST', ch(id, 'continue'), { query });
  assert.is(r.status, 204, JSON.stringify(query));
  await ctx.all.waitFor((e) => e.type === 'ChannelDialplan' && e.channel?.id === id && e.dialplan_app === untilApp && ctx.all.of(id).indexOf(e) >= from);
  await ctx.tl.waitFor(is('StasisEnd', id));
  return since(ctx.all, id, from)
    .filter((e) => e.type === 'ChannelDialplan')
    .map((e): [string, string, number, string] => [loc(e).context, loc(e).exten, loc(e).priority, e.dialplan_app]);
}

test('continue with context + extension starts at priority 1; extension alone keeps the context', async () => {
  const a = (await inboundInStasis('1000')).id;
  const trace = await continueAndTrace(a, { context: 'default', extension: 'after-stasis' }, 'Wait');
  assert.equal(trace, [
    ['default', 'after-stasis', 1, 'NoOp'],
    ['default', 'after-stasis', 2, 'Set'],
    ['default', 'after-stasis', 3, 'Wait'],
  ]);
  const get = await ctx.t.http('GET', ch(a));
  assert.equal(get.body.dialplan, { context: 'default', exten: 'after-stasis', priority: 3, app_name: 'Wait', app_data: '600' });
  await ctx.all.waitFor((e) => e.type === 'ChannelVarset' && e.channel?.id === a && e.variable === 'AFTER' && e.value === '1');

  const b = (await inboundInStasis('1000')).id;
  const traceB = await continueAndTrace(b, { extension: 'after-stasis' }, 'Wait');
  assert.equal(traceB[0], ['default', 'after-stasis', 1, 'NoOp']);

  const c = (await inboundInStasis('1000')).id;
  const traceC = await continueAndTrace(c, { context: 'default', extension: 'after-stasis', priority: 3 }, 'Wait');
  assert.equal(traceC, [['default', 'after-stasis', 3, 'Wait']]);

  // A context alone means extension s.
  const d = (await inboundInStasis('1000')).id;
  const traceD = await continueAndTrace(d, { context: 'ivr' }, 'Answer');
  assert.equal(traceD[0], ['ivr', 's', 1, 'Answer']);
  for (const id of [a, b, c, d]) await hangup(id);
});

test('continue with a label goes to that priority; a numeric label is a priority', async () => {
  const a = (await inboundInStasis('1000')).id;
  const trace = await continueAndTrace(a, { context: 'default', extension: 'after-stasis', label: 'next' }, 'Wait');
  assert.equal(trace, [['default', 'after-stasis', 2, 'Set'], ['default', 'after-stasis', 3, 'Wait']]);

  const b = (await inboundInStasis('1000')).id;
  // The label supersedes the priority.
  const traceB = await continueAndTrace(b, { context: 'default', extension: 'after-stasis', label: '3', priority: 1 }, 'Wait');
  assert.equal(traceB, [['default', 'after-stasis', 3, 'Wait']]);
  for (const id of [a, b]) await hangup(id);
});

test('continue: unknown label 404 "Requested label can not be found"; label 0 is 400 "Requested priority is illegal"; the channel stays', async () => {
  const { id } = await inboundInStasis('1000');
  const tlFrom = ctx.tl.of(id).length;
  const missing = await ctx.t.http('POST', ch(id, 'continue'), { query: { context: 'default', extension: 'after-stasis', label: 'nope' } });
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Requested label can not be found' });
  const zero = await ctx.t.http('POST', ch(id, 'continue'), { query: { context: 'default', extension: 'after-stasis', label: '0' } });
  assert.is(zero.status, 400);
  assert.equal(zero.body, { message: 'Requested priority is illegal' });
  const get = await ctx.t.http('GET', ch(id));
  assert.equal(get.body.dialplan, { context: 'default', exten: '1000', priority: 2, app_name: 'Stasis', app_data: 'trunkline,1000' });
  await fence(ctx.tl, id);
  assert.equal(types(since(ctx.tl, id, tlFrom)), ['ChannelVarset']);
  await hangup(id);
});

// ---- move ----------------------------------------------------------------------------------

test('move to an active app: StasisEnd (old app) then StasisStart (new app) with args split on "," and empties dropped', async () => {
  const mv = await connectEvents(ctx.t.url, ['mv-a', 'mv-b']);
  const id = await downInApp('PJSIP/alice', 'mv-a', mv);
  const from = mv.of(id).length;
  const r = await ctx.t.http('POST', ch(id, 'move'), { query: { app: 'mv-b', appArgs: 'one,,two,' } });
  assert.is(r.status, 204);
  assert.is(r.text, '');
  const start = await mv.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id && e.application === 'mv-b');
  assert.equal(start.args, ['one', 'two']);
  assert.equal(since(mv, id, from).map((e) => `${e.type}@${e.application}`), ['StasisEnd@mv-a', 'StasisStart@mv-b']);

  // And back, without args.
  const from2 = mv.of(id).length;
  assert.is((await ctx.t.http('POST', ch(id, 'move'), { query: { app: 'mv-a' } })).status, 204);
  const back = await mv.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id && e.application === 'mv-a' && mv.of(id).indexOf(e) >= from2);
  assert.equal(back.args, []);
  assert.equal(since(mv, id, from2).map((e) => `${e.type}@${e.application}`), ['StasisEnd@mv-b', 'StasisStart@mv-a']);
  await hangup(id);
  await mv.waitFor(is('ChannelDestroyed', id));
  await mv.close();
});

test('move to an app with no WebSocket: ApplicationMoveFailed {channel, destination, args} to the current app; the channel stays', async () => {
  const id = await upInApp();
  const from = ctx.ev.of(id).length;
  const r = await ctx.t.http('POST', ch(id, 'move'), { query: { app: 'nobody-listens', appArgs: 'x,y' } });
  assert.is(r.status, 204);
  const failed = await ctx.ev.waitFor(is('ApplicationMoveFailed', id));
  assert.is(failed.application, 'app1');
  assert.is(failed.destination, 'nobody-listens');
  assert.equal(failed.args, ['x', 'y']);
  assert.is(failed.channel!.id, id);
  // Still in app1: controllable, and no StasisEnd.
  await fence(ctx.ev, id);
  assert.equal(types(since(ctx.ev, id, from)), ['ApplicationMoveFailed', 'ChannelVarset']);
  assert.is((await ctx.t.http('POST', ch(id, 'hold'))).status, 204);
  const get = await ctx.t.http('GET', ch(id));
  assert.is(get.body.dialplan.app_name, 'Stasis');
  assert.is(get.body.dialplan.app_data, 'app1');
  await hangup(id);
});

// ---- redirect ------------------------------------------------------------------------------

test('redirect: 400 without endpoint, 422 for no tech/resource or another technology, 404 for an unknown endpoint', async () => {
  const id = await upInApp();
  const none = await ctx.t.http('POST', ch(id, 'redirect'));
  assert.is(none.status, 400);
  assert.equal(none.body, { message: 'Required parameter \'endpoint\' not provided.' });
  const noSlash = await ctx.t.http('POST', ch(id, 'redirect'), { query: { endpoint: 'PJSIP' } });
  assert.is(noSlash.status, 422);
  assert.equal(noSlash.body, { message: 'Endpoint parameter \'PJSIP\' does not contain tech/resource' });
  const noResource = await ctx.t.http('POST', ch(id, 'redirect'), { query: { endpoint: 'PJSIP/' } });
  assert.is(noResource.status, 422);
  assert.equal(noResource.body, { message: 'No resource provided in endpoint parameter \'PJSIP/\'' });
  const mismatch = await ctx.t.http('POST', ch(id, 'redirect'), { query: { endpoint: 'Local/x@default' } });
  assert.is(mismatch.status, 422);
  assert.equal(mismatch.body, { message: 'Endpoint technology \'Local\' does not match channel technology \'PJSIP\'' });
  const unknown = await ctx.t.http('POST', ch(id, 'redirect'), { query: { endpoint: 'PJSIP/nobody' } });
  assert.is(unknown.status, 404);
  assert.equal(unknown.body, { message: 'Endpoint not found' });
  // None of them touched the channel.
  assert.is((await far(id)).redirected_to, undefined);
  const get = await ctx.t.http('GET', ch(id));
  assert.is(get.body.state, 'Up');
  assert.is(get.body.dialplan.app_name, 'Stasis');
  await hangup(id);
});

test('redirect: 204, the far end is sent to the endpoint, then the channel ends (HangupRequest, StasisEnd, Destroyed)', async () => {
  for (const endpoint of ['PJSIP/bob', 'pjsip/carol']) { // the technology compares case-insensitively
    const id = await upInApp();
    const from = ctx.ev.of(id).length;
    const r = await ctx.t.http('POST', ch(id, 'redirect'), { query: { endpoint } });
    assert.is(r.status, 204, endpoint);
    assert.is(r.text, '');
    const look = await ctx.t.http('GET', `/sim/channels/${id}`);
    if (look.status === 200) assert.is(look.body.far_end.redirected_to, endpoint);
    else {
      // The far end already left (200 simulated ms = 10 ms): only acceptable if it has really ended
      // (its ChannelDestroyed is awaited below).
      assert.is(look.status, 404);
    }
    const d = await ctx.ev.waitFor(is('ChannelDestroyed', id));
    const end = since(ctx.ev, id, from);
    assert.equal(types(end), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed'], endpoint);
    assert.is(end[0]!.cause, 16);
    assert.is(end[0]!.soft, undefined);
    assert.is(d.cause, 16);
    assert.is(d.cause_txt, 'Normal Clearing');
  }
});

test.run();
