import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventSequence } from '../_helpers/ari.js';
import { connectEvents } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';
import { sleep } from '../_helpers/wait.js';

const test = suite('originate');
const ctx = useServer(test);

test('originate into an app: 200 Down, then Dial/Ringing/Up/Dialplan/StasisStart in Asterisk order', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/alice', app: 'app1', appArgs: 'x,y' } });
  assert.is(r.status, 200);
  assert.is(r.body.state, 'Down');
  assert.match(r.body.name, /^PJSIP\/alice-[0-9a-f]{8}$/);
  assert.match(r.body.id, /^\d+\.\d+$/);
  assert.match(r.body.creationtime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
  assert.equal(r.body.dialplan, { context: 'default', exten: 's', priority: 1, app_name: '', app_data: '' });
  const id = r.body.id;
  const start = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
  assert.equal(start.args, ['x', 'y']);
  assert.is(start.channel!.state, 'Up');
  assert.equal(start.channel!.dialplan, { context: 'default', exten: 's', priority: 1, app_name: 'Stasis', app_data: 'app1,x,y' });
  const seq = eventSequence(ctx.ev, id);
  assert.equal(seq, ['Dial:', 'State:Ringing', 'Dial:RINGING', 'State:Up', 'Dial:ANSWER', 'ChannelDialplan', 'StasisStart']);
  const dial = ctx.ev.of(id).find((e) => e.type === 'Dial')!;
  assert.is(dial.dialstring, 'alice');
  assert.is(dial.forward, '');
  assert.is(dial.caller, undefined);
  for (const e of ctx.ev.of(id)) {
    assert.is(e.application, 'app1');
    assert.match(e.asterisk_id, /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
  }

  ctx.ev.clear();
  const del = await ctx.t.http('DELETE', `/ari/channels/${id}`);
  assert.is(del.status, 204);
  assert.is(del.text, '');
  await ctx.ev.waitFor('ChannelDestroyed');
  const end = ctx.ev.of(id);
  assert.equal(end.map((e) => e.type), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
  assert.is(end[0]!.cause, 32);
  assert.is(end[0]!.soft, true);
  assert.is(end[2]!.cause, 16);
  assert.is(end[2]!.cause_txt, 'Normal Clearing');
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).status, 404);
});

test('originateWithId honours the id; a duplicate id is 409', async () => {
  const r = await ctx.t.http('POST', '/ari/channels/my-call-1', { query: { endpoint: 'PJSIP/instant', app: 'app1' } });
  assert.is(r.status, 200);
  assert.is(r.body.id, 'my-call-1');
  const dup = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/bob', app: 'app1', channelId: 'my-call-1' } });
  assert.is(dup.status, 409);
  assert.equal(dup.body, { message: 'Channel with given unique ID already exists' });
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'my-call-1');
  // Found by name as well as by id.
  const byName = await ctx.t.http('GET', `/ari/channels/${encodeURIComponent(r.body.name)}`);
  assert.is(byName.status, 200);
  assert.is(byName.body.id, 'my-call-1');
  await ctx.t.http('DELETE', '/ari/channels/my-call-1');
});

test('busy endpoint: Dial BUSY then ChannelDestroyed cause 17, no StasisStart', async () => {
  ctx.ev.clear();
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/busy', app: 'app1' } });
  const id = r.body.id;
  const d = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  assert.is(d.cause, 17);
  assert.is(d.cause_txt, 'User busy');
  assert.equal(eventSequence(ctx.ev, id), ['Dial:', 'Dial:BUSY', 'ChannelDestroyed']);
});

test('congested endpoint: Dial CONGESTION, cause 34', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/congested', app: 'app1' } });
  const d = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === r.body.id);
  assert.is(d.cause, 34);
  assert.ok(ctx.ev.of(r.body.id).some((e) => e.type === 'Dial' && e.dialstatus === 'CONGESTION'));
});

