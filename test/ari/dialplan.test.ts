import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { evaluate } from '../../server/ari/engine/expression.js';
import { RATE } from '../../server/ari/media/pcm.js';
import { wavToSlin } from '../../server/ari/media/wav.js';
import { findExtension, findLabel, parseDialplan } from '../../server/ari/engine/dialplan.js';
import { eventLabel, eventSequence, hangupAndWait } from '../_helpers/ari.js';
import { connectEvents, type AriEvent, type EventLog } from '../_helpers/events.js';
import { TEST_SCALE } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('dialplan');
/**
 * all: sees every channel (subscribeAll): the dialplan's ChannelDialplan/ChannelVarset/… events.
 * dp: the Stasis application the dialplan sends calls to (STASIS_APP=dp).
 */
const ctx = useServer(test, { events: { all: { apps: 'watch', subscribeAll: true }, dp: 'dp' } });

/** An inbound call from the simulated far end (POST /sim/calls). */
function call(query: Record<string, string>, variables?: Record<string, string>) {
  return ctx.t.http('POST', '/sim/calls', { query, ...(variables ? { json: { variables } } : {}) });
}

/** How long a sound from the catalogue plays, in simulated ms (measured from its audio file). */
const soundMs = (id: string, lang = 'en') =>
  (wavToSlin(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'ari', 'sounds', lang, `${id}.wav`)), RATE).length * 1000) / RATE;

const destroyed = (log: EventLog, id: string, ms = 5000) => log.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id, ms);
const stasisStart = (log: EventLog, id: string) => log.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);

interface Dialplan { context: string; exten: string; priority: number; app_name: string; app_data: string }
const dialplanOf = (e: AriEvent) => e.channel!.dialplan as Dialplan;

/** A compact, exact label for one event (for eventSequence): dialplan steps, variables and causes spelled out. */
function dialplanLabel(e: AriEvent): string {
  switch (e.type) {
    case 'ChannelDialplan': return `Dialplan:${dialplanOf(e).priority}:${e.dialplan_app}(${e.dialplan_app_data})`;
    case 'ChannelVarset': return `Varset:${e.variable}=${e.value}`;
    case 'ChannelDestroyed': return `Destroyed:${e.cause}`;
    case 'ChannelHangupRequest': return `HangupRequest:${e.cause}`;
    default: return eventLabel(e);
  }
}

