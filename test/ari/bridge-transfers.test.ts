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
  // Before the event, each bridge member learns who transferred (the transferer: who it was bridged to).
  const varsets = ctx.ev.events.filter((e) => e.type === 'ChannelVarset' && e.variable === 'BLINDTRANSFER');
  assert.equal(varsets.map((e) => [e.channel!.id, e.value]), [[a, xfer.transferee.name], [b, xfer.channel!.name]]);
  assert.ok(ctx.ev.events.indexOf(varsets[1]!) < ctx.ev.events.indexOf(xfer));

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

test('blind transfer of a channel alone in its bridge: result Invalid with the bridge, nothing moves', async () => {
  const a = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bx-lonely' })).id;
  await bridged('bx-lonely-br', [a]);
  assert.is((await ctx.t.http('POST', `/sim/channels/${a}/transfer`, { query: { exten: '1000' } })).status, 204);
  const xfer = await ctx.ev.waitFor((e) => e.type === 'BridgeBlindTransfer' && e.channel?.id === a);
  assert.is(xfer.result, 'Invalid');
  assert.equal(xfer.bridge.channels, [a]);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/bx-lonely-br')).body.channels, [a]);
  await ctx.t.http('DELETE', '/ari/bridges/bx-lonely-br');
  await hangupAndWait(ctx.t, ctx.ev, a);
});

test('far-end attended transfer between two bridges: a Local pair links them (destination_type link), each half enters the app with replace_channel; both transferer calls hang up', async () => {
  const a1 = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ax-a1' })).id;
  const x = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ax-x' })).id;
  const a2 = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ax-a2' })).id;
  const y = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ax-y' })).id;
  await bridged('ax-br1', [a1, x]);
  await bridged('ax-br2', [a2, y]);
  const r = await ctx.t.http('POST', `/sim/channels/${a1}/attendedTransfer`, { query: { target: a2 } });
  assert.is(r.status, 204, r.text);
  const xfer = await ctx.ev.waitFor((e) => e.type === 'BridgeAttendedTransfer');
  assert.is(xfer.application, 'app1');
  assert.is(xfer.result, 'Success');
  assert.is(xfer.is_external, true);
  assert.is(xfer.destination_type, 'link');
  assert.is(xfer.transferer_first_leg.id, a1);
  assert.is(xfer.transferer_second_leg.id, a2);
  assert.is(xfer.transferee.id, x);
  assert.is(xfer.transfer_target.id, y);
  assert.equal(xfer.transferer_first_leg_bridge.channels, [a1, x]);
  assert.equal(xfer.transferer_second_leg_bridge.channels, [a2, y]);
  const l1 = xfer.destination_link_first_leg;
  const l2 = xfer.destination_link_second_leg;
  assert.match(l1.name, /^Local\/_attended@transfer-[0-9a-f]{8};1$/);
  assert.is(l2.name, l1.name.replace(/;1$/, ';2'));
  for (const k of ['destination_bridge', 'destination_application', 'replace_channel']) assert.not.ok(k in xfer, k);

  const s1 = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === l1.id);
  assert.is(s1.replace_channel.id, a1);
  const s2 = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === l2.id);
  assert.is(s2.replace_channel.id, a2);
  for (const id of [a1, a2]) await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/ax-br1')).body.channels, [x, l1.id]);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/ax-br2')).body.channels, [y, l2.id]);
  // Each bridge: the transferer leaves, its Local half enters.
  for (const [br, gone, came] of [['ax-br1', a1, l1.id], ['ax-br2', a2, l2.id]] as const) {
    const seq = ctx.ev.events.filter((e) => e.bridge?.id === br && (e.channel?.id === gone || e.channel?.id === came) && e.type.startsWith('Channel'));
    assert.equal(seq.map((e) => `${e.type}:${e.channel!.id === gone ? 'T' : 'L'}`), ['ChannelEnteredBridge:T', 'ChannelLeftBridge:T', 'ChannelEnteredBridge:L']);
  }
  const atx = ctx.ev.events.filter((e) => e.type === 'ChannelVarset' && e.variable === 'ATTENDEDTRANSFER').map((e) => [e.channel!.id, e.value]);
  assert.equal(atx, [[a1, xfer.transferee.name], [x, xfer.transferer_first_leg.name]], 'the Local channel\'s own ATTENDEDTRANSFER is set before it is in the app');
  // Both Local halves are up: x and y now hear each other through them.
  assert.is((await ctx.t.http('GET', `/ari/channels/${l1.id}`)).body.state, 'Up');
  await ctx.t.http('DELETE', '/ari/bridges/ax-br1');
  await ctx.t.http('DELETE', '/ari/bridges/ax-br2');
  for (const id of [x, y, l1.id]) await hangupAndWait(ctx.t, ctx.all, id);
});