test('no answer: the originate timeout ends the call with Dial NOANSWER and cause 19', async () => {
  const t0 = Date.now();
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/noanswer', app: 'app1', timeout: 2 } });
  const d = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === r.body.id);
  // 2 simulated seconds at scale 20 is 100 ms of wall time.
  assert.ok(Date.now() - t0 >= 90, 'waited for the timeout');
  assert.is(d.cause, 19);
  assert.is(d.cause_txt, 'User alerting, no answer');
  assert.ok(ctx.ev.of(r.body.id).some((e) => e.type === 'Dial' && e.dialstatus === 'NOANSWER'));
  assert.not.ok(ctx.ev.of(r.body.id).some((e) => e.type === 'StasisStart'));
});

test('timeout -1 never gives up; timeout below -1 is 400', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/noanswer', app: 'app1', timeout: -1 } });
  assert.is(r.status, 200);
  await sleep(1700); // 34 simulated seconds: past the 30 s default
  assert.is((await ctx.t.http('GET', `/ari/channels/${r.body.id}`)).body.state, 'Ringing');
  await ctx.t.http('DELETE', `/ari/channels/${r.body.id}`);
  const bad = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/noanswer', app: 'app1', timeout: -2 } });
  assert.is(bad.status, 400);
});

test('offline endpoint fails at once with CHANUNAVAIL', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/offline', app: 'app1' } });
  const d = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === r.body.id);
  assert.is(d.cause, 20);
  assert.ok(ctx.ev.of(r.body.id).some((e) => e.type === 'Dial' && e.dialstatus === 'CHANUNAVAIL'));
});

test('callerId sets caller and connected; body variables apply functions and plain variables', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', {
    query: { endpoint: 'PJSIP/instant', app: 'app1', callerId: '"Front Desk" <(555) 010-0199>' },
    json: { variables: { 'CALLERID(name)': 'Override', GREETING: 'hi', TRACKED: { value: 'yes', report_events: true } } },
  });
  assert.is(r.status, 200);
  assert.equal(r.body.caller, { name: 'Override', number: '5550100199' });
  assert.equal(r.body.connected, { name: 'Front Desk', number: '5550100199' });
  assert.equal(r.body.channelvars, { TRACKED: 'yes' });
  const start = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === r.body.id);
  assert.equal(start.channel!.channelvars, { TRACKED: 'yes' });
  const v = await ctx.t.http('GET', `/ari/channels/${r.body.id}/variable`, { query: { variable: 'GREETING' } });
  assert.equal(v.body, { value: 'hi' });
  await ctx.t.http('DELETE', `/ari/channels/${r.body.id}`);
});

test('a JSON body supplies query parameters, and wins over the query string', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', {
    query: { endpoint: 'PJSIP/busy', app: 'app1' },
    json: { endpoint: 'PJSIP/instant', channelId: 'from-body' },
  });
  assert.is(r.status, 200);
  assert.is(r.body.id, 'from-body');
  assert.match(r.body.name, /^PJSIP\/instant-/);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'from-body');
  await ctx.t.http('DELETE', '/ari/channels/from-body');
});

test('originate to an extension runs the dialplan after answer (no app events)', async () => {
  const apps = await connectEvents(ctx.t.url, 'trunkline');
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', extension: '1000', context: 'default' } });
  assert.is(r.status, 200);
  const start = await apps.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === r.body.id);
  assert.equal(start.args, ['1000']);
  assert.equal(start.channel!.dialplan, { context: 'default', exten: '1000', priority: 2, app_name: 'Stasis', app_data: 'trunkline,1000' });
  await ctx.t.http('DELETE', `/ari/channels/${r.body.id}`);
  await apps.close();
});

test('originate with a label starts at that priority; unknown label 404, label 0 is 400', async () => {
  const apps = await connectEvents(ctx.t.url, 'trunkline');
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', extension: '1000', label: 'stasis' } });
  assert.is(r.status, 200);
  const start = await apps.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === r.body.id);
  assert.is(start.channel!.dialplan.priority, 2);
  await ctx.t.http('DELETE', `/ari/channels/${r.body.id}`);
  await apps.close();
  const missing = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', extension: '1000', label: 'nope' } });
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Requested label can not be found' });
  const zero = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', extension: '1000', label: '0' } });
  assert.is(zero.status, 400);
  assert.equal(zero.body, { message: 'Requested priority is illegal' });
});

