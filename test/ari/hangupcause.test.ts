import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp, createInApp, hangupAndWait, originateInApp } from '../_helpers/ari.js';
import { useServer } from '../_helpers/suite.js';

// HANGUPCAUSE(channel,tech|ast) and HANGUPCAUSE_KEYS(): the technology cause chan_pjsip keeps, under
// the channel's own name, for each response the far end of a call we placed sends.
const test = suite('hangupcause');
const ctx = useServer(test, { events: { ev: 'app1', all: { apps: 'watch', subscribeAll: true } } });

const read = (id: string, variable: string) => ctx.t.http('GET', `/ari/channels/${encodeURIComponent(id)}/variable`, { query: { variable } });
const value = async (id: string, variable: string) => {
  const r = await read(id, variable);
  assert.is(r.status, 200, `${variable}: ${r.text}`);
  return r.body.value as string;
};

test('an answered call we placed: SIP 200 OK, Normal Clearing, keyed by its own name', async () => {
  const { id, start } = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'hc-up', endpoint: 'PJSIP/alice' });
  const name = start.channel!.name;
  assert.is(await value(id, `HANGUPCAUSE(${name},tech)`), 'SIP 200 OK');
  assert.is(await value(id, `HANGUPCAUSE(${name},ast)`), 'Normal Clearing');
  assert.is(await value(id, 'HANGUPCAUSE_KEYS()'), name);
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('a call still ringing: SIP 180 Ringing', async () => {
  const { id, body } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'hc-ring', endpoint: 'PJSIP/manual' });
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/dial`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === id && e.dialstatus === 'RINGING');
  assert.is(await value(id, `HANGUPCAUSE(${body.name},tech)`), 'SIP 180 Ringing');
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('through the dialplan of an originated call: the keys, the SIP status and the cause in words', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', extension: 'causes', context: 'transfers', channelId: 'hc-dp' } });
  assert.is(r.status, 200, r.text);
  const set = await ctx.all.waitFor((e) => e.type === 'ChannelVarset' && e.channel?.id === 'hc-dp' && e.variable === 'CAUSES');
  assert.is(set.value, `${r.body.name}|SIP 200 OK|Normal Clearing`);
  await hangupAndWait(ctx.t, ctx.all, 'hc-dp');
});

test('an inbound call keeps no cause: no keys, and reading one fails (404); bad arguments fail too', async () => {
  const { id, start } = await callInApp(ctx.t, ctx.ev, { id: 'hc-in', app: 'app1' });
  assert.is(await value(id, 'HANGUPCAUSE_KEYS()'), '');
  for (const variable of [`HANGUPCAUSE(${start.channel!.name},tech)`, 'HANGUPCAUSE(PJSIP/nobody-00000001,ast)', `HANGUPCAUSE(${start.channel!.name})`, `HANGUPCAUSE(${start.channel!.name},sip)`]) {
    const r = await read(id, variable);
    assert.is(r.status, 404, variable);
    assert.equal(r.body, { message: 'Unable to read provided function' }, variable);
  }
  await hangupAndWait(ctx.t, ctx.all, id);
});

test.run();
