import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tonePower } from '../../server/ari/media/pcm.js';
import { hangupAndWait, originateInApp } from '../_helpers/ari.js';
import { downloadWav, farTone, framePower, localPair } from '../_helpers/audio.js';
import type { EventLog } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('bridge types');
const ctx = useServer(test, { events: { ev: 'app1', tl: 'trunkline', all: { apps: 'watcher', subscribeAll: true } } });
const enc = encodeURIComponent;

async function add(bridgeId: string, channel: string, query: Record<string, string> = {}): Promise<void> {
  const r = await ctx.t.http('POST', `/ari/bridges/${enc(bridgeId)}/addChannel`, { query: { channel, ...query } });
  assert.is(r.status, 204, r.text);
  await ctx.ev.waitFor((e) => e.type === 'ChannelEnteredBridge' && e.bridge?.id === bridgeId && e.channel?.id === channel);
}

let n = 0;
/** Records `id`'s inbound for one second (what the Local ;1 half in the bridge hears, when `id` is its ;2). */
async function hears(id: string, log: EventLog): Promise<Int16Array> {
  const name = `bt-rec-${++n}`;
  const r = await ctx.t.http('POST', `/ari/channels/${enc(id)}/record`, { query: { name, format: 'wav', maxDurationSeconds: 1 } });
  assert.is(r.status, 201, r.text);
  await log.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === name);
  return downloadWav(ctx.t, name);
}
const loud = (s: Int16Array, f: number) => assert.ok(framePower(s, f) > 0.02, `${f} Hz power ${framePower(s, f)}`);
const quiet = (s: Int16Array, f: number) => assert.ok(tonePower(s, f) < 0.001, `${f} Hz power ${tonePower(s, f)}`);

test('type lists: extra attributes are kept and answered as mixing/holding; neither or both is 400; unknown words are ignored', async () => {
  const cases: Array<[string, string]> = [
    ['mixing,dtmf_events', 'mixing'], ['proxy_media, mixing', 'mixing'], ['holding,sdp_label', 'holding'], ['mixing,bogus', 'mixing'], ['', 'mixing'],
  ];
  for (const [type, kind] of cases) {
    const r = await ctx.t.http('POST', '/ari/bridges', { query: { type } });
    assert.is(r.status, 200, `${type}: ${r.text}`);
    assert.is(r.body.bridge_type, kind, type);
    assert.is((await ctx.t.http('DELETE', `/ari/bridges/${r.body.id}`)).status, 204);
  }
  for (const [type, message] of [
    ['dtmf_events', 'Unable to create bridge: type names neither mixing nor holding'],
    ['bogus', 'Unable to create bridge: type names neither mixing nor holding'],
    ['holding,mixing', 'A bridge cannot be both mixing and holding'],
  ] as const) {
    const r = await ctx.t.http('POST', '/ari/bridges', { query: { type, bridgeId: 'bt-bad' } });
    assert.is(r.status, 400, type);
    assert.equal(r.body, { message }, type);
    const w = await ctx.t.http('POST', '/ari/bridges/bt-bad', { query: { type } });
    assert.is(w.status, 400, type);
    assert.is((await ctx.t.http('GET', '/ari/bridges/bt-bad')).status, 404, 'nothing was created');
  }
  await ctx.all.waitFor((e) => e.type === 'BridgeDestroyed');
  assert.not.ok(ctx.all.events.some((e) => e.type === 'BridgeCreated' && e.bridge?.id === 'bt-bad'));
});

test('holding bridge roles: participants hear the announcer but not each other; the announcer hears neither them nor the bridge playback', async () => {
  assert.is((await ctx.t.http('POST', '/ari/bridges', { query: { bridgeId: 'bt-hold', type: 'holding' } })).status, 200);
  const announcer = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bt-ann' })).id;
  await farTone(ctx.t, announcer, 440);
  const talker = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bt-talker' })).id;
  await farTone(ctx.t, talker, 1000);
  const listener = await localPair(ctx.t, ctx.ev, ctx.tl, 'bt-listen');
  const annListener = await localPair(ctx.t, ctx.ev, ctx.tl, 'bt-annlisten');
  await add('bt-hold', announcer, { role: 'announcer' });
  await add('bt-hold', talker);
  await add('bt-hold', listener.one, { role: 'participant' });
  await add('bt-hold', annListener.one, { role: 'announcer' });

  const participantHears = await hears(listener.two, ctx.tl);
  loud(participantHears, 440);
  quiet(participantHears, 1000);

  const play = await ctx.t.http('POST', '/ari/bridges/bt-hold/play', { query: { media: 'tone:700', playbackId: 'bt-hold-pb' } });
  assert.is(play.status, 201, play.text);
  await ctx.all.waitFor((e) => e.type === 'PlaybackStarted' && e.playback?.id === 'bt-hold-pb');
  const annHears = await hears(annListener.two, ctx.tl);
  quiet(annHears, 440);
  quiet(annHears, 1000);
  quiet(annHears, 700);
  loud(await hears(listener.two, ctx.tl), 700);

  // The bridge recording carries what participants hear: the announcers and the playback, never a participant.
  const rec = await ctx.t.http('POST', '/ari/bridges/bt-hold/record', { query: { name: 'bt-hold-mix', format: 'wav', maxDurationSeconds: 1 } });
  assert.is(rec.status, 201, rec.text);
  await ctx.all.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === 'bt-hold-mix');
  const mix = await downloadWav(ctx.t, 'bt-hold-mix');
  loud(mix, 440);
  loud(mix, 700);
  quiet(mix, 1000);
  await ctx.t.http('DELETE', '/ari/playbacks/bt-hold-pb');
  await ctx.t.http('DELETE', '/ari/bridges/bt-hold');
  for (const id of [announcer, talker, listener.one, annListener.one]) await hangupAndWait(ctx.t, ctx.all, id);
});