test('400s: missing/invalid endpoint, neither app nor extension, exclusive parameters, originator/formats', async () => {
  const cases: Array<[Record<string, string>, string | RegExp]> = [
    [{ app: 'app1' }, 'Endpoint must be specified'],
    [{ endpoint: 'alice', app: 'app1' }, 'Invalid endpoint specified'],
    [{ endpoint: 'PJSIP/', app: 'app1' }, 'Invalid endpoint specified'],
    [{ endpoint: 'PJSIP/nobody', app: 'app1' }, /Endpoint not found/],
    [{ endpoint: 'PJSIP/alice' }, 'Application or extension must be specified'],
    [{ endpoint: 'PJSIP/alice', app: 'app1', extension: '1000' }, /mutually exclusive/],
    [{ endpoint: 'PJSIP/alice', extension: '1000', appArgs: 'a' }, /mutually exclusive/],
    [{ endpoint: 'PJSIP/alice', app: 'app1', originator: 'x', formats: 'ulaw' }, 'Originator and formats can\'t both be specified'],
    [{ endpoint: 'PJSIP/alice', app: 'app1', originator: 'nosuch' }, 'Provided originator channel was not found'],
    [{ endpoint: 'PJSIP/alice', app: 'app1', formats: 'ulaw,opus9' }, 'Provided format (opus9) was not found'],
    [{ endpoint: 'PJSIP/alice', app: 'app1', channelId: 'x'.repeat(150) }, 'Uniqueid length exceeds maximum of 149'],
    [{ endpoint: 'PJSIP/alice', app: 'app1', timeout: 'soon' }, /integer/],
    [{ endpoint: 'Local/9999@default', app: 'app1' }, /No such extension/],
  ];
  for (const [query, message] of cases) {
    const r = await ctx.t.http('POST', '/ari/channels', { query });
    assert.is(r.status, 400, JSON.stringify(query));
    if (typeof message === 'string') assert.is(r.body.message, message);
    else assert.match(r.body.message, message);
  }
  // Nothing was created by any of them.
  const list = await ctx.t.http('GET', '/ari/channels');
  assert.equal(list.body.filter((c: { name: string }) => !c.name.includes('noanswer')), []);
});

test('Local channels: two halves, ;2 runs the dialplan, the app subscribes to both', async () => {
  const apps = await connectEvents(ctx.t.url, 'trunkline');
  const r = await ctx.t.http('POST', '/ari/channels', {
    query: { endpoint: 'Local/1000@default', app: 'app1', channelId: 'loc', otherChannelId: 'loc-two' },
  });
  assert.is(r.status, 200);
  assert.match(r.body.name, /^Local\/1000@default-[0-9a-f]{8};1$/);
  assert.is(r.body.protocol_id, '');
  const two = await apps.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'loc-two');
  assert.match(two.channel!.name, /;2$/);
  assert.equal(two.args, ['1000']);
  const one = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'loc');
  assert.is(one.channel!.state, 'Up');
  // app1 is subscribed to the second half too: it saw ;2 change state.
  assert.ok(ctx.ev.of('loc-two').some((e) => e.type === 'ChannelStateChange'));
  // Hanging up one half takes the other down; ;2 sees the far end hang up (Q.850 cause, not soft).
  await ctx.t.http('DELETE', '/ari/channels/loc');
  const req = await apps.waitFor((e) => e.type === 'ChannelHangupRequest' && e.channel?.id === 'loc-two');
  assert.is(req.cause, 16);
  assert.is(req.soft, undefined);
  await apps.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === 'loc-two');
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'loc-two');
  await apps.close();
});

test('Local channel id default for the second half is <id>;2; collisions are 409', async () => {
  const apps = await connectEvents(ctx.t.url, 'trunkline');
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'Local/1000@default', app: 'app1', channelId: 'pair' } });
  assert.is(r.status, 200);
  await apps.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'pair;2');
  const dup = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/alice', app: 'app1', channelId: 'pair;2' } });
  assert.is(dup.status, 409);
  await ctx.t.http('DELETE', '/ari/channels/pair');
  await apps.close();
});

test.run();
