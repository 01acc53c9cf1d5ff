import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInApp, hangupAndWait } from '../_helpers/ari.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('channel-variables-bulk');
const ctx = useServer(test);

let n = 0;
const inApp = () => createInApp(ctx.t, ctx.ev, { app: 'app1', id: `bulk-${++n}` });
const getVars = (id: string, variables?: string) =>
  ctx.t.http('GET', `/ari/channels/${encodeURIComponent(id)}/variables`, variables === undefined ? {} : { query: { variables } });
const setVars = (id: string, json?: unknown) =>
  ctx.t.http('POST', `/ari/channels/${encodeURIComponent(id)}/variables`, json === undefined ? {} : { json });

test('guards: names required (400); unknown channel 404 as the single-variable operations word it; not in an application 409', async () => {
  const { id } = await inApp();
  const none = await getVars(id);
  assert.is(none.status, 400);
  assert.equal(none.body, { message: 'Variable names are required' });
  const blank = await getVars(id, ' , ');
  assert.is(blank.status, 400);
  assert.equal(blank.body, { message: 'Variable names are required' });
  const empty = await setVars(id);
  assert.is(empty.status, 400);
  assert.equal(empty.body, { message: 'Variables are required' });
  await hangupAndWait(ctx.t, ctx.ev, id);

  const g404 = await getVars('no-such-channel', 'A');
  assert.is(g404.status, 404);
  assert.equal(g404.body, { message: 'Provided channel was not found' });
  const s404 = await setVars('no-such-channel', { variables: { A: '1' } });
  assert.is(s404.status, 404);
  assert.equal(s404.body, { message: 'Channel not found' });

  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/noanswer', app: 'app1', channelId: 'bulk-ringing', timeout: -1 } });
  assert.is(r.status, 200);
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'bulk-ringing' && e.dialstatus === 'RINGING');
  for (const res of [await getVars('bulk-ringing', 'CHANNEL'), await setVars('bulk-ringing', { variables: { A: '1' } })]) {
    assert.is(res.status, 409);
    assert.equal(res.body, { message: 'Channel not in Stasis application' });
  }
  await hangupAndWait(ctx.t, ctx.ev, 'bulk-ringing');
});

test('setChannelVars writes in order with each one\'s event; getChannelVars reads variables and functions, leaving unset names out', async () => {
  const { id } = await inApp();
  const before = ctx.ev.of(id).length;
  const s = await setVars(id, { variables: { A: '1', ' B ': { value: 'two', report_events: true }, 'CALLERID(name)': 'Zed' } });
  assert.is(s.status, 204);
  assert.is(s.text, '');
  const cid = await ctx.ev.waitFor((e) => e.type === 'ChannelCallerId' && e.channel?.id === id);
  const after = ctx.ev.of(id).slice(before);
  assert.equal(after.map((e) => (e.type === 'ChannelVarset' ? `${e.variable}=${e.value}` : e.type)), ['A=1', 'B=two', 'ChannelCallerId']);
  // B was reported: it rides along in channelvars from then on.
  assert.equal(cid.channel!.channelvars, { B: 'two' });
  assert.is(cid.channel!.caller.name, 'Zed');

  const g = await getVars(id, 'A,B,CALLERID(name),NEVER_SET,CHANNEL(state)');
  assert.is(g.status, 200);
  assert.equal(g.body, { variables: { A: '1', B: 'two', 'CALLERID(name)': 'Zed', 'CHANNEL(state)': 'Down' } });
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('a function that cannot be read is 404; one that cannot be written stops the list at that entry with 400', async () => {
  const { id } = await inApp();
  const g = await getVars(id, 'CHANNEL,NOPE(x)');
  assert.is(g.status, 404);
  assert.equal(g.body, { message: 'Unable to read provided function' });

  const s = await setVars(id, { variables: { FIRST: 'x', 'NOPE(1)': 'y', LAST: 'z' } });
  assert.is(s.status, 400);
  assert.equal(s.body, { message: 'Failed to execute function' });
  const after = await getVars(id, 'FIRST,LAST');
  assert.equal(after.body, { variables: { FIRST: 'x' } });
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('a malformed entry is refused before anything is written', async () => {
  const { id } = await inApp();
  const s = await setVars(id, { variables: { OK: 'yes', BAD: 5 } });
  assert.is(s.status, 400);
  assert.equal(s.body, { message: 'Only string values in the \'variables\' object allowed' });
  assert.equal((await getVars(id, 'OK')).body, { variables: {} });
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test.run();
