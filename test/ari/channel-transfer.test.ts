import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp, hangupAndWait, originateInApp } from '../_helpers/ari.js';
import type { AriEvent } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

// ari-only transfer handling (Asterisk 22.3 / 21.8 / 20.13): a far-end REFER on such a channel moves
// nothing; its application gets ChannelTransfer, drives the transfer and reports back with
// transfer_progress, each report reaching the far end as a NOTIFY and announced again with its state.
const test = suite('channel-transfer');
const ctx = useServer(test);

const ENVELOPE = ['application', 'asterisk_id', 'timestamp', 'type'];
const cfg = (id: string) => `/ari/asterisk/config/dynamic/res_pjsip/endpoint/${id}`;
const fields = (o: Record<string, string>) => ({ json: { fields: Object.entries(o).map(([attribute, value]) => ({ attribute, value })) } });
const get = async (path: string) => (await ctx.t.http('GET', path)).body;
const notifies = async (id: string): Promise<number[]> => (await get(`/sim/channels/${encodeURIComponent(id)}`)).far_end.transfer_notify;
const progress = (id: string, states: string) => ctx.t.http('POST', `/ari/channels/${encodeURIComponent(id)}/transfer_progress`, { query: { states } });
const transfersOf = (id: string): AriEvent[] => ctx.ev.events.filter((e) => e.type === 'ChannelTransfer' && e.referred_by?.source_channel?.id === id);

async function bridged(bridgeId: string, ids: string[]): Promise<void> {
  assert.is((await ctx.t.http('POST', '/ari/bridges', { query: { bridgeId } })).status, 200);
  for (const id of ids) {
    assert.is((await ctx.t.http('POST', `/ari/bridges/${bridgeId}/addChannel`, { query: { channel: id } })).status, 204);
    await ctx.ev.waitFor((e) => e.type === 'ChannelEnteredBridge' && e.bridge?.id === bridgeId && e.channel?.id === id);
  }
}

/** The ChannelTransfer with `state` (undefined: the announcement of the request) whose REFER arrived on `id`. */
const transferEvent = (id: string, state?: string) =>
  ctx.ev.waitFor((e) => e.type === 'ChannelTransfer' && e.referred_by?.source_channel?.id === id && e.state === state);

test.before(async () => {
  // An endpoint made at run time with transfer_handling=ari-only; it answers at once.
  const r = await ctx.t.http('PUT', cfg('xfer'), fields({ transfer_handling: 'ari-only', sim_answer_after_ms: '0' }));
  assert.is(r.status, 200, r.text);
  assert.ok(r.body.some((t: { attribute: string; value: string }) => t.attribute === 'transfer_handling' && t.value === 'ari-only'));
});

