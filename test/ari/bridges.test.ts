import { downloadWav, farTone, localPair } from '../_helpers/audio.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FRAME_SAMPLES, tonePower } from '../../server/ari/media/pcm.js';
import { createInApp, eventSequence, hangupAndWait, originateInApp } from '../_helpers/ari.js';
import type { EventLog } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('bridges');
// app1 and app2 are our apps; the Local ;2 halves run the bundled dialplan into 'trunkline'; 'watcher' sees everything.
const ctx = useServer(test, { events: { ev: 'app1', ev2: 'app2', tl: 'trunkline', all: { apps: 'watcher', subscribeAll: true } } });

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/;
const enc = encodeURIComponent;

/** Everything the server sent to `log` (app `app`) and to the watcher before this returns has arrived: a fresh channel's last event comes after anything queued earlier. */
let barriers = 0;
async function barrier(log: EventLog = ctx.ev, app = 'app1'): Promise<void> {
  const id = `br-barrier-${++barriers}`;
  await createInApp(ctx.t, log, { app, id });
  await ctx.t.http('DELETE', `/ari/channels/${id}`);
  for (const l of [log, ctx.all]) await l.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
}

const bridgeEvent = (log: EventLog, type: string, bridgeId: string, channelId?: string) =>
  log.waitFor((e) => e.type === type && e.bridge?.id === bridgeId && (channelId === undefined || e.channel?.id === channelId));

async function createBridge(query: Record<string, string>): Promise<any> {
  const r = await ctx.t.http('POST', '/ari/bridges', { query });
  assert.is(r.status, 200, r.text);
  return r.body;
}

async function add(bridgeId: string, channel: string): Promise<void> {
  const r = await ctx.t.http('POST', `/ari/bridges/${enc(bridgeId)}/addChannel`, { query: { channel } });
  assert.is(r.status, 204, r.text);
}

/** An answered PJSIP channel in app1 whose far end speaks a steady tone (or nothing). */
async function speaker(id: string, freq?: number): Promise<string> {
  await originateInApp(ctx.t, ctx.ev, { app: 'app1', id });
  if (freq !== undefined) {
    await farTone(ctx.t, id, freq);
  }
  return id;
}

let recordings = 0;
/** Records a channel's inbound for `seconds` (wav), waits on `log` for RecordingFinished, returns the samples. */
async function recordChannel(id: string, log: EventLog, seconds = 1): Promise<Int16Array> {
  const name = `br-rec-${++recordings}`;
  const r = await ctx.t.http('POST', `/ari/channels/${enc(id)}/record`, { query: { name, format: 'wav', maxDurationSeconds: seconds } });
  assert.is(r.status, 201, r.text);
  const done = await log.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === name);
  assert.is(done.recording.state, 'done');
  const samples = await downloadWav(ctx.t, name);
  assert.ok(samples.length >= seconds * 8000 - FRAME_SAMPLES, `recorded ${samples.length} samples`);
  return samples;
}

/** Fraction of the 20 ms frames in which `freq` is clearly present (power above 0.01 of full scale; a tone at our level is about 0.06). */
function presence(samples: Int16Array, freq: number): number {
  let hits = 0;
  let frames = 0;
  for (let i = 0; i + FRAME_SAMPLES <= samples.length; i += FRAME_SAMPLES) {
    frames++;
    if (tonePower(samples.subarray(i, i + FRAME_SAMPLES), freq) > 0.01) hits++;
  }
  return frames ? hits / frames : 0;
}

const present = (samples: Int16Array, freq: number, atLeast = 0.8) => {
  const p = presence(samples, freq);
  assert.ok(p >= atLeast, `${freq} Hz in ${(p * 100).toFixed(0)}% of frames, expected at least ${atLeast * 100}%`);
};
const absent = (samples: Int16Array, freq: number) => {
  const p = presence(samples, freq);
  assert.is(p, 0, `${freq} Hz should be absent, found in ${(p * 100).toFixed(0)}% of frames`);
};

async function cleanup(bridges: string[], channels: string[]): Promise<void> {
  for (const b of bridges) await ctx.t.http('DELETE', `/ari/bridges/${enc(b)}`);
  for (const c of channels) await hangupAndWait(ctx.t, ctx.all, c);
}

// ---- create / get / list -------------------------------------------------------------------