/** Event timestamps are `YYYY-MM-DDTHH:MM:SS.mmm+0000`: wall-clock ms when the server emitted them. */
const at = (e: AriEvent) => Date.parse(e.timestamp.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
/** A simulated duration as wall-clock ms at the test scale, less 1 ms for timer rounding (lower bounds only). */
const wallAtLeast = (simMs: number) => simMs / TEST_SCALE - 1;

// ---- the interpreter, driven by inbound calls -------------------------------------------

test('Answer raises ChannelStateChange Up; Stasis(${STASIS_APP},${EXTEN}) takes STASIS_APP from the call variables', async () => {
  const r = await call({ endpoint: 'PJSIP/alice', extension: '1000', channelId: 'dp-1000' }, { STASIS_APP: 'dp' });
  assert.is(r.status, 200);
  const start = await stasisStart(ctx.dp, 'dp-1000');
  assert.equal(start.args, ['1000']);
  assert.is(start.channel!.state, 'Up');
  assert.equal(start.channel!.dialplan, { context: 'default', exten: '1000', priority: 2, app_name: 'Stasis', app_data: 'dp,1000' });
  assert.equal(eventSequence(ctx.all, 'dp-1000', dialplanLabel), [
    'ChannelCreated',
    'Varset:STASIS_APP=dp',
    'Dialplan:1:Answer()',
    'State:Up',
    'Dialplan:2:Stasis(dp,1000)',
  ]);
  assert.is(ctx.all.of('dp-1000')[0]!.channel!.state, 'Ring');
  // ChannelDialplan carries the substituted data, not the raw ${…} text.
  const d = ctx.all.of('dp-1000').filter((e) => e.type === 'ChannelDialplan');
  assert.equal(d.map((e) => [e.dialplan_app, e.dialplan_app_data]), [['Answer', ''], ['Stasis', 'dp,1000']]);
  assert.is((await ctx.t.http('DELETE', '/ari/channels/dp-1000')).status, 204);
  await destroyed(ctx.all, 'dp-1000');
});

test('STASIS_APP from the dialplan global (POST /ari/asterisk/variable); a call variable still wins', async () => {
  const g = await connectEvents(ctx.t.url, 'dpglobal');
  try {
    assert.is((await ctx.t.http('POST', '/ari/asterisk/variable', { query: { variable: 'STASIS_APP', value: 'dpglobal' } })).status, 204);
    assert.equal((await ctx.t.http('GET', '/ari/asterisk/variable', { query: { variable: 'STASIS_APP' } })).body, { value: 'dpglobal' });
    await call({ endpoint: 'PJSIP/bob', extension: '1000', channelId: 'dp-global' });
    const start = await stasisStart(g, 'dp-global');
    assert.equal(start.args, ['1000']);
    assert.is(dialplanOf(start).app_data, 'dpglobal,1000');
    const d = ctx.all.of('dp-global').find((e) => e.type === 'ChannelDialplan' && e.dialplan_app === 'Stasis')!;
    assert.is(d.dialplan_app_data, 'dpglobal,1000');

    await call({ endpoint: 'PJSIP/bob', extension: '1000', channelId: 'dp-override' }, { STASIS_APP: 'dp' });
    await stasisStart(ctx.dp, 'dp-override');
    assert.not.ok(g.of('dp-override').some((e) => e.type === 'StasisStart'));
    await ctx.t.http('DELETE', '/ari/channels/dp-global');
    await ctx.t.http('DELETE', '/ari/channels/dp-override');
    await destroyed(ctx.all, 'dp-global');
    await destroyed(ctx.all, 'dp-override');
  } finally {
    await ctx.t.http('POST', '/ari/asterisk/variable', { query: { variable: 'STASIS_APP', value: 'trunkline' } });
    await g.close();
  }
});

test('Stasis to an app without a WebSocket: STASISSTATUS=FAILED and the dialplan goes on to Hangup()', async () => {
  await call({ endpoint: 'PJSIP/alice', extension: '1000', channelId: 'dp-noapp' }, { STASIS_APP: 'nobody-listens' });
  const d = await destroyed(ctx.all, 'dp-noapp');
  assert.is(d.cause, 16);
  assert.is(d.cause_txt, 'Normal Clearing');
  assert.equal(eventSequence(ctx.all, 'dp-noapp', dialplanLabel), [
    'ChannelCreated',
    'Varset:STASIS_APP=nobody-listens',
    'Dialplan:1:Answer()',
    'State:Up',
    'Dialplan:2:Stasis(nobody-listens,1000)',
    'Varset:STASISSTATUS=FAILED',
    'Dialplan:3:Hangup()',
    'Destroyed:16',
  ]);
  assert.not.ok(ctx.dp.of('dp-noapp').length, 'no app heard about it');
});

test('extension 4000: Set/INC/GotoIf loop ends with COUNT=3, Playback(goodbye) takes as long as its audio, Hangup(16)', async () => {
  await call({ endpoint: 'PJSIP/bob', extension: '4000', channelId: 'dp-4000' });
  const d = await destroyed(ctx.all, 'dp-4000');
  assert.is(d.cause, 16);
  assert.is(d.cause_txt, 'Normal Clearing');
  const evs = ctx.all.of('dp-4000');
  const plan = evs.filter((e) => e.type === 'ChannelDialplan');
  assert.equal(plan.map((e) => dialplanOf(e).priority), [1, 2, 3, 4, 3, 4, 3, 4, 5, 6]);
  assert.equal(plan.filter((e) => e.dialplan_app === 'Set').map((e) => e.dialplan_app_data), ['COUNT=0', 'COUNT=1', 'COUNT=2', 'COUNT=3']);
  // $[${COUNT} < 3] is evaluated before GotoIf sees it.
  assert.equal(plan.filter((e) => e.dialplan_app === 'GotoIf').map((e) => e.dialplan_app_data), ['1?loop', '1?loop', '0?loop']);
  assert.equal(plan.slice(-2).map((e) => `${e.dialplan_app}(${e.dialplan_app_data})`), ['Playback(goodbye)', 'Hangup(16)']);
  const counts = evs.filter((e) => e.type === 'ChannelVarset' && e.variable === 'COUNT').map((e) => Number(e.value));
  assert.is(counts[0], 0);
  assert.is(counts[counts.length - 1], 3);
  assert.ok(counts.every((n, i) => i === 0 || n >= counts[i - 1]!), `COUNT never goes back: ${counts}`);
  assert.not.ok(counts.includes(4));
  // Playback waits for as long as the sound's audio lasts.
  const playback = plan.find((e) => e.dialplan_app === 'Playback')!;
  const hangup = plan.find((e) => e.dialplan_app === 'Hangup')!;
  assert.ok(at(hangup) - at(playback) >= wallAtLeast(soundMs('goodbye')), `Playback took ${at(hangup) - at(playback)} ms wall`);
  assert.ok(evs.some((e) => e.type === 'ChannelVarset' && e.variable === 'PLAYBACKSTATUS' && e.value === 'SUCCESS'));
  assert.is(evs[evs.length - 1]!.type, 'ChannelDestroyed');
});

test('extension 2000: Answer, Playback(hello-world) for its audio\'s length, Wait(1) for 1000 ms, Hangup', async () => {
  await call({ endpoint: 'PJSIP/alice', extension: '2000', channelId: 'dp-2000' });
  const d = await destroyed(ctx.all, 'dp-2000');
  assert.is(d.cause, 16);
  assert.equal(eventSequence(ctx.all, 'dp-2000', dialplanLabel), [
    'ChannelCreated',
    'Dialplan:1:Answer()',
    'State:Up',
    'Dialplan:2:Playback(hello-world)',
    'Varset:PLAYBACKSTATUS=SUCCESS',
    'Dialplan:3:Wait(1)',
    'Dialplan:4:Hangup()',
    'Destroyed:16',
  ]);
  const byApp = (app: string) => ctx.all.of('dp-2000').find((e) => e.type === 'ChannelDialplan' && e.dialplan_app === app)!;
  const playMs = at(byApp('Wait')) - at(byApp('Playback'));
  const waitMs = at(byApp('Hangup')) - at(byApp('Wait'));
  assert.ok(playMs >= wallAtLeast(soundMs('hello-world')), `Playback took ${playMs} ms wall`);
  assert.ok(waitMs >= wallAtLeast(1000), `Wait(1) took ${waitMs} ms wall`);
});

test('pattern extension _5XXX matches 5123 and sets TRUNKLINE_EXTEN; 51234 matches nothing in default (400)', async () => {
  await call({ endpoint: 'PJSIP/alice', extension: '5123', channelId: 'dp-5123' }, { STASIS_APP: 'dp' });
  const start = await stasisStart(ctx.dp, 'dp-5123');
  assert.equal(start.args, ['pattern', '5123']);
  assert.equal(start.channel!.dialplan, { context: 'default', exten: '5123', priority: 3, app_name: 'Stasis', app_data: 'dp,pattern,5123' });
  assert.ok(ctx.all.of('dp-5123').some((e) => e.type === 'ChannelVarset' && e.variable === 'TRUNKLINE_EXTEN' && e.value === '5123'));
  const set = ctx.all.of('dp-5123').find((e) => e.type === 'ChannelDialplan' && e.dialplan_app === 'Set')!;
  assert.is(set.dialplan_app_data, 'TRUNKLINE_EXTEN=5123');
  const v = await ctx.t.http('GET', '/ari/channels/dp-5123/variable', { query: { variable: 'TRUNKLINE_EXTEN' } });
  assert.equal(v.body, { value: '5123' });
  await hangupAndWait(ctx.t, ctx.all, 'dp-5123');
  const miss = await call({ endpoint: 'PJSIP/alice', extension: '51234' });
  assert.is(miss.status, 400);
});

test('from-trunk: _X. sets DID and Goto(default,1000,stasis) lands in Stasis by label, still ringing', async () => {
  await call({ endpoint: 'PJSIP/trunk', extension: '5550100', channelId: 'dp-did' }, { STASIS_APP: 'dp' });
  const start = await stasisStart(ctx.dp, 'dp-did');
  assert.equal(start.args, ['1000']);
  assert.equal(start.channel!.dialplan, { context: 'default', exten: '1000', priority: 2, app_name: 'Stasis', app_data: 'dp,1000' });
  // Priority 1 (Answer) of 1000 was skipped by the label.
  assert.is(start.channel!.state, 'Ring');
  assert.equal(eventSequence(ctx.all, 'dp-did', dialplanLabel), [
    'ChannelCreated',
    'Varset:STASIS_APP=dp',
    'Dialplan:1:Set(DID=5550100)',
    'Varset:DID=5550100',
    'Dialplan:2:Goto(default,1000,stasis)',
    'Dialplan:2:Stasis(dp,1000)',
  ]);
  assert.equal(dialplanOf(ctx.all.of('dp-did')[0]!).context, 'from-trunk');
  assert.equal((await ctx.t.http('GET', '/ari/channels/dp-did/variable', { query: { variable: 'DID' } })).body, { value: '5550100' });
  await hangupAndWait(ctx.t, ctx.all, 'dp-did');
});

test('from-trunk s: Goto(default,1000,1) runs Answer first', async () => {
  // PJSIP/trunk's context is from-trunk; the extension defaults to s.
  await call({ endpoint: 'PJSIP/trunk', channelId: 'dp-trunk-s' }, { STASIS_APP: 'dp' });
  const start = await stasisStart(ctx.dp, 'dp-trunk-s');
  assert.is(start.channel!.state, 'Up');
  assert.equal(start.args, ['1000']);
  assert.is(start.channel!.accountcode, 'trunk');
  await hangupAndWait(ctx.t, ctx.all, 'dp-trunk-s');
});

test('Busy(): an inbound call ends with cause 17; Local/busy@default fails its dial with BUSY', async () => {
  await call({ endpoint: 'PJSIP/alice', extension: 'busy', channelId: 'dp-busy' });
  const d = await destroyed(ctx.all, 'dp-busy');
  assert.is(d.cause, 17);
  assert.is(d.cause_txt, 'User busy');
  assert.ok(eventSequence(ctx.all, 'dp-busy', dialplanLabel).includes('Dialplan:1:Busy()'));
  assert.not.ok(ctx.all.of('dp-busy').some((e) => e.type === 'ChannelStateChange'), 'Busy() does not answer');

  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'Local/busy@default', app: 'dp', channelId: 'dp-lbusy' } });
  assert.is(r.status, 200);
  const one = await destroyed(ctx.dp, 'dp-lbusy');
  assert.is(one.cause, 17);
  assert.is(one.cause_txt, 'User busy');
  assert.equal(eventSequence(ctx.dp, 'dp-lbusy', dialplanLabel), ['Dial:', 'Dial:BUSY', 'Destroyed:17']);
  const two = await destroyed(ctx.all, 'dp-lbusy;2');
  assert.is(two.cause, 17);
  assert.ok(eventSequence(ctx.all, 'dp-lbusy;2', dialplanLabel).includes('Dialplan:1:Busy()'));
  assert.not.ok(ctx.dp.events.some((e) => e.type === 'StasisStart' && e.channel?.id.startsWith('dp-lbusy')));
});

