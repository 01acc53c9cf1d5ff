import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInApp, hangupAndWait } from '../_helpers/ari.js';
import { connectEvents, type AriEvent } from '../_helpers/events.js';
import { startTestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('variables');
const ctx = useServer(test);

let n = 0;
/** A channel made by channels/create: in app1 (Down) at once; variables need no particular state. */
const inApp = () => createInApp(ctx.t, ctx.ev, { app: 'app1', id: `var-${++n}` });

const getVar = (id: string, variable: string | undefined) => ctx.t.http('GET', `/ari/channels/${encodeURIComponent(id)}/variable`, { query: { variable } });
const setVar = (id: string, query: Record<string, string | boolean | undefined>) => ctx.t.http('POST', `/ari/channels/${encodeURIComponent(id)}/variable`, { query });
const nextOf = (id: string, type: string, after: number): Promise<AriEvent> =>
  ctx.ev.waitFor((e) => e.type === type && e.channel?.id === id && ctx.ev.events.indexOf(e) >= after);

test('missing variable is 400 "Variable name is required" (GET and POST)', async () => {
  const { id } = await inApp();
  for (const method of ['GET', 'POST']) {
    const r = await ctx.t.http(method, `/ari/channels/${id}/variable`);
    assert.is(r.status, 400, method);
    assert.equal(r.body, { message: 'Variable name is required' }, method);
  }
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('unknown channel is 404 (GET keeps Asterisk\'s "Provided channel was not found"; POST "Channel not found")', async () => {
  const g = await getVar('no-such-channel', 'FOO');
  assert.is(g.status, 404);
  assert.equal(g.body, { message: 'Provided channel was not found' });
  const s = await setVar('no-such-channel', { variable: 'FOO', value: '1' });
  assert.is(s.status, 404);
  assert.equal(s.body, { message: 'Channel not found' });
});

test('a channel not in an application is 409 for both GET and POST (decisions.md: getChannelVar is guarded)', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/noanswer', app: 'app1', channelId: 'var-ringing', timeout: -1 } });
  assert.is(r.status, 200);
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'var-ringing' && e.dialstatus === 'RINGING');
  const g = await getVar('var-ringing', 'CHANNEL');
  assert.is(g.status, 409);
  assert.equal(g.body, { message: 'Channel not in Stasis application' });
  const s = await setVar('var-ringing', { variable: 'FOO', value: '1' });
  assert.is(s.status, 409);
  assert.equal(s.body, { message: 'Channel not in Stasis application' });
  assert.not.ok(ctx.ev.of('var-ringing').some((e) => e.type === 'ChannelVarset'));
  await hangupAndWait(ctx.t, ctx.ev, 'var-ringing');
});

test('an unset variable is 404 "Provided variable was not found"', async () => {
  const { id } = await inApp();
  const r = await getVar(id, 'NEVER_SET');
  assert.is(r.status, 404);
  assert.equal(r.body, { message: 'Provided variable was not found' });
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('set then get; set emits ChannelVarset {variable, value}; the response is 204 with no body', async () => {
  const { id } = await inApp();
  const mark = ctx.ev.events.length;
  const s = await setVar(id, { variable: 'GREETING', value: 'hello world' });
  assert.is(s.status, 204);
  assert.is(s.text, '');
  const e = await nextOf(id, 'ChannelVarset', mark);
  assert.is(e.variable, 'GREETING');
  assert.is(e.value, 'hello world');
  assert.is(e.application, 'app1');
  assert.is(e.channel!.id, id);
  const g = await getVar(id, 'GREETING');
  assert.is(g.status, 200);
  assert.equal(g.body, { value: 'hello world' });
  // Overwrite.
  assert.is((await setVar(id, { variable: 'GREETING', value: 'bye' })).status, 204);
  assert.equal((await getVar(id, 'GREETING')).body, { value: 'bye' });
  // An empty value is a value.
  assert.is((await setVar(id, { variable: 'EMPTY', value: '' })).status, 204);
  const empty = await getVar(id, 'EMPTY');
  assert.is(empty.status, 200);
  assert.equal(empty.body, { value: '' });
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('POST without value unsets: ChannelVarset with value "", then GET is 404', async () => {
  const { id } = await inApp();
  assert.is((await setVar(id, { variable: 'DOOMED', value: 'x' })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelVarset' && e.channel?.id === id && e.variable === 'DOOMED');
  const mark = ctx.ev.events.length;
  const s = await setVar(id, { variable: 'DOOMED' });
  assert.is(s.status, 204);
  const e = await nextOf(id, 'ChannelVarset', mark);
  assert.is(e.variable, 'DOOMED');
  assert.is(e.value, '');
  const g = await getVar(id, 'DOOMED');
  assert.is(g.status, 404);
  assert.equal(g.body, { message: 'Provided variable was not found' });
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('unsetting a variable that was never set emits no ChannelVarset (pbx_builtin_setvar_helper publishes only a set or the removal of a non-empty value)', async () => {
  const { id } = await inApp();
  const mark = ctx.ev.events.length;
  assert.is((await setVar(id, { variable: 'NEVER_THERE' })).status, 204);
  // Barrier: a later variable set on the same channel arrives after anything the unset raised.
  assert.is((await setVar(id, { variable: 'BARRIER', value: '1' })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelVarset' && e.channel?.id === id && e.variable === 'BARRIER');
  const after = ctx.ev.events.slice(mark).filter((e) => e.channel?.id === id && e.type === 'ChannelVarset');
  assert.equal(after.map((e) => e.variable), ['BARRIER']);
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('report_events=true puts the variable in channel.channelvars of later events and of GET /channels/{id}', async () => {
  const { id, body } = await inApp();
  assert.is(body.channelvars, undefined, 'no channelvars until a variable is reported');
  assert.is((await setVar(id, { variable: 'QUIET', value: 'q' })).status, 204);
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).body.channelvars, undefined);
  assert.is((await setVar(id, { variable: 'TRACKED', value: 'yes', report_events: true })).status, 204);
  const mark = ctx.ev.events.length;
  assert.is((await setVar(id, { variable: 'OTHER', value: '1' })).status, 204);
  const later = await nextOf(id, 'ChannelVarset', mark);
  assert.is(later.variable, 'OTHER');
  assert.equal(later.channel!.channelvars, { TRACKED: 'yes' });
  const got = await ctx.t.http('GET', `/ari/channels/${id}`);
  assert.equal(got.body.channelvars, { TRACKED: 'yes' });
  const list = await ctx.t.http('GET', '/ari/channels');
  assert.equal(list.body.find((c: { id: string }) => c.id === id).channelvars, { TRACKED: 'yes' });
  // A new value shows in the next events.
  assert.is((await setVar(id, { variable: 'TRACKED', value: 'changed' })).status, 204);
  const m2 = ctx.ev.events.length;
  await ctx.t.http('DELETE', `/ari/channels/${id}`);
  const destroyed = await nextOf(id, 'ChannelDestroyed', m2);
  assert.equal(destroyed.channel!.channelvars, { TRACKED: 'changed' });
});

test('CALLERID(name|num|all): read and write; a write emits ChannelCallerId (presentation 0), not ChannelVarset', async () => {
  const { id } = await inApp();
  assert.equal((await getVar(id, 'CALLERID(name)')).body, { value: '' });
  let mark = ctx.ev.events.length;
  assert.is((await setVar(id, { variable: 'CALLERID(name)', value: 'Alice Smith' })).status, 204);
  const cid = await nextOf(id, 'ChannelCallerId', mark);
  assert.is(cid.caller_presentation, 0);
  assert.is(cid.caller_presentation_txt, 'Presentation Allowed, Not Screened');
  assert.equal(cid.channel!.caller, { name: 'Alice Smith', number: '' });
  assert.is((await setVar(id, { variable: 'CALLERID(num)', value: '5551234' })).status, 204);
  const cid2 = await nextOf(id, 'ChannelCallerId', ctx.ev.events.indexOf(cid) + 1);
  assert.equal(cid2.channel!.caller, { name: 'Alice Smith', number: '5551234' });
  assert.equal((await getVar(id, 'CALLERID(name)')).body, { value: 'Alice Smith' });
  assert.equal((await getVar(id, 'CALLERID(num)')).body, { value: '5551234' });
  assert.equal((await getVar(id, 'CALLERID(all)')).body, { value: '"Alice Smith" <5551234>' });
  mark = ctx.ev.events.length;
  assert.is((await setVar(id, { variable: 'CALLERID(all)', value: '"Bob" <1002>' })).status, 204);
  const cid3 = await nextOf(id, 'ChannelCallerId', mark);
  assert.equal(cid3.channel!.caller, { name: 'Bob', number: '1002' });
  assert.equal((await ctx.t.http('GET', `/ari/channels/${id}`)).body.caller, { name: 'Bob', number: '1002' });
  // None of the function writes raised ChannelVarset.
  assert.not.ok(ctx.ev.of(id).some((e) => e.type === 'ChannelVarset'));
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('CONNECTEDLINE(name) write emits ChannelConnectedLine and shows in connected', async () => {
  const { id } = await inApp();
  const mark = ctx.ev.events.length;
  assert.is((await setVar(id, { variable: 'CONNECTEDLINE(name)', value: 'Reception' })).status, 204);
  const e = await nextOf(id, 'ChannelConnectedLine', mark);
  assert.is((e.channel!.connected as { name: string }).name, 'Reception');
  assert.equal((await getVar(id, 'CONNECTEDLINE(name)')).body, { value: 'Reception' });
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).body.connected.name, 'Reception');
  assert.not.ok(ctx.ev.of(id).some((x) => x.type === 'ChannelVarset' || x.type === 'ChannelCallerId'));
  // Writing what is already there changes no snapshot, so no event; a plain variable set after them marks the end.
  const again = ctx.ev.events.length;
  assert.is((await setVar(id, { variable: 'CONNECTEDLINE(name)', value: 'Reception' })).status, 204);
  assert.is((await setVar(id, { variable: 'CALLERID(num)', value: (await getVar(id, 'CALLERID(num)')).body.value })).status, 204);
  assert.is((await setVar(id, { variable: 'MARK', value: '1' })).status, 204);
  await nextOf(id, 'ChannelVarset', again);
  assert.equal(ctx.ev.events.slice(again).filter((x) => x.channel?.id === id).map((x) => x.type), ['ChannelVarset']);
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('built-ins: CHANNEL(name), UNIQUEID, EXTEN, CONTEXT', async () => {
  const { id, body } = await inApp();
  assert.equal((await getVar(id, 'CHANNEL(name)')).body, { value: body.name });
  assert.equal((await getVar(id, 'CHANNEL')).body, { value: body.name });
  assert.equal((await getVar(id, 'UNIQUEID')).body, { value: id });
  assert.equal((await getVar(id, 'EXTEN')).body, { value: body.dialplan.exten });
  assert.equal((await getVar(id, 'CONTEXT')).body, { value: body.dialplan.context });
  assert.equal((await getVar(id, 'CONTEXT')).body, { value: 'default' });
  // Channels are found by name as well as by id.
  assert.equal((await getVar(body.name, 'UNIQUEID')).body, { value: id });
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('an unknown function: read is 404, write is 400 "Failed to execute function"', async () => {
  const { id } = await inApp();
  const r = await getVar(id, 'NO_SUCH_FUNC(x)');
  assert.is(r.status, 404);
  assert.equal(r.body, { message: 'Unable to read provided function' });
  const w = await setVar(id, { variable: 'NO_SUCH_FUNC(x)', value: '1' });
  assert.is(w.status, 400);
  assert.equal(w.body, { message: 'Failed to execute function' });
  assert.not.ok(ctx.ev.of(id).some((e) => e.type === 'ChannelVarset'));
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('global variables: GET/POST /ari/asterisk/variable; an unset global reads as ""; a channel sees globals', async () => {
  const unset = await ctx.t.http('GET', '/ari/asterisk/variable', { query: { variable: 'NO_SUCH_GLOBAL' } });
  assert.is(unset.status, 200);
  assert.equal(unset.body, { value: '' });
  // The dialplan fixture's global.
  assert.equal((await ctx.t.http('GET', '/ari/asterisk/variable', { query: { variable: 'STASIS_APP' } })).body, { value: 'trunkline' });
  const s = await ctx.t.http('POST', '/ari/asterisk/variable', { query: { variable: 'MY_GLOBAL', value: 'g1' } });
  assert.is(s.status, 204);
  assert.is(s.text, '');
  assert.equal((await ctx.t.http('GET', '/ari/asterisk/variable', { query: { variable: 'MY_GLOBAL' } })).body, { value: 'g1' });
  const { id } = await inApp();
  assert.equal((await getVar(id, 'MY_GLOBAL')).body, { value: 'g1' });
  // A channel variable of the same name shadows the global for that channel only.
  assert.is((await setVar(id, { variable: 'MY_GLOBAL', value: 'local' })).status, 204);
  assert.equal((await getVar(id, 'MY_GLOBAL')).body, { value: 'local' });
  assert.equal((await ctx.t.http('GET', '/ari/asterisk/variable', { query: { variable: 'MY_GLOBAL' } })).body, { value: 'g1' });
  // Missing name.
  const missing = await ctx.t.http('GET', '/ari/asterisk/variable');
  assert.is(missing.status, 400);
  assert.equal(missing.body, { message: 'Variable name is required' });
  const missingSet = await ctx.t.http('POST', '/ari/asterisk/variable', { query: { value: 'x' } });
  assert.is(missingSet.status, 400);
  assert.equal(missingSet.body, { message: 'Variable name is required' });
  // POST without value unsets the global.
  assert.is((await ctx.t.http('POST', '/ari/asterisk/variable', { query: { variable: 'MY_GLOBAL' } })).status, 204);
  assert.equal((await ctx.t.http('GET', '/ari/asterisk/variable', { query: { variable: 'MY_GLOBAL' } })).body, { value: '' });
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('ARI_CHANNELVARS: every channel snapshot carries the configured channelvars', async () => {
  const t2 = await startTestServer({ ARI_CHANNELVARS: 'FOO,CALLERID(num)' });
  const ev2 = await connectEvents(t2.url, 'app2');
  try {
    const r = await t2.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'app2', channelId: 'cv-1' } });
    assert.is(r.status, 200);
    assert.equal(r.body.channelvars, { FOO: '', 'CALLERID(num)': '' });
    await ev2.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'cv-1');
    assert.is((await t2.http('POST', '/ari/channels/cv-1/variable', { query: { variable: 'FOO', value: 'bar' } })).status, 204);
    const varset = await ev2.waitFor((e) => e.type === 'ChannelVarset' && e.channel?.id === 'cv-1' && e.variable === 'FOO');
    assert.equal(varset.channel!.channelvars, { FOO: 'bar', 'CALLERID(num)': '' });
    assert.is((await t2.http('POST', '/ari/channels/cv-1/variable', { query: { variable: 'CALLERID(num)', value: '4242' } })).status, 204);
    const cid = await ev2.waitFor((e) => e.type === 'ChannelCallerId' && e.channel?.id === 'cv-1');
    assert.equal(cid.channel!.channelvars, { FOO: 'bar', 'CALLERID(num)': '4242' });
    // Listed and fetched snapshots, and every event about the channel, carry them.
    const got = await t2.http('GET', '/ari/channels/cv-1');
    assert.equal(got.body.channelvars, { FOO: 'bar', 'CALLERID(num)': '4242' });
    const list = await t2.http('GET', '/ari/channels');
    for (const c of list.body) assert.ok(c.channelvars && 'FOO' in c.channelvars && 'CALLERID(num)' in c.channelvars, c.id);
    // A channel with a caller number from its fixture shows it from the start.
    const o = await t2.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'app2', channelId: 'cv-2', callerId: '<777>' } });
    assert.equal(o.body.channelvars, { FOO: '', 'CALLERID(num)': '777' });
    await ev2.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'cv-2');
    await t2.http('DELETE', '/ari/channels/cv-1');
    await t2.http('DELETE', '/ari/channels/cv-2');
    await ev2.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'cv-2');
    await ev2.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'cv-1');
    for (const e of ev2.events) {
      for (const snap of [e.channel, e.peer, e.caller]) {
        if (snap) assert.ok(snap.channelvars && 'FOO' in snap.channelvars && 'CALLERID(num)' in snap.channelvars, `${e.type} ${snap.id}`);
      }
    }
    t2.assertNoViolations();
  } finally {
    await ev2.close();
    await t2.close();
  }
});

test.run();
