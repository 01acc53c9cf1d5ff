import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInApp, hangupAndWait, originateInApp } from '../_helpers/ari.js';
import type { AriEvent } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('bridge video source');
const ctx = useServer(test, { events: { ev: 'app1', all: { apps: 'watcher', subscribeAll: true } } });
const enc = encodeURIComponent;

async function bridge(id: string, type?: string): Promise<any> {
  const r = await ctx.t.http('POST', '/ari/bridges', { query: { bridgeId: id, ...(type ? { type } : {}) } });
  assert.is(r.status, 200, r.text);
  return r.body;
}

async function add(bridgeId: string, channel: string): Promise<void> {
  const r = await ctx.t.http('POST', `/ari/bridges/${enc(bridgeId)}/addChannel`, { query: { channel } });
  assert.is(r.status, 204, r.text);
  await ctx.ev.waitFor((e) => e.type === 'ChannelEnteredBridge' && e.bridge?.id === bridgeId && e.channel?.id === channel);
}

const videoEvents = (bridgeId: string): AriEvent[] => ctx.ev.events.filter((e) => e.type === 'BridgeVideoSourceChanged' && e.bridge?.id === bridgeId);

test('a new bridge reports video_mode talker and no video_source_id; video_single and video_sfu set the mode', async () => {
  const plain = await bridge('bv-plain');
  assert.is(plain.video_mode, 'talker');
  assert.not.ok('video_source_id' in plain);
  const single = await bridge('bv-single', 'mixing,video_single');
  assert.is(single.video_mode, 'single');
  assert.is(single.technology, 'simple_bridge');
  const sfu = await bridge('bv-sfu', 'mixing,video_sfu');
  assert.is(sfu.video_mode, 'sfu');
  assert.is(sfu.technology, 'softmix', 'an SFU bridge always mixes with softmix');
  const hold = await bridge('bv-hold', 'holding');
  assert.is(hold.video_mode, 'talker');
  for (const id of ['bv-plain', 'bv-single', 'bv-sfu', 'bv-hold']) assert.is((await ctx.t.http('DELETE', `/ari/bridges/${id}`)).status, 204);
});

test('POST videoSource: 204, BridgeVideoSourceChanged (single, video_source_id), GET shows it; a second member replaces it with old_video_source_id; same source again sends nothing', async () => {
  await bridge('bv-set');
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bv-set-a' });
  const b = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bv-set-b' });
  await add('bv-set', a.id);
  await add('bv-set', b.id);

  const r = await ctx.t.http('POST', `/ari/bridges/bv-set/videoSource/${a.id}`);
  assert.is(r.status, 204);
  assert.is(r.text, '');
  const first = await ctx.ev.waitFor((e) => e.type === 'BridgeVideoSourceChanged' && e.bridge?.id === 'bv-set');
  assert.is(first.application, 'app1');
  assert.is(first.bridge.video_mode, 'single');
  assert.is(first.bridge.video_source_id, a.id);
  assert.not.ok('old_video_source_id' in first);
  const got = await ctx.t.http('GET', '/ari/bridges/bv-set');
  assert.is(got.body.video_mode, 'single');
  assert.is(got.body.video_source_id, a.id);

  assert.is((await ctx.t.http('POST', `/ari/bridges/bv-set/videoSource/${b.id}`)).status, 204);
  const second = (await ctx.ev.waitForCount((e) => e.type === 'BridgeVideoSourceChanged' && e.bridge?.id === 'bv-set', 2))[1]!;
  assert.is(second.bridge.video_source_id, b.id);
  assert.is(second.old_video_source_id, a.id);

  // The same source again changes nothing: no event (a later one proves the order).
  assert.is((await ctx.t.http('POST', `/ari/bridges/bv-set/videoSource/${b.id}`)).status, 204);
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/bv-set/videoSource')).status, 204);
  const cleared = (await ctx.ev.waitForCount((e) => e.type === 'BridgeVideoSourceChanged' && e.bridge?.id === 'bv-set', 3))[2]!;
  assert.is(cleared.bridge.video_mode, 'talker');
  assert.not.ok('video_source_id' in cleared.bridge);
  assert.is(cleared.old_video_source_id, b.id);
  assert.is(videoEvents('bv-set').length, 3);

  // Clearing when there is no source: 204, mode talker, no event.
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/bv-set/videoSource')).status, 204);
  assert.is((await ctx.t.http('GET', '/ari/bridges/bv-set')).body.video_mode, 'talker');
  await ctx.t.http('DELETE', '/ari/bridges/bv-set');
  await ctx.all.waitFor((e) => e.type === 'BridgeDestroyed' && e.bridge?.id === 'bv-set');
  await ctx.ev.waitFor((e) => e.type === 'ChannelLeftBridge' && e.bridge?.id === 'bv-set' && e.channel?.id === b.id);
  assert.is(videoEvents('bv-set').length, 3);
  for (const id of [a.id, b.id]) await hangupAndWait(ctx.t, ctx.ev, id);
});