test('Congestion(): an inbound call ends with cause 34; Local/congestion@default fails with CONGESTION', async () => {
  await call({ endpoint: 'PJSIP/bob', extension: 'congestion', channelId: 'dp-cong' });
  const d = await destroyed(ctx.all, 'dp-cong');
  assert.is(d.cause, 34);
  assert.is(d.cause_txt, 'Circuit/channel congestion');
  await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'Local/congestion@default', app: 'dp', channelId: 'dp-lcong' } });
  const one = await destroyed(ctx.dp, 'dp-lcong');
  assert.is(one.cause, 34);
  assert.equal(eventSequence(ctx.dp, 'dp-lcong', dialplanLabel), ['Dial:', 'Dial:CONGESTION', 'Destroyed:34']);
});

test('continue from Stasis resumes at the next priority (1000: Hangup at 3)', async () => {
  await call({ endpoint: 'PJSIP/alice', extension: '1000', channelId: 'dp-cont' }, { STASIS_APP: 'dp' });
  await stasisStart(ctx.dp, 'dp-cont');
  const before = ctx.all.of('dp-cont').length;
  const r = await ctx.t.http('POST', '/ari/channels/dp-cont/continue');
  assert.is(r.status, 204);
  assert.is(r.text, '');
  await ctx.dp.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === 'dp-cont');
  const d = await destroyed(ctx.all, 'dp-cont');
  assert.is(d.cause, 16);
  assert.equal(eventSequence(ctx.all, 'dp-cont', dialplanLabel).slice(before), ['Varset:STASISSTATUS=SUCCESS', 'Dialplan:3:Hangup()', 'Destroyed:16']);
  assert.equal(ctx.dp.of('dp-cont').map((e) => e.type), ['StasisStart', 'StasisEnd']);
});