test('POST /ari/bridges: default mixing, type=holding, name, bridgeId; createWithId; 200 Bridge model', async () => {
  const before = Date.now();
  const plain = await createBridge({});
  assert.match(plain.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.equal(Object.keys(plain), ['id', 'technology', 'bridge_type', 'bridge_class', 'creator', 'name', 'channels', 'video_mode', 'creationtime']);
  assert.is(plain.video_mode, 'talker');
  assert.is(plain.technology, 'simple_bridge');
  assert.is(plain.bridge_type, 'mixing');
  assert.is(plain.bridge_class, 'stasis');
  assert.is(plain.creator, 'Stasis');
  assert.is(plain.name, '');
  assert.equal(plain.channels, []);
  assert.match(plain.creationtime, TS);
  assert.ok(Date.parse(plain.creationtime.replace('+0000', 'Z')) >= before - 1000);

  const hold = await createBridge({ type: 'holding', name: 'Lobby', bridgeId: 'br-hold' });
  assert.is(hold.id, 'br-hold');
  assert.is(hold.bridge_type, 'holding');
  assert.is(hold.technology, 'holding_bridge');
  assert.is(hold.name, 'Lobby');
  assert.is(hold.bridge_class, 'stasis');
  assert.is(hold.creator, 'Stasis');

  const withId = await ctx.t.http('POST', '/ari/bridges/br-with-id', { query: { type: 'mixing', name: 'Conf' } });
  assert.is(withId.status, 200);
  assert.is(withId.body.id, 'br-with-id');
  assert.is(withId.body.bridge_type, 'mixing');
  assert.is(withId.body.name, 'Conf');
  assert.equal(withId.body.channels, []);

  // Duplicate ids, either way: 409 with Asterisk's text; the existing bridge is untouched.
  const dup1 = await ctx.t.http('POST', '/ari/bridges', { query: { bridgeId: 'br-hold', type: 'mixing' } });
  assert.is(dup1.status, 409);
  assert.equal(dup1.body, { message: "Bridge with id 'br-hold' already exists" });
  const dup2 = await ctx.t.http('POST', '/ari/bridges/br-with-id', { query: { name: 'Other' } });
  assert.is(dup2.status, 409);
  assert.equal(dup2.body, { message: "Bridge with id 'br-with-id' already exists" });
  const still = await ctx.t.http('GET', '/ari/bridges/br-hold');
  assert.is(still.body.bridge_type, 'holding');
  assert.is(still.body.name, 'Lobby');

  await cleanup([plain.id, 'br-hold', 'br-with-id'], []);
});

test('GET /ari/bridges lists bridges; GET one is the same model; unknown bridge 404 "Bridge not found"', async () => {
  const a = await createBridge({ bridgeId: 'br-list-a', name: 'A' });
  const b = await createBridge({ bridgeId: 'br-list-b', type: 'holding' });
  const list = await ctx.t.http('GET', '/ari/bridges');
  assert.is(list.status, 200);
  const mine = list.body.filter((x: { id: string }) => x.id.startsWith('br-list-'));
  assert.equal(mine.sort((x: any, y: any) => x.id.localeCompare(y.id)), [a, b]);
  const one = await ctx.t.http('GET', '/ari/bridges/br-list-a');
  assert.is(one.status, 200);
  assert.equal(one.body, a);
  const missing = await ctx.t.http('GET', '/ari/bridges/br-nope');
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Bridge not found' });
  await cleanup(['br-list-a', 'br-list-b'], []);
  assert.is((await ctx.t.http('GET', '/ari/bridges/br-list-a')).status, 404);
  const after = await ctx.t.http('GET', '/ari/bridges');
  assert.not.ok(after.body.some((x: { id: string }) => x.id.startsWith('br-list-')));
});

test('BridgeCreated reaches subscribeAll apps only (POST /bridges does not subscribe anyone)', async () => {
  const b = await createBridge({ bridgeId: 'br-created', name: 'Announce' });
  const e = await bridgeEvent(ctx.all, 'BridgeCreated', 'br-created');
  assert.is(e.application, 'watcher');
  assert.match(e.timestamp, TS);
  assert.equal(e.bridge, b);
  await barrier();
  await barrier(ctx.ev2, 'app2');
  assert.not.ok(ctx.ev.events.some((x) => x.type === 'BridgeCreated' && x.bridge?.id === 'br-created'), 'app1 is not subscribed');
  assert.not.ok(ctx.ev2.events.some((x) => x.type === 'BridgeCreated' && x.bridge?.id === 'br-created'), 'app2 is not subscribed');
  await cleanup(['br-created'], []);
});

// ---- addChannel / removeChannel -------------------------------------------------------------

test('addChannel: 204, ChannelEnteredBridge to the channel\'s app, bridge.channels lists it, the app is subscribed; removeChannel: 204, ChannelLeftBridge, unsubscribed', async () => {
  await createBridge({ bridgeId: 'br-add' });
  const a = await speaker('br-add-a');
  const b = await speaker('br-add-b');
  const r = await ctx.t.http('POST', '/ari/bridges/br-add/addChannel', { query: { channel: `${a},${b}` } });
  assert.is(r.status, 204);
  assert.is(r.text, '');
  const entered = await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-add', a);
  assert.is(entered.application, 'app1');
  assert.is(entered.channel!.state, 'Up');
  assert.ok(entered.bridge.channels.includes(a));
  await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-add', b);
  const got = await ctx.t.http('GET', '/ari/bridges/br-add');
  assert.equal([...got.body.channels].sort(), [a, b].sort());
  // The app is subscribed to the bridge while its channels are in it.
  const app = await ctx.t.http('GET', '/ari/applications/app1');
  assert.ok(app.body.bridge_ids.includes('br-add'), JSON.stringify(app.body));
  assert.not.ok((await ctx.t.http('GET', '/ari/applications/app2')).body.bridge_ids.includes('br-add'));

  const rm = await ctx.t.http('POST', '/ari/bridges/br-add/removeChannel', { query: { channel: a } });
  assert.is(rm.status, 204);
  assert.is(rm.text, '');
  const left = await bridgeEvent(ctx.ev, 'ChannelLeftBridge', 'br-add', a);
  assert.equal(left.bridge.channels, [b]);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/br-add')).body.channels, [b]);
  // Still in app1: removal from a bridge is not leaving Stasis.
  assert.not.ok(ctx.ev.of(a).some((e) => e.type === 'StasisEnd'));
  // The channel is no longer in this bridge.
  const again = await ctx.t.http('POST', '/ari/bridges/br-add/removeChannel', { query: { channel: a } });
  assert.is(again.status, 422);
  assert.equal(again.body, { message: 'Channel not in this bridge' });
  assert.ok((await ctx.t.http('GET', '/ari/applications/app1')).body.bridge_ids.includes('br-add'), 'b keeps app1 subscribed');
  assert.is((await ctx.t.http('POST', '/ari/bridges/br-add/removeChannel', { query: { channel: b } })).status, 204);
  await bridgeEvent(ctx.ev, 'ChannelLeftBridge', 'br-add', b);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/br-add')).body.channels, []);
  assert.not.ok((await ctx.t.http('GET', '/ari/applications/app1')).body.bridge_ids.includes('br-add'), 'unsubscribed once its channels left');
  await cleanup(['br-add'], [a, b]);
});

test('addChannel errors in Asterisk\'s order and texts: 404 bridge, 400 missing, 400 unknown channel, 422 not in Stasis, 409 recording', async () => {
  await createBridge({ bridgeId: 'br-err' });
  const a = await speaker('br-err-a');
  const b = await speaker('br-err-b');
  // A channel that is not in any application: an inbound call ringing in the dialplan.
  const call = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: 'ring', channelId: 'br-err-dp' } });
  assert.is(call.status, 200, call.text);

  // The bridge is checked first.
  const noBridge = await ctx.t.http('POST', '/ari/bridges/br-none/addChannel');
  assert.is(noBridge.status, 404);
  assert.equal(noBridge.body, { message: 'Bridge not found' });
  const noBridge2 = await ctx.t.http('POST', '/ari/bridges/br-none/addChannel', { query: { channel: 'nope' } });
  assert.is(noBridge2.status, 404);
  assert.equal(noBridge2.body, { message: 'Bridge not found' });
  // Then the channel parameter.
  const missing = await ctx.t.http('POST', '/ari/bridges/br-err/addChannel');
  assert.is(missing.status, 400);
  assert.equal(missing.body, { message: 'Missing parameter channel' });
  const empty = await ctx.t.http('POST', '/ari/bridges/br-err/addChannel', { query: { channel: '' } });
  assert.is(empty.status, 400);
  assert.equal(empty.body, { message: 'Missing parameter channel' });
  // Then each channel in turn: unknown 400, not in Stasis 422.
  const unknown = await ctx.t.http('POST', '/ari/bridges/br-err/addChannel', { query: { channel: 'br-err-nope' } });
  assert.is(unknown.status, 400);
  assert.equal(unknown.body, { message: 'Channel not found' });
  const notInApp = await ctx.t.http('POST', '/ari/bridges/br-err/addChannel', { query: { channel: 'br-err-dp' } });
  assert.is(notInApp.status, 422);
  assert.equal(notInApp.body, { message: 'Channel not in Stasis application' });
  const firstWins = await ctx.t.http('POST', '/ari/bridges/br-err/addChannel', { query: { channel: 'br-err-dp,br-err-nope' } });
  assert.is(firstWins.status, 422);
  assert.equal(firstWins.body, { message: 'Channel not in Stasis application' });
  const firstWins2 = await ctx.t.http('POST', '/ari/bridges/br-err/addChannel', { query: { channel: `br-err-nope,${a}` } });
  assert.is(firstWins2.status, 400);
  assert.equal(firstWins2.body, { message: 'Channel not found' });
  // Nothing was added by the failed requests.
  assert.equal((await ctx.t.http('GET', '/ari/bridges/br-err')).body.channels, []);

  // A recording channel cannot join; channels before it in the list are added.
  const rec = await ctx.t.http('POST', `/ari/channels/${a}/record`, { query: { name: 'br-err-rec', format: 'wav' } });
  assert.is(rec.status, 201, rec.text);
  const busy = await ctx.t.http('POST', '/ari/bridges/br-err/addChannel', { query: { channel: `${b},${a}` } });
  assert.is(busy.status, 409);
  assert.equal(busy.body, { message: `Channel ${a} currently recording` });
  assert.equal((await ctx.t.http('GET', '/ari/bridges/br-err')).body.channels, [b]);
  assert.is((await ctx.t.http('POST', '/ari/recordings/live/br-err-rec/stop')).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === 'br-err-rec');
  // Once the recording is over it may join.
  await add('br-err', a);
  await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-err', a);
  assert.equal([...(await ctx.t.http('GET', '/ari/bridges/br-err')).body.channels].sort(), [a, b].sort());

  // removeChannel checks the same way.
  const rmMissing = await ctx.t.http('POST', '/ari/bridges/br-err/removeChannel');
  assert.is(rmMissing.status, 400);
  assert.equal(rmMissing.body, { message: 'Missing parameter channel' });
  const rmUnknown = await ctx.t.http('POST', '/ari/bridges/br-err/removeChannel', { query: { channel: 'br-err-nope' } });
  assert.is(rmUnknown.status, 400);
  assert.equal(rmUnknown.body, { message: 'Channel not found' });
  const rmNotInApp = await ctx.t.http('POST', '/ari/bridges/br-err/removeChannel', { query: { channel: 'br-err-dp' } });
  assert.is(rmNotInApp.status, 422);
  assert.equal(rmNotInApp.body, { message: 'Channel not in Stasis application' });
  const rmNoBridge = await ctx.t.http('POST', '/ari/bridges/br-none/removeChannel', { query: { channel: a } });
  assert.is(rmNoBridge.status, 404);
  assert.equal(rmNoBridge.body, { message: 'Bridge not found' });
  await cleanup(['br-err'], [a, b, 'br-err-dp']);
});

