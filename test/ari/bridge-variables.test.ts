import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInApp, hangupAndWait } from '../_helpers/ari.js';
import { restartableServer } from '../_helpers/child.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('bridge-variables');
const ctx = useServer(test);

const bridge = async (id: string) => {
  const r = await ctx.t.http('POST', `/ari/bridges/${id}`, { query: { type: 'mixing' } });
  assert.is(r.status, 200, r.text);
};
const getVar = (id: string, variable?: string) => ctx.t.http('GET', `/ari/bridges/${id}/variable`, variable === undefined ? {} : { query: { variable } });
const setVar = (id: string, query: Record<string, string | boolean | undefined>) => ctx.t.http('POST', `/ari/bridges/${id}/variable`, { query });

test('guards: a missing name is 400, an unknown bridge 404, an unset variable 404 "Provided variable was not found"', async () => {
  await bridge('bv-guards');
  const none = await getVar('bv-guards');
  assert.is(none.status, 400);
  assert.equal(none.body, { message: 'Variable name is required' });
  const g404 = await getVar('no-such-bridge', 'A');
  assert.is(g404.status, 404);
  assert.equal(g404.body, { message: 'Bridge not found' });
  const s404 = await setVar('no-such-bridge', { variable: 'A', value: '1' });
  assert.is(s404.status, 404);
  assert.equal(s404.body, { message: 'Bridge not found' });
  const unset = await getVar('bv-guards', 'NEVER');
  assert.is(unset.status, 404);
  assert.equal(unset.body, { message: 'Provided variable was not found' });
  // A bridge runs no dialplan: functions are neither read nor written.
  assert.equal((await getVar('bv-guards', 'CALLERID(num)')).body, { message: 'Unable to read provided function' });
  const fn = await setVar('bv-guards', { variable: 'CALLERID(num)', value: '1' });
  assert.is(fn.status, 400);
  assert.equal(fn.body, { message: 'Failed to execute function' });
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/bv-guards')).status, 204);
});

test('set, read, remove; report_events puts the variable in bridgevars of later answers and events', async () => {
  await bridge('bv-1');
  assert.is((await setVar('bv-1', { variable: 'ROOM', value: 'blue' })).status, 204);
  assert.equal((await getVar('bv-1', 'ROOM')).body, { value: 'blue' });
  assert.not.ok('bridgevars' in (await ctx.t.http('GET', '/ari/bridges/bv-1')).body);

  const s = await setVar('bv-1', { variable: 'OWNER', value: 'alice', report_events: true });
  assert.is(s.status, 204);
  assert.is(s.text, '');
  assert.equal((await ctx.t.http('GET', '/ari/bridges/bv-1')).body.bridgevars, { OWNER: 'alice' });

  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bv-member', endpoint: 'PJSIP/instant' });
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/dial`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === id && e.dialstatus === 'ANSWER');
  assert.is((await ctx.t.http('POST', '/ari/bridges/bv-1/addChannel', { query: { channel: id } })).status, 204);
  const entered = await ctx.ev.waitFor((e) => e.type === 'ChannelEnteredBridge' && e.channel?.id === id);
  assert.equal(entered.bridge.bridgevars, { OWNER: 'alice' });

  // No value removes the variable; a reported name then reads empty.
  assert.is((await setVar('bv-1', { variable: 'OWNER' })).status, 204);
  assert.is((await getVar('bv-1', 'OWNER')).status, 404);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/bv-1')).body.bridgevars, { OWNER: '' });
  await hangupAndWait(ctx.t, ctx.ev, id);
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/bv-1')).status, 204);
});

test('getBridgeVars and setBridgeVars: several at once, names trimmed, unset ones left out', async () => {
  await bridge('bv-bulk');
  const s = await ctx.t.http('POST', '/ari/bridges/bv-bulk/variables', { json: { variables: { A: '1', ' B ': { value: '2', report_events: true } } } });
  assert.is(s.status, 204);
  const g = await ctx.t.http('GET', '/ari/bridges/bv-bulk/variables', { query: { variables: 'A,B,C' } });
  assert.is(g.status, 200);
  assert.equal(g.body, { variables: { A: '1', B: '2' } });
  assert.equal((await ctx.t.http('GET', '/ari/bridges/bv-bulk')).body.bridgevars, { B: '2' });
  const empty = await ctx.t.http('POST', '/ari/bridges/bv-bulk/variables');
  assert.is(empty.status, 400);
  assert.equal(empty.body, { message: 'Variables are required' });
  const noNames = await ctx.t.http('GET', '/ari/bridges/bv-bulk/variables');
  assert.is(noNames.status, 400);
  assert.equal(noNames.body, { message: 'Variable names are required' });
  const unknown = await ctx.t.http('GET', '/ari/bridges/no-such-bridge/variables', { query: { variables: 'A' } });
  assert.is(unknown.status, 404);
  assert.equal(unknown.body, { message: 'Bridge not found' });
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/bv-bulk')).status, 204);
});

test('restart: bridge variables survive SIGKILL right after their answers (they live in the bridge record)', async () => {
  const servers = restartableServer('bridge-vars-restart');
  try {
    let server = await servers.start();
    assert.is((await server.http('POST', '/ari/bridges/bv-keep', { query: { type: 'mixing' } })).status, 200);
    assert.is((await server.http('POST', '/ari/bridges/bv-keep/variable', { query: { variable: 'KEEP', value: 'me', report_events: true } })).status, 204);
    await servers.kill();
    server = await servers.start();
    assert.equal((await server.http('GET', '/ari/bridges/bv-keep/variable', { query: { variable: 'KEEP' } })).body, { value: 'me' });
    assert.equal((await server.http('GET', '/ari/bridges/bv-keep')).body.bridgevars, { KEEP: 'me' });
    server.assertNoViolations();
  } finally {
    await servers.cleanup();
  }
});

test.run();