test('continue in the ivr context: the next priority Goto(s,menu) brings the call back into Stasis', async () => {
  await call({ endpoint: 'PJSIP/alice', context: 'ivr', extension: 's', channelId: 'dp-ivr' }, { STASIS_APP: 'dp' });
  const first = await stasisStart(ctx.dp, 'dp-ivr');
  assert.equal(first.args, ['ivr']);
  assert.is(dialplanOf(first).priority, 3);
  // Playback(welcome&press-1) played both sounds first.
  const play = ctx.all.of('dp-ivr').find((e) => e.type === 'ChannelDialplan' && e.dialplan_app === 'Playback')!;
  assert.is(play.dialplan_app_data, 'welcome&press-1');
  assert.ok(at(first) - at(play) >= wallAtLeast(soundMs('welcome') + soundMs('press-1')), `played for ${at(first) - at(play)} ms wall`);
  assert.is((await ctx.t.http('POST', '/ari/channels/dp-ivr/continue')).status, 204);
  await ctx.dp.waitForCount((e) => e.type === 'StasisStart' && e.channel?.id === 'dp-ivr', 2);
  const second = ctx.dp.of('dp-ivr').filter((e) => e.type === 'StasisStart')[1]!;
  assert.equal(second.args, ['ivr']);
  assert.equal(second.channel!.dialplan, { context: 'ivr', exten: 's', priority: 3, app_name: 'Stasis', app_data: 'dp,ivr' });
  assert.equal(ctx.dp.of('dp-ivr').map((e) => e.type), ['StasisStart', 'StasisEnd', 'StasisStart']);
  assert.ok(eventSequence(ctx.all, 'dp-ivr', dialplanLabel).includes('Dialplan:4:Goto(s,menu)'));
  await hangupAndWait(ctx.t, ctx.all, 'dp-ivr');
});