test('addChannel to a second bridge moves the channel: ChannelLeftBridge from the first, then ChannelEnteredBridge', async () => {
  await createBridge({ bridgeId: 'br-move-1' });
  await createBridge({ bridgeId: 'br-move-2' });
  const a = await speaker('br-move-a');
  await add('br-move-1', a);
  await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-move-1', a);
  const mark = ctx.ev.of(a).length;
  await add('br-move-2', a);
  await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-move-2', a);
  const seq = ctx.ev.of(a).slice(mark).filter((e) => e.type.includes('Bridge'));
  assert.equal(seq.map((e) => `${e.type}:${e.bridge.id}`), ['ChannelLeftBridge:br-move-1', 'ChannelEnteredBridge:br-move-2']);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/br-move-1')).body.channels, []);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/br-move-2')).body.channels, [a]);
  const app = (await ctx.t.http('GET', '/ari/applications/app1')).body;
  assert.ok(app.bridge_ids.includes('br-move-2'));
  assert.not.ok(app.bridge_ids.includes('br-move-1'));
  await cleanup(['br-move-1', 'br-move-2'], [a]);
});

// ---- destroy, hangup, continue -------------------------------------------------------------

test('destroy: 204; every member gets ChannelLeftBridge and stays in its app (no StasisEnd); BridgeDestroyed to subscribeAll apps', async () => {
  await createBridge({ bridgeId: 'br-destroy' });
  const a = await speaker('br-destroy-a');
  const b = await speaker('br-destroy-b');
  await add('br-destroy', `${a},${b}`);
  await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-destroy', b);
  const d = await ctx.t.http('DELETE', '/ari/bridges/br-destroy');
  assert.is(d.status, 204);
  assert.is(d.text, '');
  for (const id of [a, b]) {
    const left = await bridgeEvent(ctx.ev, 'ChannelLeftBridge', 'br-destroy', id);
    assert.is(left.application, 'app1');
    assert.not.ok(left.bridge.channels.includes(id));
  }
  const destroyed = await bridgeEvent(ctx.all, 'BridgeDestroyed', 'br-destroy');
  assert.is(destroyed.application, 'watcher');
  assert.is(destroyed.bridge.id, 'br-destroy');
  // BridgeDestroyed comes after every ChannelLeftBridge.
  const watcherTypes = ctx.all.events.filter((e) => e.bridge?.id === 'br-destroy').map((e) => e.type);
  assert.equal(watcherTypes.slice(-3), ['ChannelLeftBridge', 'ChannelLeftBridge', 'BridgeDestroyed']);
  await barrier();
  for (const id of [a, b]) {
    assert.not.ok(ctx.ev.of(id).some((e) => e.type === 'StasisEnd'), `${id} stays in app1`);
    const ch = await ctx.t.http('GET', `/ari/channels/${id}`);
    assert.is(ch.body.dialplan.app_name, 'Stasis');
    // Still controllable.
    assert.is((await ctx.t.http('POST', `/ari/channels/${id}/answer`)).status, 204);
  }
  assert.is((await ctx.t.http('GET', '/ari/bridges/br-destroy')).status, 404);
  const again = await ctx.t.http('DELETE', '/ari/bridges/br-destroy');
  assert.is(again.status, 404);
  assert.equal(again.body, { message: 'Bridge not found' });
  assert.not.ok((await ctx.t.http('GET', '/ari/applications/app1')).body.bridge_ids.includes('br-destroy'));
  await cleanup([], [a, b]);
});

