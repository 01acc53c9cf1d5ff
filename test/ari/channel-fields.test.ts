import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInApp, eventSequence, hangupAndWait } from '../_helpers/ari.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('channel-fields');
const ctx = useServer(test);

const getChannel = async (id: string) => {
  const r = await ctx.t.http('GET', `/ari/channels/${encodeURIComponent(id)}`);
  assert.is(r.status, 200, r.text);
  return r.body;
};
const readVar = async (id: string, variable: string) => (await ctx.t.http('GET', `/ari/channels/${encodeURIComponent(id)}/variable`, { query: { variable } })).body;
const setVar = (id: string, variable: string, value: string) => ctx.t.http('POST', `/ari/channels/${encodeURIComponent(id)}/variable`, { query: { variable, value } });

test('tenantid: absent until CHANNEL(tenantid) is written, then in every snapshot; no event of its own', async () => {
  const { id, body } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'tenant-1' });
  assert.not.ok('tenantid' in body);
  assert.equal(await readVar(id, 'CHANNEL(tenantid)'), { value: '' });
  const before = ctx.ev.of(id).length;
  assert.is((await setVar(id, 'CHANNEL(tenantid)', 'acme')).status, 204);
  assert.is((await getChannel(id)).tenantid, 'acme');
  assert.equal(await readVar(id, 'CHANNEL(tenantid)'), { value: 'acme' });
  assert.is(ctx.ev.of(id).length, before);
  const destroyed = await hangupAndWait(ctx.t, ctx.ev, id);
  assert.is(destroyed.channel!.tenantid, 'acme');
});

test('tenantid set in the variables of an originate shows in the answer itself', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', {
    query: { endpoint: 'PJSIP/instant', app: 'app1', channelId: 'tenant-2' },
    json: { variables: { 'CHANNEL(tenantid)': 'globex' } },
  });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.tenantid, 'globex');
  const start = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'tenant-2');
  assert.is(start.channel!.tenantid, 'globex');
  await hangupAndWait(ctx.t, ctx.ev, 'tenant-2');
});

test('caller_rdnis: the redirecting number of an inbound call, read through REDIRECTING(); absent without one', async () => {
  const r = await ctx.t.http('POST', '/sim/calls', {
    query: { endpoint: 'PJSIP/trunk', extension: '1000', context: 'default', channelId: 'rdnis-1', redirectingFrom: '5551234' },
    json: { variables: { STASIS_APP: 'app1' } },
  });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.caller_rdnis, '5551234');
  const start = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'rdnis-1');
  assert.is(start.channel!.caller_rdnis, '5551234');
  assert.equal(await readVar('rdnis-1', 'REDIRECTING(from-num)'), { value: '5551234' });
  assert.equal(await readVar('rdnis-1', 'REDIRECTING(count)'), { value: '1' });
  assert.equal(await readVar('rdnis-1', 'REDIRECTING(to-num)'), { value: '' });
  await ctx.t.http('DELETE', '/ari/channels/rdnis-1');

  const plain = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: 'rdnis-2' }, json: { variables: { STASIS_APP: 'app1' } } });
  assert.is(plain.status, 200);
  assert.not.ok('caller_rdnis' in plain.body);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'rdnis-2');
  // Writing REDIRECTING(from-num) sets it; an unknown data type is refused.
  assert.is((await setVar('rdnis-2', 'REDIRECTING(from-num)', '1009')).status, 204);
  assert.is((await getChannel('rdnis-2')).caller_rdnis, '1009');
  const bad = await setVar('rdnis-2', 'REDIRECTING(nonsense)', 'x');
  assert.is(bad.status, 400);
  assert.equal(bad.body, { message: 'Failed to execute function' });
  await ctx.t.http('DELETE', '/ari/channels/rdnis-2');
});

test('tech_cause: a SIP far end refusing a created channel\'s dial (486 busy) is in ChannelHangupRequest and ChannelDestroyed', async () => {
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'tc-busy', endpoint: 'PJSIP/busy' });
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/dial`)).status, 204);
  const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  const req = ctx.ev.of(id).find((e) => e.type === 'ChannelHangupRequest')!;
  assert.is(req.cause, 17);
  assert.is(req.tech_cause, 486);
  assert.not.ok('soft' in req);
  assert.is(destroyed.cause, 17);
  assert.is(destroyed.cause_txt, 'User busy');
  assert.is(destroyed.tech_cause, 486);
  assert.equal(eventSequence(ctx.ev, id).slice(-5), ['Dial:', 'Dial:BUSY', 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
});

test('tech_cause on a failed originate (no ChannelHangupRequest): 480 for an offline endpoint, 503 for congestion', async () => {
  for (const [endpoint, id, cause, tech] of [['PJSIP/offline', 'tc-off', 20, 480], ['PJSIP/congested', 'tc-cong', 34, 503]] as const) {
    const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint, app: 'app1', channelId: id } });
    assert.is(r.status, 200, r.text);
    const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
    assert.is(destroyed.cause, cause, endpoint);
    assert.is(destroyed.tech_cause, tech, endpoint);
    assert.not.ok(ctx.ev.of(id).some((e) => e.type === 'ChannelHangupRequest'), endpoint);
  }
});

test('no tech_cause for nominal hangups: ARI hangup, far-end hangup after answer, a Local channel\'s refusal', async () => {
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'tc-api', endpoint: 'PJSIP/instant' });
  const api = await hangupAndWait(ctx.t, ctx.ev, id);
  assert.not.ok('tech_cause' in api);
  assert.not.ok('tech_cause' in ctx.ev.of(id).find((e) => e.type === 'ChannelHangupRequest')!);

  const o = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'app1', channelId: 'tc-far' } });
  assert.is(o.status, 200);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'tc-far');
  assert.is((await ctx.t.http('POST', '/sim/channels/tc-far/hangup', { query: { reason: 'busy' } })).status, 204);
  const far = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'tc-far');
  assert.is(far.cause, 17);
  assert.not.ok('tech_cause' in far);

  const l = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'Local/busy@default', app: 'app1', channelId: 'tc-local' } });
  assert.is(l.status, 200);
  const local = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'tc-local');
  assert.is(local.cause, 17);
  assert.not.ok('tech_cause' in local);
});

test.run();