test('falling off the end of an extension hangs up with cause 16', async () => {
  await call({ endpoint: 'PJSIP/alice', extension: '1000', channelId: 'dp-falloff' }, { STASIS_APP: 'dp' });
  await stasisStart(ctx.dp, 'dp-falloff');
  const before = ctx.all.of('dp-falloff').length;
  // 1000 has priorities 1-3: priority 4 does not exist, so the dialplan ends there.
  assert.is((await ctx.t.http('POST', '/ari/channels/dp-falloff/continue', { query: { priority: 4 } })).status, 204);
  const d = await destroyed(ctx.all, 'dp-falloff');
  assert.is(d.cause, 16);
  assert.is(d.cause_txt, 'Normal Clearing');
  const after = eventSequence(ctx.all, 'dp-falloff', dialplanLabel).slice(before);
  assert.is(after[after.length - 1], 'Destroyed:16');
  assert.not.ok(after.some((s) => s.startsWith('Dialplan:') && !s.startsWith('Dialplan:4:')), `no other priority ran: ${after}`);
});

test('a Local channel runs the dialplan on its ;2 half (Local/4000@default)', async () => {
  await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'Local/4000@default', app: 'dp', channelId: 'dp-l4000' } });
  await stasisStart(ctx.dp, 'dp-l4000');
  const d = await destroyed(ctx.all, 'dp-l4000;2');
  assert.is(d.cause, 16);
  const counts = ctx.all.of('dp-l4000;2').filter((e) => e.type === 'ChannelVarset' && e.variable === 'COUNT').map((e) => e.value);
  assert.is(counts[counts.length - 1], '3');
  // The ;1 half in the app sees its far end hang up.
  const req = await ctx.dp.waitFor((e) => e.type === 'ChannelHangupRequest' && e.channel?.id === 'dp-l4000');
  assert.is(req.cause, 16);
  await destroyed(ctx.dp, 'dp-l4000');
});