test('blind REFER on an ari-only endpoint: 100 Trying NOTIFY, ChannelTransfer with the destination and the bridge, nothing moves; progress and answered reports reach the far end and are announced; the far end then hangs up', async () => {
  const a = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ct-a', endpoint: 'PJSIP/xfer' })).id;
  const b = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ct-b' })).id;
  await bridged('ct-br', [a, b]);
  assert.equal((await ctx.t.http('GET', `/ari/channels/${a}/variable`, { query: { variable: 'PJSIP_TRANSFER_HANDLING()' } })).body, { value: 'ari-only' });
  const before = ctx.ev.events.length;

  // nowhere is no extension of the dialplan: the REFER is not checked against the dialplan, the destination is the application's.
  const r = await ctx.t.http('POST', `/sim/channels/${a}/transfer`, { query: { exten: 'nowhere' } });
  assert.is(r.status, 204, r.text);
  const first = await transferEvent(a);
  assert.equal(Object.keys(first).sort(), [...ENVELOPE, 'refer_to', 'referred_by'].sort(), 'no state on the announcement of the request');
  assert.is(first.application, 'app1');
  assert.equal(first.refer_to, { requested_destination: { destination: 'nowhere' } });
  const [chA, chB, br] = [await get(`/ari/channels/${a}`), await get(`/ari/channels/${b}`), await get('/ari/bridges/ct-br')];
  assert.equal(first.referred_by, { source_channel: chA, connected_channel: chB, bridge: br });
  assert.equal(br.channels, [a, b]);
  assert.equal(await notifies(a), [100]);
  // Nothing else happened: no BridgeBlindTransfer, no Local channel, no hangup.
  assert.equal(ctx.ev.events.slice(before).map((e) => e.type), ['ChannelTransfer']);

  assert.is((await progress(a, 'channel_progress')).status, 204);
  const second = await transferEvent(a, 'channel_progress');
  assert.is(second.state, 'channel_progress');
  assert.equal(second.refer_to, first.refer_to);
  assert.is(second.referred_by.connected_channel.id, b);
  assert.equal(await notifies(a), [100, 100]);

  // The application does the transfer its own way, then reports success: the far end hangs up the call it referred.
  assert.is((await progress(a, 'channel_answered')).status, 204);
  const third = await transferEvent(a, 'channel_answered');
  assert.is(third.state, 'channel_answered');
  const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === a);
  assert.is(destroyed.cause, 16);
  const seq = ctx.ev.events.slice(before).filter((e) => e.type === 'ChannelTransfer' || e.channel?.id === a).map((e) => (e.type === 'ChannelTransfer' ? `ChannelTransfer:${e.state ?? ''}` : e.type));
  assert.equal(seq, [
    'ChannelTransfer:', 'ChannelTransfer:channel_progress', 'ChannelTransfer:channel_answered',
    'ChannelHangupRequest', 'ChannelLeftBridge', 'StasisEnd', 'ChannelDestroyed',
  ]);
  assert.is(ctx.ev.events.find((e) => e.type === 'ChannelHangupRequest' && e.channel?.id === a)!.cause, 16);
  assert.not.ok(ctx.ev.events.some((e) => e.type === 'BridgeBlindTransfer'));
  assert.equal((await get('/ari/bridges/ct-br')).channels, [b]);
  await ctx.t.http('DELETE', '/ari/bridges/ct-br');
  await hangupAndWait(ctx.t, ctx.ev, b);
});

test('attended REFER with PJSIP_TRANSFER_HANDLING on the channel: ChannelTransfer names the call to replace (protocol id, extension, channel); a declined report ends the transfer and the far end keeps its call', async () => {
  const x1 = (await callInApp(ctx.t, ctx.ev, { id: 'ct-x1', app: 'app1' })).id;
  const y = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ct-y' })).id;
  const x2 = (await callInApp(ctx.t, ctx.ev, { id: 'ct-x2', app: 'app1' })).id;
  assert.equal((await ctx.t.http('GET', `/ari/channels/${x1}/variable`, { query: { variable: 'PJSIP_TRANSFER_HANDLING()' } })).body, { value: 'core' });
  const set = await ctx.t.http('POST', `/ari/channels/${x1}/variable`, { query: { variable: 'PJSIP_TRANSFER_HANDLING()', value: 'ari-only' } });
  assert.is(set.status, 204);
  assert.equal((await ctx.t.http('GET', `/ari/channels/${x1}/variable`, { query: { variable: 'PJSIP_TRANSFER_HANDLING()' } })).body, { value: 'ari-only' });
  await bridged('ct-abr', [x1, y]);

  const r = await ctx.t.http('POST', `/sim/channels/${x1}/attendedTransfer`, { query: { target: x2 } });
  assert.is(r.status, 204, r.text);
  const ev = await transferEvent(x1);
  const [c1, cy, c2, br] = [await get(`/ari/channels/${x1}`), await get(`/ari/channels/${y}`), await get(`/ari/channels/${x2}`), await get('/ari/bridges/ct-abr')];
  assert.ok(c2.protocol_id.length > 0);
  // The other call is in no bridge: only the channel itself is known about it.
  assert.equal(ev.refer_to, { requested_destination: { protocol_id: c2.protocol_id, destination: '1000' }, destination_channel: c2 });
  assert.equal(ev.referred_by, { source_channel: c1, connected_channel: cy, bridge: br });
  assert.not.ok('state' in ev);
  assert.equal(await notifies(x1), [100]);
  assert.equal(await notifies(x2), []);

  assert.is((await progress(x1, 'channel_declined')).status, 204);
  const declined = await transferEvent(x1, 'channel_declined');
  assert.is(declined.state, 'channel_declined');
  assert.is(declined.refer_to.destination_channel.id, x2);
  assert.equal(await notifies(x1), [100, 603]);
  // The transfer is over: a later report still reaches the far end, with no event; both calls stay.
  assert.is((await progress(x1, 'channel_unavailable')).status, 204);
  assert.equal(await notifies(x1), [100, 603, 503]);
  assert.is(transfersOf(x1).length, 2);
  for (const id of [x1, x2]) assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).status, 200);
  assert.not.ok(ctx.ev.events.some((e) => e.type === 'BridgeAttendedTransfer'));
  await ctx.t.http('DELETE', '/ari/bridges/ct-abr');
  await hangupAndWait(ctx.t, ctx.ev, y);
  // Calls that reached the application through the dialplan are heard of until StasisEnd.
  for (const id of [x1, x2]) {
    assert.is((await ctx.t.http('DELETE', `/ari/channels/${id}`)).status, 204);
    await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === id);
  }
});