test('the source leaving the bridge clears it: BridgeVideoSourceChanged (old_video_source_id) then ChannelLeftBridge', async () => {
  await bridge('bv-leave', 'video_sfu,mixing');
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bv-leave-a' });
  await add('bv-leave', a.id);
  assert.is((await ctx.t.http('POST', `/ari/bridges/bv-leave/videoSource/${a.id}`)).status, 204);
  const set = await ctx.ev.waitFor((e) => e.type === 'BridgeVideoSourceChanged' && e.bridge?.id === 'bv-leave');
  assert.is(set.bridge.video_mode, 'single', 'choosing a source switches an SFU bridge to single');
  assert.is((await ctx.t.http('POST', '/ari/bridges/bv-leave/removeChannel', { query: { channel: a.id } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelLeftBridge' && e.bridge?.id === 'bv-leave');
  const seq = ctx.ev.events.filter((e) => e.bridge?.id === 'bv-leave' && ['BridgeVideoSourceChanged', 'ChannelLeftBridge'].includes(e.type));
  assert.equal(seq.map((e) => e.type), ['BridgeVideoSourceChanged', 'BridgeVideoSourceChanged', 'ChannelLeftBridge']);
  assert.is(seq[1]!.old_video_source_id, a.id);
  assert.not.ok('video_source_id' in seq[1]!.bridge);
  assert.equal(seq[1]!.bridge.channels, []);
  assert.not.ok('video_source_id' in seq[2]!.bridge);
  // The watcher (subscribeAll) hears of it as well.
  await ctx.all.waitFor((e) => e.type === 'BridgeVideoSourceChanged' && e.bridge?.id === 'bv-leave' && e.old_video_source_id === a.id);
  await ctx.t.http('DELETE', '/ari/bridges/bv-leave');
  await hangupAndWait(ctx.t, ctx.ev, a.id);
});

test('videoSource errors: unknown bridge 404, unknown channel 400, channel outside Stasis 422, channel in another bridge 422; clear on unknown bridge 404', async () => {
  await bridge('bv-err');
  await bridge('bv-err-other');
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bv-err-a' });
  const c = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bv-err-c' });
  await add('bv-err-other', a.id);

  const nb = await ctx.t.http('POST', `/ari/bridges/bv-nope/videoSource/${a.id}`);
  assert.is(nb.status, 404);
  assert.equal(nb.body, { message: 'Bridge not found' });
  const nc = await ctx.t.http('POST', '/ari/bridges/bv-err/videoSource/bv-no-such-channel');
  assert.is(nc.status, 400);
  assert.equal(nc.body, { message: 'Channel not found' });
  const notHere = await ctx.t.http('POST', `/ari/bridges/bv-err/videoSource/${a.id}`);
  assert.is(notHere.status, 422);
  assert.equal(notHere.body, { message: 'Channel not in this bridge' });
  const notMember = await ctx.t.http('POST', `/ari/bridges/bv-err/videoSource/${c.id}`);
  assert.is(notMember.status, 422);
  assert.equal(notMember.body, { message: 'Channel not in this bridge' });

  // A channel that left its application: 422 Channel not in Stasis application.
  const d = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bv-err-d' });
  assert.is((await ctx.t.http('POST', `/ari/channels/${d.id}/continue`, { query: { context: 'default', extension: 'after-stasis' } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === d.id);
  const outside = await ctx.t.http('POST', `/ari/bridges/bv-err/videoSource/${d.id}`);
  assert.is(outside.status, 422);
  assert.equal(outside.body, { message: 'Channel not in Stasis application' });

  const clear = await ctx.t.http('DELETE', '/ari/bridges/bv-nope/videoSource');
  assert.is(clear.status, 404);
  assert.equal(clear.body, { message: 'Bridge not found' });
  assert.is(videoEvents('bv-err').length + videoEvents('bv-err-other').length, 0);
  for (const id of ['bv-err', 'bv-err-other']) await ctx.t.http('DELETE', `/ari/bridges/${id}`);
  await hangupAndWait(ctx.t, ctx.ev, a.id);
  for (const id of [c.id, d.id]) await hangupAndWait(ctx.t, ctx.all, id);
});

test('GET /bridges lists the video source of each bridge', async () => {
  await bridge('bv-list');
  const a = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bv-list-a' });
  await add('bv-list', a.id);
  assert.is((await ctx.t.http('POST', `/ari/bridges/bv-list/videoSource/${a.id}`)).status, 204);
  const list = await ctx.t.http('GET', '/ari/bridges');
  const mine = list.body.find((x: any) => x.id === 'bv-list');
  assert.is(mine.video_source_id, a.id);
  assert.is(mine.video_mode, 'single');
  await ctx.t.http('DELETE', '/ari/bridges/bv-list');
  await hangupAndWait(ctx.t, ctx.ev, a.id);
});

test.run();