// ---- unit level: the expression evaluator --------------------------------------------------

test('evaluate: arithmetic, precedence and parentheses', () => {
  const cases: Array<[string, string]> = [
    ['1 + 2', '3'],
    ['7 - 10', '-3'],
    ['6 * 7', '42'],
    ['8 / 2', '4'],
    ['10 % 3', '1'],
    ['1 + 2 * 3', '7'],
    ['(1 + 2) * 3', '9'],
    ['2+8/2', '6'],
    ['((2))', '2'],
    ['-5 + 2', '-3'],
  ];
  for (const [src, want] of cases) assert.is(evaluate(src), want, src);
});

test('evaluate: division is not truncated (Asterisk: (3+8)/2 is 5.5)', () => {
  // docs.asterisk.org, Expressions Examples: "(3+8)/2 | 5.5", "TRUNC((3+8)/2) | 5".
  assert.is(evaluate('(3+8)/2'), '5.5');
  assert.is(evaluate('7 / 2'), '3.5');
});

test('evaluate: comparisons yield 1/0, numeric when both sides are numbers, else as strings', () => {
  const cases: Array<[string, string]> = [
    ['3 = 3', '1'],
    ['3 = 4', '0'],
    ['3 != 4', '1'],
    ['3 != 3', '0'],
    ['2 < 3', '1'],
    ['3 < 3', '0'],
    ['3 <= 3', '1'],
    ['4 > 3', '1'],
    ['3 >= 4', '0'],
    ['10 > 9', '1'], // numeric: 10 > 9
    ['10 > 9a', '0'], // strings: "10" sorts before "9a"
    ['abc < abd', '1'],
    ['abc = abc', '1'],
    ['"hello world" = "hello world"', '1'],
    ['abc != ABC', '1'],
    ['1 < 3 = 1', '1'],
    ['0 < 3', '1'],
  ];
  for (const [src, want] of cases) assert.is(evaluate(src), want, src);
});

test('evaluate: | and & return operands as Asterisk does', () => {
  const cases: Array<[string, string]> = [
    ['5 | 7', '5'], // left when true
    ['0 | 7', '7'], // else right
    ['0 | 0', '0'],
    ['5 & 7', '5'], // left when both true
    ['5 & 0', '0'],
    ['0 & 7', '0'],
    ['1 = 1 & 2 = 2', '1'], // comparison binds tighter than &
    ['1 = 2 | 2 = 2', '1'],
    ['(0 | 4) * 2', '8'],
  ];
  for (const [src, want] of cases) assert.is(evaluate(src), want, src);
  assert.is(evaluate(''), '');
});

// ---- unit level: the dialplan parser and lookups ---------------------------------------------

test('parseDialplan: priorities, n, labels, case-insensitive apps, raw data kept for later substitution', () => {
  const dpl = parseDialplan({ c: { '100': ['1,answer()', 'n(top),Set(X=${Y})', 'n,GotoIf($[${X} > 1]?top:end)', '10(end),Hangup(17)'] } });
  const ext = findExtension(dpl, 'c', '100')!;
  assert.equal([...ext.priorities.keys()], [1, 2, 3, 10]);
  assert.is(ext.priorities.get(1)!.app, 'Answer');
  assert.is(ext.priorities.get(2)!.data, 'X=${Y}');
  assert.is(ext.priorities.get(3)!.data, '$[${X} > 1]?top:end');
  assert.is(ext.priorities.get(10)!.data, '17');
  assert.is(findLabel(dpl, 'c', '100', 'top'), 2);
  assert.is(findLabel(dpl, 'c', '100', 'end'), 10);
  assert.is(findLabel(dpl, 'c', '100', '3'), 3);
  assert.is(findLabel(dpl, 'c', '100', 'nope'), undefined);
  assert.is(findExtension(dpl, 'c', '101'), undefined);
  assert.is(findExtension(dpl, 'nocontext', '100'), undefined);
});