test('hangup of a member: ChannelHangupRequest, ChannelLeftBridge, StasisEnd, ChannelDestroyed; the bridge drops it', async () => {
  await createBridge({ bridgeId: 'br-hang' });
  const a = await speaker('br-hang-a');
  const b = await speaker('br-hang-b');
  await add('br-hang', `${a},${b}`);
  await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-hang', b);
  await hangupAndWait(ctx.t, ctx.ev, a);
  assert.equal(eventSequence(ctx.ev, a).slice(-4), ['ChannelHangupRequest', 'ChannelLeftBridge', 'StasisEnd', 'ChannelDestroyed']);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/br-hang')).body.channels, [b]);
  // A far-end hangup of the other member orders the same way.
  assert.is((await ctx.t.http('POST', `/sim/channels/${b}/hangup`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === b);
  assert.equal(eventSequence(ctx.ev, b).slice(-4), ['ChannelHangupRequest', 'ChannelLeftBridge', 'StasisEnd', 'ChannelDestroyed']);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/br-hang')).body.channels, []);
  await cleanup(['br-hang'], []);
});

test('continue of a member: ChannelLeftBridge before StasisEnd; the channel runs the dialplan outside the bridge', async () => {
  await createBridge({ bridgeId: 'br-cont' });
  const a = await speaker('br-cont-a');
  await add('br-cont', a);
  await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-cont', a);
  const c = await ctx.t.http('POST', `/ari/channels/${a}/continue`, { query: { context: 'default', extension: 'after-stasis' } });
  assert.is(c.status, 204);
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === a);
  assert.equal(eventSequence(ctx.ev, a).filter((l) => l === 'ChannelLeftBridge' || l === 'StasisEnd'), ['ChannelLeftBridge', 'StasisEnd']);
  assert.equal((await ctx.t.http('GET', '/ari/bridges/br-cont')).body.channels, []);
  const ch = await ctx.t.http('GET', `/ari/channels/${a}`);
  assert.is(ch.body.dialplan.exten, 'after-stasis');
  // Out of Stasis now: it cannot be added again.
  const back = await ctx.t.http('POST', '/ari/bridges/br-cont/addChannel', { query: { channel: a } });
  assert.is(back.status, 422);
  assert.equal(back.body, { message: 'Channel not in Stasis application' });
  await cleanup(['br-cont'], [a]);
});

test('subscribe/unsubscribe eventSource=bridge:<id>: the app hears the bridge\'s events without a channel in it; unknown bridge 422', async () => {
  await createBridge({ bridgeId: 'br-sub' });
  const sub = await ctx.t.http('POST', '/ari/applications/app1/subscription', { query: { eventSource: 'bridge:br-sub' } });
  assert.is(sub.status, 200);
  assert.equal(sub.body.bridge_ids, ['br-sub']);
  assert.equal((await ctx.t.http('GET', '/ari/applications/app1')).body.bridge_ids, ['br-sub']);
  // An app2 channel enters: app1 hears about it through its bridge subscription.
  const x = await originateInApp(ctx.t, ctx.ev2, { app: 'app2', id: 'br-sub-x' });
  await add('br-sub', x.id);
  const seen = await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-sub', x.id);
  assert.is(seen.application, 'app1');
  await bridgeEvent(ctx.ev2, 'ChannelEnteredBridge', 'br-sub', x.id);
  // Unsubscribed, app1 hears no more of it.
  const unsub = await ctx.t.http('DELETE', '/ari/applications/app1/subscription', { query: { eventSource: 'bridge:br-sub' } });
  assert.is(unsub.status, 200);
  assert.equal(unsub.body.bridge_ids, []);
  assert.is((await ctx.t.http('POST', '/ari/bridges/br-sub/removeChannel', { query: { channel: x.id } })).status, 204);
  await bridgeEvent(ctx.ev2, 'ChannelLeftBridge', 'br-sub', x.id);
  await barrier();
  assert.not.ok(ctx.ev.events.some((e) => e.type === 'ChannelLeftBridge' && e.bridge?.id === 'br-sub'), 'app1 unsubscribed');
  // Unknown bridges.
  const unknown = await ctx.t.http('POST', '/ari/applications/app1/subscription', { query: { eventSource: 'bridge:br-sub-nope' } });
  assert.is(unknown.status, 422);
  assert.equal(unknown.body, { message: 'Event source does not exist' });
  const notSubscribed = await ctx.t.http('DELETE', '/ari/applications/app1/subscription', { query: { eventSource: 'bridge:br-sub' } });
  assert.is(notSubscribed.status, 422);
  assert.equal(notSubscribed.body, { message: 'Event source was not subscribed to' });
  await cleanup(['br-sub'], [x.id]);
});

// ---- real audio ------------------------------------------------------------------------------

test('mixing bridge: a member hears the other member\'s far end (440 Hz), and nothing before it joins', async () => {
  await createBridge({ bridgeId: 'br-mix' });
  const a = await speaker('br-mix-a', 440);
  const b = await localPair(ctx.t, ctx.ev, ctx.tl, 'br-mix-b');
  await add('br-mix', b.one);
  await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-mix', b.one);
  // Alone in the bridge: silence.
  const alone = await recordChannel(b.two, ctx.tl);
  absent(alone, 440);
  await add('br-mix', a);
  await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-mix', a);
  const heard = await recordChannel(b.two, ctx.tl);
  present(heard, 440);
  // A leaves: the tone stops reaching B.
  assert.is((await ctx.t.http('POST', '/ari/bridges/br-mix/removeChannel', { query: { channel: a } })).status, 204);
  await bridgeEvent(ctx.ev, 'ChannelLeftBridge', 'br-mix', a);
  absent(await recordChannel(b.two, ctx.tl), 440);
  await cleanup(['br-mix'], [a, b.one]);
});

test('holding bridge: members do not hear each other but hear the bridge\'s music on hold; stopMoh 204, again 409', async () => {
  await createBridge({ bridgeId: 'br-holdaudio', type: 'holding' });
  const a = await speaker('br-hold-a', 1000);
  const b = await localPair(ctx.t, ctx.ev, ctx.tl, 'br-hold-b');
  await add('br-holdaudio', `${a},${b.one}`);
  await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-holdaudio', b.one);
  const quiet = await recordChannel(b.two, ctx.tl);
  absent(quiet, 1000);
  absent(quiet, 440);
  // The default class is 440/500,0/250,660/500,0/1250: three seconds hold both notes.
  const moh = await ctx.t.http('POST', '/ari/bridges/br-holdaudio/moh', { query: { mohClass: 'default' } });
  assert.is(moh.status, 204);
  assert.is(moh.text, '');
  const music = await recordChannel(b.two, ctx.tl, 3);
  assert.ok(presence(music, 660) >= 0.1, `660 Hz in ${presence(music, 660)}`);
  assert.ok(presence(music, 440) >= 0.1, `440 Hz in ${presence(music, 440)}`);
  absent(music, 1000);
  const stop = await ctx.t.http('DELETE', '/ari/bridges/br-holdaudio/moh');
  assert.is(stop.status, 204);
  assert.is(stop.text, '');
  const stop2 = await ctx.t.http('DELETE', '/ari/bridges/br-holdaudio/moh');
  assert.is(stop2.status, 409);
  assert.equal(stop2.body, { message: "Bridge isn't playing music" });
  const after = await recordChannel(b.two, ctx.tl, 3);
  absent(after, 660);
  absent(after, 440);
  // Unknown bridges.
  const noBridge = await ctx.t.http('POST', '/ari/bridges/br-nope/moh');
  assert.is(noBridge.status, 404);
  assert.equal(noBridge.body, { message: 'Bridge not found' });
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/br-nope/moh')).status, 404);
  await cleanup(['br-holdaudio'], [a, b.one]);
});

test('bridge record captures the mix: A speaks 440 Hz, C speaks 1000 Hz, both in the file', async () => {
  await createBridge({ bridgeId: 'br-rec' });
  const a = await speaker('br-rec-a', 440);
  const c = await speaker('br-rec-c', 1000);
  await add('br-rec', `${a},${c}`);
  await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-rec', c);
  const r = await ctx.t.http('POST', '/ari/bridges/br-rec/record', { query: { name: 'br-rec-mix', format: 'wav', maxDurationSeconds: 1 } });
  assert.is(r.status, 201, r.text);
  assert.is(r.headers.get('location'), '/ari/recordings/live/br-rec-mix');
  assert.is(r.body.target_uri, 'bridge:br-rec');
  assert.is(r.body.format, 'wav');
  // The app is subscribed to the bridge through its channels, so it hears the bridge's recording events.
  const done = await ctx.ev.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === 'br-rec-mix');
  assert.is(done.recording.state, 'done');
  assert.is(done.recording.target_uri, 'bridge:br-rec');
  const mix = await downloadWav(ctx.t, 'br-rec-mix');
  assert.ok(mix.length >= 8000 - FRAME_SAMPLES, `recorded ${mix.length} samples`);
  present(mix, 440);
  present(mix, 1000);
  absent(mix, 700);
  await cleanup(['br-rec'], [a, c]);
});