test('attended transfer of two unbridged calls: result Invalid, destination_type fail; a bridged call alone in its bridge and an unbridged one: Invalid with the bridge; same call twice 400', async () => {
  const a1 = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ax-u1' })).id;
  const a2 = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ax-u2' })).id;
  assert.is((await ctx.t.http('POST', `/sim/channels/${a1}/attendedTransfer`, { query: { target: a2 } })).status, 204);
  const xfer = await ctx.ev.waitFor((e) => e.type === 'BridgeAttendedTransfer' && e.transferer_first_leg?.id === a1);
  assert.is(xfer.result, 'Invalid');
  assert.is(xfer.destination_type, 'fail');
  for (const k of ['transferee', 'transfer_target', 'transferer_first_leg_bridge', 'transferer_second_leg_bridge']) assert.not.ok(k in xfer, k);
  await bridged('ax-half', [a1]);
  const half = await ctx.t.http('POST', `/sim/channels/${a1}/attendedTransfer`, { query: { target: a2 } });
  assert.is(half.status, 204);
  const lonely = await ctx.ev.waitFor((e) => e.type === 'BridgeAttendedTransfer' && e.transferer_first_leg?.id === a1 && e !== xfer);
  assert.is(lonely.result, 'Invalid');
  assert.is(lonely.destination_type, 'fail');
  assert.equal(lonely.transferer_first_leg_bridge.channels, [a1]);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/ax-half')).body.channels, [a1], 'nothing moved');
  const same = await ctx.t.http('POST', `/sim/channels/${a1}/attendedTransfer`, { query: { target: a1 } });
  assert.is(same.status, 400);
  const none = await ctx.t.http('POST', `/sim/channels/${a1}/attendedTransfer`, { query: { target: 'ax-nope' } });
  assert.is(none.status, 404);
  await ctx.t.http('DELETE', '/ari/bridges/ax-half');
  for (const id of [a1, a2]) await hangupAndWait(ctx.t, ctx.ev, id);
});

test('attended transfer, first call bridged, second in an application and unbridged: a Local pair, its second half takes the second call\'s place in the app, its first the first call\'s in the bridge; destination_type application', async () => {
  const a1 = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'aa-a1' })).id;
  const x = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'aa-x' })).id;
  const a2 = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'aa-a2' })).id;
  await bridged('aa-br', [a1, x]);
  assert.is((await ctx.t.http('POST', `/sim/channels/${a1}/attendedTransfer`, { query: { target: a2 } })).status, 204);
  const xfer = await ctx.ev.waitFor((e) => e.type === 'BridgeAttendedTransfer' && e.transferer_first_leg?.id === a1);
  assert.is(xfer.result, 'Success');
  assert.is(xfer.is_external, true);
  assert.is(xfer.destination_type, 'application');
  assert.is(xfer.destination_application, 'Stasis');
  assert.is(xfer.transferer_second_leg.id, a2);
  assert.is(xfer.transferee.id, x);
  assert.equal(xfer.transferer_first_leg_bridge.channels, [a1, x]);
  const l1 = xfer.replace_channel;
  assert.match(l1.name, /^Local\/_attended@transfer-[0-9a-f]{8};1$/);
  for (const k of ['transfer_target', 'transferer_second_leg_bridge', 'destination_link_first_leg', 'destination_link_second_leg', 'destination_bridge']) assert.not.ok(k in xfer, k);
  const l2name = l1.name.replace(/;1$/, ';2');
  // The second half is in the app first (in the unbridged call's place), then the first half takes the bridge seat.
  const s2 = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.name === l2name);
  assert.is(s2.replace_channel.id, a2);
  assert.equal(s2.args, []);
  const s1 = await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === l1.id);
  assert.is(s1.replace_channel.id, a1);
  const order = ctx.ev.events.filter((e) => e === s2 || e === s1 || e === xfer);
  assert.equal(order, [s2, s1, xfer]);
  for (const id of [a1, a2]) await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/aa-br')).body.channels, [x, l1.id]);
  const two = (await ctx.t.http('GET', `/ari/channels/${encodeURIComponent(s2.channel!.id)}`)).body;
  assert.is(two.state, 'Up');
  assert.equal(two.dialplan.app_name, 'Stasis');
  await ctx.t.http('DELETE', '/ari/bridges/aa-br');
  for (const id of [x, l1.id]) await hangupAndWait(ctx.t, ctx.all, id);
});

test('attended transfer, first call running the dialplan and unbridged, second bridged: the Local half goes on with the first call\'s dialplan application', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', extension: '3000', context: 'default', channelId: 'ad-a1' } });
  assert.is(r.status, 200, r.text);
  await ctx.all.waitFor((e) => e.type === 'ChannelDialplan' && e.channel?.id === 'ad-a1' && e.dialplan_app === 'Echo');
  const a2 = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ad-a2' })).id;
  const y = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'ad-y' })).id;
  await bridged('ad-br', [a2, y]);
  assert.is((await ctx.t.http('POST', '/sim/channels/ad-a1/attendedTransfer', { query: { target: a2 } })).status, 204);
  const xfer = await ctx.all.waitFor((e) => e.type === 'BridgeAttendedTransfer' && e.transferer_first_leg?.id === 'ad-a1');
  assert.is(xfer.result, 'Success');
  assert.is(xfer.destination_type, 'application');
  assert.is(xfer.destination_application, 'Echo');
  assert.is(xfer.transfer_target.id, y);
  assert.not.ok('transferee' in xfer);
  assert.equal(xfer.transferer_second_leg_bridge.channels, [a2, y]);
  const l1 = xfer.replace_channel;
  const l2name = l1.name.replace(/;1$/, ';2');
  const echo = await ctx.all.waitFor((e) => e.type === 'ChannelDialplan' && e.channel?.name === l2name);
  assert.is(echo.dialplan_app, 'Echo');
  assert.equal(echo.channel!.dialplan, { context: 'default', exten: '3000', priority: 2, app_name: 'Echo', app_data: '' });
  for (const id of ['ad-a1', a2]) await ctx.all.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/ad-br')).body.channels, [y, l1.id]);
  await ctx.t.http('DELETE', '/ari/bridges/ad-br');
  for (const id of [y, l1.id]) await hangupAndWait(ctx.t, ctx.all, id);
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
