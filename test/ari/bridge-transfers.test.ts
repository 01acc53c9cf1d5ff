import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInApp, hangupAndWait, originateInApp } from '../_helpers/ari.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('bridge transfers');
// The Local ;2 half of a transfer to 1000@default runs Stasis(trunkline,1000).
const ctx = useServer(test, { events: { ev: 'app1', tl: 'trunkline', all: { apps: 'watcher', subscribeAll: true } } });

async function bridged(bridgeId: string, ids: string[]): Promise<void> {
  assert.is((await ctx.t.http('POST', '/ari/bridges', { query: { bridgeId } })).status, 200);
  for (const id of ids) {
    assert.is((await ctx.t.http('POST', `/ari/bridges/${bridgeId}/addChannel`, { query: { channel: id } })).status, 204);
    await ctx.ev.waitFor((e) => e.type === 'ChannelEnteredBridge' && e.bridge?.id === bridgeId && e.channel?.id === id);
  }
}

test('far-end blind transfer out of a bridge: BridgeBlindTransfer, the Local channel enters the app with replace_channel and takes the transferer\'s place; the transferer hangs up', async () => {
  const a = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bx-a' })).id;
  const b = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bx-b' })).id;
  await bridged('bx-br', [a, b]);
  const r = await ctx.t.http('POST', `/sim/channels/${a}/transfer`, { query: { exten: '1000', context: 'default' } });
  assert.is(r.status, 204, r.text);
  assert.is(r.text, '');

  const xfer = await ctx.ev.waitFor((e) => e.type === 'BridgeBlindTransfer');
  assert.is(xfer.application, 'app1');
  assert.is(xfer.channel!.id, a);
  assert.is(xfer.transferee.id, b);
  assert.is(xfer.exten, '1000');
  assert.is(xfer.context, 'default');
  assert.is(xfer.result, 'Success');
  assert.is(xfer.is_external, true);
  assert.is(xfer.bridge.id, 'bx-br');
  assert.equal(xfer.bridge.channels, [a, b]);
  const local = xfer.replace_channel;
  assert.match(local.name, /^Local\/1000@default-[0-9a-f]{8};1$/);

  const start = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === local.id);
  assert.equal(start.args, []);
  assert.is(start.replace_channel.id, a);
  await ctx.ev.waitFor((e) => e.type === 'ChannelEnteredBridge' && e.channel?.id === local.id);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === a);

  // In app1: the transfer, the Local channel's arrival, the swap, then the transferer's hangup.
  const seq = ctx.ev.events
    .filter((e) => ['BridgeBlindTransfer', 'StasisStart', 'ChannelLeftBridge', 'ChannelEnteredBridge', 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed'].includes(e.type))
    .filter((e) => e.type === 'BridgeBlindTransfer' || e.channel?.id === a || e.channel?.id === local.id)
    .filter((e) => ctx.ev.events.indexOf(e) >= ctx.ev.events.indexOf(xfer))
    .map((e) => `${e.type}:${e.channel?.id === a ? 'A' : e.channel?.id === local.id ? 'L' : '-'}`);
  assert.equal(seq, [
    'BridgeBlindTransfer:A', 'StasisStart:L', 'ChannelLeftBridge:A', 'ChannelEnteredBridge:L',
    'ChannelHangupRequest:A', 'StasisEnd:A', 'ChannelDestroyed:A',
  ]);
  const hangup = ctx.ev.events.find((e) => e.type === 'ChannelHangupRequest' && e.channel?.id === a)!;
  assert.is(hangup.cause, 16);
  const entered = ctx.ev.events.find((e) => e.type === 'ChannelEnteredBridge' && e.channel?.id === local.id)!;
  assert.equal(entered.bridge.channels, [b, local.id]);

  // The other half runs the target: 1000 answers and enters trunkline with its extension; the Local channel is then Up, without Dial events.
  const two = await ctx.tl.waitFor((e) => e.type === 'StasisStart' && e.channel?.name === local.name.replace(/;1$/, ';2'));
  assert.equal(two.args, ['1000']);
  await ctx.ev.waitFor((e) => e.type === 'ChannelStateChange' && e.channel?.id === local.id && e.channel!.state === 'Up');
  assert.not.ok(ctx.ev.events.some((e) => e.type === 'Dial' && e.peer?.id === local.id));
  assert.equal((await ctx.t.http('GET', '/ari/bridges/bx-br')).body.channels, [b, local.id]);
  // The watcher sees the Local pair being created.
  await ctx.all.waitFor((e) => e.type === 'ChannelCreated' && e.channel?.id === local.id);

  await ctx.t.http('DELETE', '/ari/bridges/bx-br');
  for (const id of [b, local.id]) await hangupAndWait(ctx.t, ctx.all, id);
});

test('blind transfer of a channel in no bridge: BridgeBlindTransfer result Invalid, nothing moves', async () => {
  const a = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bx-alone' })).id;
  const r = await ctx.t.http('POST', `/sim/channels/${a}/transfer`, { query: { exten: '1000' } });
  assert.is(r.status, 204, r.text);
  const xfer = await ctx.ev.waitFor((e) => e.type === 'BridgeBlindTransfer' && e.channel?.id === a);
  assert.is(xfer.result, 'Invalid');
  assert.is(xfer.is_external, true);
  assert.is(xfer.context, 'default', 'the endpoint\'s context');
  for (const k of ['bridge', 'transferee', 'replace_channel']) assert.not.ok(k in xfer, k);
  assert.is((await ctx.t.http('GET', `/ari/channels/${a}`)).status, 200, 'the transferer stays');
  await hangupAndWait(ctx.t, ctx.ev, a);
});

test('TRANSFER_CONTEXT picks the context; errors: no extension 400, unknown extension 400, not answered 409, unknown channel 404', async () => {
  const a = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bx-ctx' })).id;
  assert.is((await ctx.t.http('POST', `/ari/channels/${a}/variable`, { query: { variable: 'TRANSFER_CONTEXT', value: 'from-trunk' } })).status, 204);
  assert.is((await ctx.t.http('POST', `/sim/channels/${a}/transfer`, { query: { exten: 's' } })).status, 204);
  const xfer = await ctx.ev.waitFor((e) => e.type === 'BridgeBlindTransfer' && e.channel?.id === a);
  assert.is(xfer.context, 'from-trunk');

  const none = await ctx.t.http('POST', `/sim/channels/${a}/transfer`);
  assert.is(none.status, 400);
  const bad = await ctx.t.http('POST', `/sim/channels/${a}/transfer`, { query: { exten: 'nowhere', context: 'default' } });
  assert.is(bad.status, 400);
  assert.equal(bad.body, { message: "No such extension 'nowhere' in context 'default'" });
  const down = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bx-down' });
  const notUp = await ctx.t.http('POST', `/sim/channels/${down.id}/transfer`, { query: { exten: '1000' } });
  assert.is(notUp.status, 409);
  const missing = await ctx.t.http('POST', '/sim/channels/bx-nope/transfer', { query: { exten: '1000' } });
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Channel not found' });
  assert.is(ctx.ev.events.filter((e) => e.type === 'BridgeBlindTransfer' && (e.channel?.id === a || e.channel?.id === down.id)).length, 1);
  for (const id of [a, down.id]) await hangupAndWait(ctx.t, ctx.all, id);
});

test.run();