test('bridge play tone:700 is heard by the members; stopping it ends the tone', async () => {
  await createBridge({ bridgeId: 'br-play' });
  const b = await localPair(ctx.t, ctx.ev, ctx.tl, 'br-play-b');
  await add('br-play', b.one);
  await bridgeEvent(ctx.ev, 'ChannelEnteredBridge', 'br-play', b.one);
  const p = await ctx.t.http('POST', '/ari/bridges/br-play/play', { query: { media: 'tone:700', playbackId: 'br-play-pb' } });
  assert.is(p.status, 201, p.text);
  assert.is(p.headers.get('location'), '/ari/playbacks/br-play-pb');
  assert.is(p.body.target_uri, 'bridge:br-play');
  await ctx.ev.waitFor((e) => e.type === 'PlaybackStarted' && e.playback?.id === 'br-play-pb');
  present(await recordChannel(b.two, ctx.tl), 700);
  assert.is((await ctx.t.http('DELETE', '/ari/playbacks/br-play-pb')).status, 204);
  const fin = await ctx.ev.waitFor((e) => e.type === 'PlaybackFinished' && e.playback?.id === 'br-play-pb');
  assert.is(fin.playback.state, 'done');
  absent(await recordChannel(b.two, ctx.tl), 700);
  await cleanup(['br-play'], [b.one]);
});

test.run();