test('default handling is unchanged: core channels (and PJSIP_TRANSFER_HANDLING()=core on an ari-only endpoint) get BridgeBlindTransfer and no ChannelTransfer', async () => {
  const a = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ct-core' })).id;
  assert.is((await ctx.t.http('POST', `/sim/channels/${a}/transfer`, { query: { exten: '1000' } })).status, 204);
  const xfer = await ctx.ev.waitFor((e) => e.type === 'BridgeBlindTransfer' && e.channel?.id === a);
  assert.is(xfer.result, 'Invalid');
  assert.equal(await notifies(a), []);

  const o = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ct-override', endpoint: 'PJSIP/xfer' })).id;
  assert.is((await ctx.t.http('POST', `/ari/channels/${o}/variable`, { query: { variable: 'PJSIP_TRANSFER_HANDLING()', value: 'core' } })).status, 204);
  // Core handling looks the extension up again.
  const bad = await ctx.t.http('POST', `/sim/channels/${o}/transfer`, { query: { exten: 'nowhere' } });
  assert.is(bad.status, 400);
  assert.equal(bad.body, { message: "No such extension 'nowhere' in context 'default'" });
  assert.is((await ctx.t.http('POST', `/sim/channels/${o}/transfer`, { query: { exten: '1000' } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'BridgeBlindTransfer' && e.channel?.id === o);
  assert.is(transfersOf(a).length + transfersOf(o).length, 0);
  for (const id of [a, o]) await hangupAndWait(ctx.t, ctx.ev, id);
});

test('bad input: unknown mode or a non-PJSIP channel 400, bad transfer_handling attribute 400, no extension 400, unanswered 409; nothing is announced', async () => {
  const a = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ct-bad', endpoint: 'PJSIP/xfer' })).id;
  const bogus = await ctx.t.http('POST', `/ari/channels/${a}/variable`, { query: { variable: 'PJSIP_TRANSFER_HANDLING()', value: 'sometimes' } });
  assert.is(bogus.status, 400);
  assert.equal(bogus.body, { message: 'Failed to execute function' });
  assert.equal((await ctx.t.http('GET', `/ari/channels/${a}/variable`, { query: { variable: 'PJSIP_TRANSFER_HANDLING()' } })).body, { value: 'ari-only' });

  const local = await ctx.t.http('POST', '/ari/channels/create', { query: { endpoint: 'Local/1000@default', app: 'app1', channelId: 'ct-local' } });
  assert.is(local.status, 200);
  const onLocal = await ctx.t.http('POST', '/ari/channels/ct-local/variable', { query: { variable: 'PJSIP_TRANSFER_HANDLING()', value: 'ari-only' } });
  assert.is(onLocal.status, 400);
  assert.equal(onLocal.body, { message: 'Failed to execute function' });
  await ctx.t.http('DELETE', '/ari/channels/ct-local');

  const attr = await ctx.t.http('PUT', cfg('xfer'), fields({ transfer_handling: 'app' }));
  assert.is(attr.status, 400);
  assert.equal(attr.body, { message: "Update of object 'xfer' failed field value validation" });

  const noExten = await ctx.t.http('POST', `/sim/channels/${a}/transfer`);
  assert.is(noExten.status, 400);
  assert.equal(noExten.body, { message: "Required parameter 'exten' not provided" });
  const down = await ctx.t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/xfer', app: 'app1', channelId: 'ct-down' } });
  assert.is(down.status, 200);
  const notUp = await ctx.t.http('POST', '/sim/channels/ct-down/transfer', { query: { exten: 'nowhere' } });
  assert.is(notUp.status, 409);
  assert.is(transfersOf(a).length + transfersOf('ct-down').length, 0);
  assert.equal(await notifies(a), []);
  for (const id of [a, 'ct-down']) await hangupAndWait(ctx.t, ctx.ev, id);
});

test.run();