test('parseDialplan: errors name the context, the extension and the line', () => {
  const bad: Array<[Record<string, Record<string, string[]>>, string[]]> = [
    [{ ctxA: { '200': ['1,Answer()', 'not a line'] } }, ['ctxA', '200', 'not a line']],
    [{ ctxB: { '_2XX': ['1,Frobnicate(x)'] } }, ['ctxB', '_2XX', 'Frobnicate']],
    [{ ctxD: { s: ['1,Answer()', '1,Hangup()'] } }, ['ctxD', 's', '1,Hangup()']],
    [{ ctxE: { s: ['1,Answer()', '3,NoOp()', '2,Hangup()'] } }, ['ctxE', 's', '2,Hangup()']],
  ];
  for (const [contexts, words] of bad) {
    let message = '';
    try {
      parseDialplan(contexts);
    } catch (err) {
      message = (err as Error).message;
    }
    assert.ok(message, `${JSON.stringify(contexts)} must not parse`);
    for (const w of words) assert.ok(message.includes(w), `"${message}" names ${w}`);
  }
});

test('parseDialplan: an extension that does not start at priority 1 is an error naming the line', () => {
  let message = '';
  try {
    parseDialplan({ ctxC: { '300': ['2,Answer()'] } });
  } catch (err) {
    message = (err as Error).message;
  }
  assert.ok(message, 'must not parse');
  for (const w of ['ctxC', '300', '2,Answer()']) assert.ok(message.includes(w), `"${message}" names ${w}`);
});

test('findExtension: exact beats pattern; the most specific pattern wins; [1-3] ranges and N/Z/X', () => {
  const lines = (tag: string) => [`1,NoOp(${tag})`];
  const dpl = parseDialplan({
    c: {
      '_X.': lines('any'),
      '_1XX': lines('1xx'),
      '_[1-3]XX': lines('range'),
      '_NXXX': lines('nxxx'),
      '_ZX': lines('zx'),
      '150': lines('exact'),
    },
  });
  const who = (exten: string) => findExtension(dpl, 'c', exten)?.name;
  assert.is(who('150'), '150'); // exact beats every pattern
  assert.is(who('151'), '_1XX'); // 1 is more specific than [1-3], which beats X.
  assert.is(who('251'), '_[1-3]XX');
  assert.is(who('351'), '_[1-3]XX');
  assert.is(who('451'), '_X.'); // 4 is outside [1-3]; three digits is not NXXX
  assert.is(who('2500'), '_NXXX');
  assert.is(who('1500'), '_X.'); // N is 2-9
  assert.is(who('15'), '_ZX'); // Z is 1-9: more specific than X.
  assert.is(who('05'), '_X.'); // Z excludes 0
  assert.is(who('1'), undefined); // X. needs at least two characters
  assert.is(who(''), undefined);
});

test('the bundled dialplan fixture parses, with its patterns and labels', () => {
  const raw = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'ari', 'dialplan.json'), 'utf8')) as { contexts: Record<string, Record<string, string[]>> };
  const dpl = parseDialplan(raw.contexts);
  assert.is(findExtension(dpl, 'default', '5123')!.name, '_5XXX');
  assert.is(findExtension(dpl, 'default', '1000')!.name, '1000');
  assert.is(findExtension(dpl, 'default', '51234'), undefined);
  assert.is(findExtension(dpl, 'from-trunk', '5550100')!.name, '_X.');
  assert.is(findLabel(dpl, 'default', '1000', 'stasis'), 2);
  assert.is(findLabel(dpl, 'default', '4000', 'loop'), 3);
  assert.is(findLabel(dpl, 'ivr', 's', 'menu'), 3);
});

test.run();
