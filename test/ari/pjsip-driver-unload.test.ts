import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hangupAndWait, originateInApp } from '../_helpers/ari.js';
import { useServer } from '../_helpers/suite.js';

// chan_pjsip.so unloaded through ARI: no PJSIP channel can be made (originate and create fail as
// Asterisk's channel request does without a driver; the far end's calls are refused) until it is loaded again.
const test = suite('pjsip-driver-unload');
const ctx = useServer(test, { events: { ev: 'drv-app', all: { apps: 'drv-watch', subscribeAll: true } } });

const mod = '/ari/asterisk/modules/chan_pjsip.so';

test('unloaded: originate, originate with id and create of a PJSIP endpoint → 400 Allocation failed, nothing is created; inbound calls → 409; Local channels still work', async () => {
  assert.is((await ctx.t.http('DELETE', mod)).status, 204);
  const before = ctx.all.events.length;
  const cases: Array<[string, string, Record<string, string>]> = [
    ['POST', '/ari/channels', { endpoint: 'PJSIP/alice', app: 'drv-app' }],
    ['POST', '/ari/channels', { endpoint: 'PJSIP/instant', extension: '1000', context: 'default', channelId: 'drv-x' }],
    ['POST', '/ari/channels/drv-with-id', { endpoint: 'PJSIP/alice', app: 'drv-app' }],
    ['POST', '/ari/channels/create', { endpoint: 'PJSIP/bob', app: 'drv-app' }],
  ];
  for (const [method, path, query] of cases) {
    const r = await ctx.t.http(method, path, { query });
    assert.is(r.status, 400, `${path} ${r.text}`);
    assert.equal(r.body, { message: 'Allocation failed' }, path);
  }
  const inbound = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: 'drv-in' } });
  assert.is(inbound.status, 409, inbound.text);
  assert.equal(inbound.body, { message: 'chan_pjsip.so is not loaded: the call is refused' });
  assert.equal((await ctx.t.http('GET', '/ari/channels')).body, []);
  assert.equal((await ctx.t.http('GET', '/sim/history')).body, [], 'no channel existed, even briefly');
  // Other checks still come first: a malformed endpoint is its own 400.
  const bad = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP', app: 'drv-app' } });
  assert.equal(bad.body, { message: 'Invalid endpoint specified' });
  // Local channels have their own driver.
  const local = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'Local/1000@default', app: 'drv-app', channelId: 'drv-local' }, json: { variables: { STASIS_APP: 'drv-app' } } });
  assert.is(local.status, 200, local.text);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'drv-local');
  assert.not.ok(ctx.all.events.slice(before).some((e) => e.type === 'ChannelCreated' && e.channel?.name.startsWith('PJSIP/')));
  await hangupAndWait(ctx.t, ctx.all, 'drv-local');
});

test('loaded again: PJSIP originates and inbound calls work as before', async () => {
  assert.is((await ctx.t.http('POST', mod)).status, 204);
  assert.is((await ctx.t.http('GET', mod)).body.status, 'Running');
  const { id } = await originateInApp(ctx.t, ctx.ev, { app: 'drv-app', id: 'drv-back' });
  const inbound = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: 'drv-in-back' }, json: { variables: { STASIS_APP: 'drv-app' } } });
  assert.is(inbound.status, 200, inbound.text);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'drv-in-back');
  for (const c of [id, 'drv-in-back']) await hangupAndWait(ctx.t, ctx.all, c);
});

test.run();
