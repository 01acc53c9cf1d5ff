import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp, createInApp, eventLabel, hangupAndWait } from '../_helpers/ari.js';
import type { AriEvent } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

// Connected line: when a mixing bridge holds exactly two channels, each one's connected line
// becomes the other's caller ID (the newer member is told first); a change raises
// ChannelConnectedLine to that channel's subscribers, an update that changes nothing raises
// nothing. ARI's dial copies the caller's ID into the callee's connected line without an event.
const test = suite('connected-line');
const APP = 'colp-app';
const ctx = useServer(test, { events: { ev: APP } });

const enc = encodeURIComponent;
/** Originates into the app with a caller ID; returns once it is in the app. */
async function originate(id: string, callerId: string): Promise<void> {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: APP, channelId: id, callerId } });
  assert.is(r.status, 200, r.text);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
}
async function bridge(id: string, type = 'mixing'): Promise<void> {
  const r = await ctx.t.http('POST', '/ari/bridges', { query: { bridgeId: id, type } });
  assert.is(r.status, 200, r.text);
}
async function add(bridgeId: string, channel: string): Promise<void> {
  assert.is((await ctx.t.http('POST', `/ari/bridges/${enc(bridgeId)}/addChannel`, { query: { channel } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelEnteredBridge' && e.channel?.id === channel && e.bridge?.id === bridgeId);
}
async function remove(bridgeId: string, channel: string): Promise<void> {
  assert.is((await ctx.t.http('POST', `/ari/bridges/${enc(bridgeId)}/removeChannel`, { query: { channel } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelLeftBridge' && e.channel?.id === channel && e.bridge?.id === bridgeId);
}
/** Bridge and connected-line events from `from` on, labelled `<type>:<channel>` (with the connected line for ChannelConnectedLine). */
const since = (from: number) => ctx.ev.events.slice(from)
  .filter((e) => ['ChannelEnteredBridge', 'ChannelLeftBridge', 'ChannelConnectedLine'].includes(e.type))
  .map((e: AriEvent) => e.type === 'ChannelConnectedLine'
    ? `COLP:${e.channel!.id}=${e.channel!.connected.name}<${e.channel!.connected.number}>`
    : `${e.type === 'ChannelEnteredBridge' ? 'Enter' : 'Left'}:${e.channel!.id}`);
/** A marker event after everything before it: the app's own user event, which comes through the same socket in order. */
async function settle(): Promise<void> {
  const name = `mark-${ctx.ev.events.length}`;
  assert.is((await ctx.t.http('POST', `/ari/events/user/${name}`, { query: { application: APP } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelUserevent' && e.eventname === name);
}

test('two channels in a mixing bridge: the newer member learns the older one\'s caller ID, then the older one the newer one\'s', async () => {
  await callInApp(ctx.t, ctx.ev, { id: 'in-alice', app: APP });
  await originate('out-desk', '"Desk" <2000>');
  await bridge('colp-1');
  const from = ctx.ev.events.length;
  await add('colp-1', 'in-alice');
  await add('colp-1', 'out-desk');
  await ctx.ev.waitForCount((e) => e.type === 'ChannelConnectedLine', 2);
  assert.equal(since(from), ['Enter:in-alice', 'Enter:out-desk', 'COLP:out-desk=Alice<1001>', 'COLP:in-alice=Desk<2000>']);
  const colp = ctx.ev.events.find((e) => e.type === 'ChannelConnectedLine')!;
  assert.equal(Object.keys(colp).sort(), ['application', 'asterisk_id', 'channel', 'timestamp', 'type']);
  assert.equal(colp.channel!.caller, { name: 'Desk', number: '2000' });
  assert.equal((await ctx.t.http('GET', '/ari/channels/in-alice')).body.connected, { name: 'Desk', number: '2000' });
  assert.equal((await ctx.t.http('GET', '/ari/channels/out-desk')).body.connected, { name: 'Alice', number: '1001' });
});

test('the same pair again: nothing changes, no ChannelConnectedLine', async () => {
  const from = ctx.ev.events.length;
  await remove('colp-1', 'out-desk');
  await add('colp-1', 'out-desk');
  await settle();
  assert.equal(since(from), ['Left:out-desk', 'Enter:out-desk']);
});

test('three members: no update; back to two (one leaves): the two remaining exchange', async () => {
  await originate('out-third', '"Third" <3000>');
  const from = ctx.ev.events.length;
  await add('colp-1', 'out-third');
  await settle();
  assert.equal(since(from), ['Enter:out-third']);
  await remove('colp-1', 'in-alice');
  await ctx.ev.waitForCount((e) => e.type === 'ChannelConnectedLine' && e.channel?.id === 'out-third', 1);
  await settle();
  // out-desk was first in the bridge, out-third is the newer member.
  assert.equal(since(from), ['Enter:out-third', 'Left:in-alice', 'COLP:out-third=Desk<2000>', 'COLP:out-desk=Third<3000>']);
});

test('a holding bridge and a destroyed bridge update nobody', async () => {
  await bridge('colp-hold', 'holding');
  const from = ctx.ev.events.length;
  await add('colp-hold', 'in-alice');
  await add('colp-hold', 'out-third');
  await settle();
  // out-third leaves colp-1 for it, which leaves out-desk alone there: no update either.
  assert.equal(since(from), ['Enter:in-alice', 'Left:out-third', 'Enter:out-third']);
  // Three members in colp-1 again; destroying it tears it down without updates.
  await add('colp-1', 'in-alice');
  await add('colp-1', 'out-third');
  const before = ctx.ev.events.length;
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/colp-1')).status, 204);
  await settle();
  assert.equal(since(before), ['Left:out-desk', 'Left:in-alice', 'Left:out-third']);
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/colp-hold')).status, 204);
});

test('dial with a caller: the callee\'s connected line is the caller\'s ID, with no ChannelConnectedLine', async () => {
  const { id } = await createInApp(ctx.t, ctx.ev, { app: APP, id: 'colp-callee', endpoint: 'PJSIP/instant' });
  const before = ctx.ev.of(id).length;
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/dial`, { query: { caller: 'out-desk' } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === id && e.dialstatus === 'ANSWER');
  await settle();
  assert.equal(ctx.ev.of(id).slice(before).map(eventLabel), ['Dial:', 'State:Up', 'Dial:ANSWER']);
  assert.equal((await ctx.t.http('GET', `/ari/channels/${id}`)).body.connected, { name: 'Desk', number: '2000' });
  for (const ch of [id, 'out-desk', 'out-third']) await hangupAndWait(ctx.t, ctx.ev, ch);
  // A dialplan channel leaves the app at its hangup: StasisEnd is the last the app hears of it.
  assert.is((await ctx.t.http('DELETE', '/ari/channels/in-alice')).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === 'in-alice');
});

test.run();