test('DTMF a member receives reaches the other members\' far ends in a mixing bridge, unless absorbDTMF; ChannelDtmfReceived either way', async () => {
  assert.is((await ctx.t.http('POST', '/ari/bridges', { query: { bridgeId: 'bt-dtmf', type: 'mixing,dtmf_events' } })).status, 200);
  const a = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bt-dtmf-a' })).id;
  const b = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bt-dtmf-b' })).id;
  const c = (await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'bt-dtmf-c' })).id;
  await add('bt-dtmf', a);
  await add('bt-dtmf', b);
  await add('bt-dtmf', c, { absorbDTMF: 'true' });
  assert.is((await ctx.t.http('POST', `/sim/channels/${a}/dtmf`, { query: { dtmf: '5' } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === a && e.digit === '5');
  const heardB = (await ctx.t.http('GET', `/sim/channels/${b}`)).body.far_end.dtmf_received.map((d: any) => d.digit);
  const heardC = (await ctx.t.http('GET', `/sim/channels/${c}`)).body.far_end.dtmf_received.map((d: any) => d.digit);
  assert.equal(heardB, ['5']);
  assert.equal(heardC, ['5']);
  // C absorbs what it receives: its digit reaches nobody.
  assert.is((await ctx.t.http('POST', `/sim/channels/${c}/dtmf`, { query: { dtmf: '9' } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === c && e.digit === '9');
  assert.equal((await ctx.t.http('GET', `/sim/channels/${a}`)).body.far_end.dtmf_received, []);
  assert.equal((await ctx.t.http('GET', `/sim/channels/${b}`)).body.far_end.dtmf_received.map((d: any) => d.digit), ['5']);
  await ctx.t.http('DELETE', '/ari/bridges/bt-dtmf');
  for (const id of [a, b, c]) await hangupAndWait(ctx.t, ctx.all, id);
});

test('announcer_format and recorder_format: unknown formats 422 with Asterisk\'s text, known ones accepted', async () => {
  assert.is((await ctx.t.http('POST', '/ari/bridges', { query: { bridgeId: 'bt-fmt' } })).status, 200);
  const badPlay = await ctx.t.http('POST', '/ari/bridges/bt-fmt/play', { query: { media: 'tone:440', announcer_format: 'mp3' } });
  assert.is(badPlay.status, 422);
  assert.equal(badPlay.body, { message: 'specified announcer_format is unknown on this system' });
  const badPlay2 = await ctx.t.http('POST', '/ari/bridges/bt-fmt/play/bt-fmt-x', { query: { media: 'tone:440', announcer_format: 'mp3' } });
  assert.is(badPlay2.status, 422);
  const okPlay = await ctx.t.http('POST', '/ari/bridges/bt-fmt/play', { query: { media: 'tone:440', announcer_format: 'slin16', playbackId: 'bt-fmt-pb' } });
  assert.is(okPlay.status, 201, okPlay.text);
  assert.is(okPlay.headers.get('location'), '/ari/playbacks/bt-fmt-pb');
  const badRec = await ctx.t.http('POST', '/ari/bridges/bt-fmt/record', { query: { name: 'bt-fmt-rec', format: 'wav', recorder_format: 'mp3' } });
  assert.is(badRec.status, 422);
  assert.equal(badRec.body, { message: 'specified recorder_format is unknown on this system' });
  // The file format is checked first, then recorder_format, then the other parameters.
  const badBoth = await ctx.t.http('POST', '/ari/bridges/bt-fmt/record', { query: { name: 'bt-fmt-rec', format: 'mp3', recorder_format: 'mp3', ifExists: 'bogus' } });
  assert.is(badBoth.status, 422);
  assert.equal(badBoth.body, { message: 'specified format is unknown on this system' });
  const badIf = await ctx.t.http('POST', '/ari/bridges/bt-fmt/record', { query: { name: 'bt-fmt-rec', format: 'wav', recorder_format: 'slin16', ifExists: 'bogus' } });
  assert.is(badIf.status, 400);
  assert.equal(badIf.body, { message: 'ifExists invalid' });
  const okRec = await ctx.t.http('POST', '/ari/bridges/bt-fmt/record', { query: { name: 'bt-fmt-rec', format: 'wav', recorder_format: 'ulaw', maxDurationSeconds: 1 } });
  assert.is(okRec.status, 201, okRec.text);
  assert.is(okRec.body.format, 'wav');
  await ctx.all.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === 'bt-fmt-rec');
  assert.is((await ctx.t.http('POST', '/ari/bridges/bt-nope/play', { query: { media: 'tone:440', announcer_format: 'mp3' } })).status, 404);
  await ctx.t.http('DELETE', '/ari/bridges/bt-fmt');
});

test.run();
