import { downloadWav, farTone, framePower, localPair } from '../_helpers/audio.js';
import ari from 'ari-client';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { level, tonePower } from '../../server/ari/media/pcm.js';
import { parseWav } from '../../server/ari/media/wav.js';
import { callInApp, createInApp } from '../_helpers/ari.js';
import { sleep, waitUntil, type AriEvent, type EventLog } from '../_helpers/events.js';
import { TEST_SCALE } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';

// Playbacks on channels and bridges: the HTTP answers, the event sequences, the
// per-state control rules, and the audio itself (recorded on the other half of a
// Local pair and checked sample by sample or with a Goertzel filter).
const test = suite('playbacks');
const ctx = useServer(test, { events: { ev: 'app1', ev2: 'app2', tl: 'trunkline' } });

const enc = encodeURIComponent;
const SOUNDS = join(import.meta.dirname, '..', '..', 'fixtures', 'ari', 'sounds');
const RATE = 8000;
const FRAME = 160;

/** A fixture sound's samples, read from its WAV file (not from the server). */
const wav = (lang: string, id: string): Int16Array => parseWav(readFileSync(join(SOUNDS, lang, `${id}.wav`))).samples;
/** A fixture sound's real duration in simulated ms. */
const soundMs = (lang: string, id: string): number => (wav(lang, id).length * 1000) / RATE;
/** Wall-clock ms of an event (its ARI timestamp, `…+0000`). */
const at = (e: AriEvent): number => Date.parse(e.timestamp.replace(/\+0000$/, 'Z'));

/**
 * Asserts `b` came at least `simMs` of simulated time after `a`: wall ≥ simMs / scale − 1 ms
 * (timestamps are whole ms). Lower bounds only: a busy machine makes events late, never early.
 * `a` must be an event the server's timeline starts from: a playback's first PlaybackStarted
 * (its audio starts once the event is out), or one sent after the request that moved it. A
 * later item's own PlaybackStarted is not: items follow an exact timeline from the list's
 * first Started (late timers do not accumulate), so a late Started can come after its audio began.
 */
function lasted(a: AriEvent, b: AriEvent, simMs: number, what: string): void {
  const wall = at(b) - at(a);
  assert.ok(wall >= simMs / TEST_SCALE - 1, `${what}: ${wall} ms between events, expected ≥ ${simMs}/${TEST_SCALE} − 1`);
}

/** Every playback event about playback `id`, in order. */
const pbEvents = (log: EventLog, id: string): AriEvent[] => log.events.filter((e) => e.type.startsWith('Playback') && e.playback?.id === id);
const pbTypes = (log: EventLog, id: string): string[] => pbEvents(log, id).map((e) => e.type);
const waitPb = (log: EventLog, id: string, type: string): Promise<AriEvent> => log.waitFor((e) => e.type === type && e.playback?.id === id);
/** The `n`th (1-based) event of `type` about playback `id`. */
async function nthPb(log: EventLog, id: string, type: string, n: number): Promise<AriEvent> {
  const all = await log.waitForCount((e) => e.type === type && e.playback?.id === id, n);
  return all[n - 1]!;
}
const indexOf = (log: EventLog, e: AriEvent): number => log.events.indexOf(e);

/** POST /ari/channels/{id}/play (or play/{playbackId}); asserts 201 and the Location header, returns the body. */
async function play(channelId: string, media: string, query: Record<string, string | number> = {}, playbackId?: string): Promise<any> {
  const path = `/ari/channels/${enc(channelId)}/play${playbackId !== undefined ? `/${enc(playbackId)}` : ''}`;
  const r = await ctx.t.http('POST', path, { query: { media, ...query } });
  assert.is(r.status, 201, r.text);
  assert.is(r.headers.get('location'), `/ari/playbacks/${enc(r.body.id)}`);
  return r.body;
}

const control = (id: string, operation?: string) => ctx.t.http('POST', `/ari/playbacks/${enc(id)}/control`, { query: { operation } });
const getPb = (id: string) => ctx.t.http('GET', `/ari/playbacks/${enc(id)}`);
const stopPb = (id: string) => ctx.t.http('DELETE', `/ari/playbacks/${enc(id)}`);

/** An inbound call from PJSIP/alice to 1000 (answered by the dialplan) in app1. */
const inApp = (id: string, app = 'app1', log?: EventLog) => callInApp(ctx.t, log ?? ctx.ev, { id, app });

/** Starts a wav recording on a channel and waits for RecordingStarted on `log`. */
async function record(channelId: string, name: string, log: EventLog, query: Record<string, string | number> = {}): Promise<void> {
  const r = await ctx.t.http('POST', `/ari/channels/${enc(channelId)}/record`, { query: { name, format: 'wav', ...query } });
  assert.is(r.status, 201, r.text);
  await log.waitFor((e) => e.type === 'RecordingStarted' && e.recording?.name === name);
}
const recordingFinished = (log: EventLog, name: string) => log.waitFor((e) => e.type === 'RecordingFinished' && e.recording?.name === name);

/** The 20 ms frames of a recording, as the media clock wrote them. */
function frames(samples: Int16Array): Int16Array[] {
  const out: Int16Array[] = [];
  for (let i = 0; i + FRAME <= samples.length; i += FRAME) out.push(samples.subarray(i, i + FRAME));
  return out;
}

/**
 * Where a recorded frame sits in a source sound: the sample index of its 160
 * samples in `src` (trailing zeros are left out, as the source may end inside
 * the frame), or -1 when the frame is not a slice of `src`.
 */
function locate(frame: Int16Array, src: Int16Array): number {
  let n = frame.length;
  while (n > 0 && frame[n - 1] === 0) n--;
  if (n < FRAME / 2) return -1;
  outer: for (let i = 0; i + n <= src.length; i++) {
    for (let j = 0; j < n; j++) if (src[i + j] !== frame[j]) continue outer;
    return i;
  }
  return -1;
}

const allZero = (f: Int16Array) => f.every((x) => x === 0);

/** number:999999999 says these sounds ("nine hundred ninety nine million …"): a long, single item. */
const NINES = ['digits/9', 'digits/hundred', 'digits/90', 'digits/9'];
const ninesMs = (): number => [...NINES, 'digits/million', ...NINES, 'digits/thousand', ...NINES].reduce((a, id) => a + soundMs('en', id), 0);

test.after.each(async () => {
  // Leave no channel behind: a later test's events must not mix with this one's.
  const list = await ctx.t.http('GET', '/ari/channels');
  for (const ch of list.body as Array<{ id: string }>) await ctx.t.http('DELETE', `/ari/channels/${enc(ch.id)}`);
});

// ---- play / playWithId --------------------------------------------------------

test('play: 201 queued with Location; PlaybackStarted → PlaybackFinished after the sound has really played', async () => {
  const { id } = await inApp('pb-basic');
  const body = await play(id, 'sound:hello-world');
  assert.match(body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.equal(body, { id: body.id, media_uri: 'sound:hello-world', target_uri: 'channel:pb-basic', language: 'en', state: 'queued' });
  const started = await waitPb(ctx.ev, body.id, 'PlaybackStarted');
  const finished = await waitPb(ctx.ev, body.id, 'PlaybackFinished');
  assert.equal(started.playback, { id: body.id, media_uri: 'sound:hello-world', target_uri: 'channel:pb-basic', language: 'en', state: 'playing' });
  assert.equal(finished.playback, { id: body.id, media_uri: 'sound:hello-world', target_uri: 'channel:pb-basic', language: 'en', state: 'done' });
  assert.is(started.application, 'app1');
  assert.equal(pbTypes(ctx.ev, body.id), ['PlaybackStarted', 'PlaybackFinished']);
  lasted(started, finished, soundMs('en', 'hello-world'), 'hello-world');
  // Gone once finished.
  assert.equal((await getPb(body.id)).body, { message: 'Playback not found' });
});

test('playWithId and ?playbackId: the id is ours; a live duplicate is 409; the id is free again once finished', async () => {
  const { id } = await inApp('pb-withid');
  // A tone stays live until stopped, so the duplicates meet a live playback however slow the machine.
  const body = await play(id, 'tone:ring', {}, 'my-playback');
  assert.equal(body, { id: 'my-playback', media_uri: 'tone:ring', target_uri: 'channel:pb-withid', language: 'en', state: 'queued' });
  const dup = await ctx.t.http('POST', `/ari/channels/${id}/play/my-playback`, { query: { media: 'sound:beep' } });
  assert.is(dup.status, 409);
  assert.equal(dup.body, { message: "Playback with id 'my-playback' already exists" });
  const dupQuery = await ctx.t.http('POST', `/ari/channels/${id}/play`, { query: { media: 'sound:beep', playbackId: 'my-playback' } });
  assert.is(dupQuery.status, 409);
  assert.equal(dupQuery.body, { message: "Playback with id 'my-playback' already exists" });
  const started = await waitPb(ctx.ev, 'my-playback', 'PlaybackStarted');
  assert.is((await stopPb('my-playback')).status, 204);
  await waitPb(ctx.ev, 'my-playback', 'PlaybackFinished');
  // The refused duplicates never played.
  assert.equal(pbTypes(ctx.ev, 'my-playback'), ['PlaybackStarted', 'PlaybackFinished']);
  assert.is(started.playback.media_uri, 'tone:ring');

  const again = await play(id, 'sound:beep', { playbackId: 'my-playback' });
  assert.is(again.id, 'my-playback');
  assert.is(again.media_uri, 'sound:beep');
  const beepStarted = await nthPb(ctx.ev, 'my-playback', 'PlaybackStarted', 2);
  const beepFinished = await nthPb(ctx.ev, 'my-playback', 'PlaybackFinished', 2);
  lasted(beepStarted, beepFinished, soundMs('en', 'beep'), 'beep');
  assert.equal(pbTypes(ctx.ev, 'my-playback'), ['PlaybackStarted', 'PlaybackFinished', 'PlaybackStarted', 'PlaybackFinished']);
});

// ---- media lists, offsetms, lang ---------------------------------------------------

test('media list: Started(1, next 2) → Continuing(1, next 2) → Started(2) → Finished(2); each item lasts its sound', async () => {
  const { id } = await inApp('pb-list');
  const body = await play(id, 'sound:hello-world,sound:goodbye');
  assert.equal(body, { id: body.id, media_uri: 'sound:hello-world', next_media_uri: 'sound:goodbye', target_uri: 'channel:pb-list', language: 'en', state: 'queued' });
  await waitPb(ctx.ev, body.id, 'PlaybackFinished');
  const evs = pbEvents(ctx.ev, body.id);
  assert.equal(evs.map((e) => e.type), ['PlaybackStarted', 'PlaybackContinuing', 'PlaybackStarted', 'PlaybackFinished']);
  const base = { id: body.id, target_uri: 'channel:pb-list', language: 'en' };
  assert.equal(evs[0]!.playback, { ...base, media_uri: 'sound:hello-world', next_media_uri: 'sound:goodbye', state: 'playing' });
  assert.equal(evs[1]!.playback, { ...base, media_uri: 'sound:hello-world', next_media_uri: 'sound:goodbye', state: 'continuing' });
  assert.equal(evs[2]!.playback, { ...base, media_uri: 'sound:goodbye', state: 'playing' });
  assert.equal(evs[3]!.playback, { ...base, media_uri: 'sound:goodbye', state: 'done' });
  lasted(evs[0]!, evs[1]!, soundMs('en', 'hello-world'), 'item 1');
  // Item 2 on the list's timeline, from its first PlaybackStarted.
  lasted(evs[0]!, evs[3]!, soundMs('en', 'hello-world') + soundMs('en', 'goodbye'), 'items 1 and 2');
});

test('an unknown sound in a list fails that item only: Started → Continuing → Started → Finished done', async () => {
  const { id } = await inApp('pb-list-fail');
  const body = await play(id, 'sound:no-such-sound,sound:beep');
  await waitPb(ctx.ev, body.id, 'PlaybackFinished');
  const evs = pbEvents(ctx.ev, body.id);
  assert.equal(evs.map((e) => [e.type, e.playback.media_uri, e.playback.state]), [
    ['PlaybackStarted', 'sound:no-such-sound', 'playing'],
    ['PlaybackContinuing', 'sound:no-such-sound', 'continuing'],
    ['PlaybackStarted', 'sound:beep', 'playing'],
    ['PlaybackFinished', 'sound:beep', 'done'],
  ]);
  // The failed item takes no time; beep plays whole on the list's timeline.
  lasted(evs[0]!, evs[3]!, soundMs('en', 'beep'), 'beep');
});

test('lang selects the language (fr hello-world) and falls back to en; offsetms skips into the first item only — heard on the line', async () => {
  const { one, two } = await localPair(ctx.t, ctx.ev, ctx.tl, 'pb-loc-lang');
  await record(two, 'pb-lang', ctx.tl);
  // hello-world exists in fr; vm-intro only in en.
  const offsetms = 600;
  const body = await play(one, 'sound:hello-world,sound:vm-intro', { lang: 'fr', offsetms });
  assert.is(body.language, 'fr');
  const finished = await waitPb(ctx.ev, body.id, 'PlaybackFinished');
  assert.equal(finished.playback, { id: body.id, media_uri: 'sound:vm-intro', target_uri: 'channel:pb-loc-lang', language: 'fr', state: 'done' });
  const evs = pbEvents(ctx.ev, body.id);
  assert.equal(evs.map((e) => e.type), ['PlaybackStarted', 'PlaybackContinuing', 'PlaybackStarted', 'PlaybackFinished']);
  // The second item plays whole (the offset is not applied to it), on the list's timeline.
  lasted(evs[0]!, evs[3]!, soundMs('fr', 'hello-world') - offsetms + soundMs('en', 'vm-intro'), 'rest of hello-world, then vm-intro');
  assert.is((await ctx.t.http('POST', `/ari/recordings/live/pb-lang/stop`)).status, 204);
  await recordingFinished(ctx.tl, 'pb-lang');

  const heard = frames(await downloadWav(ctx.t, 'pb-lang')).filter((f) => level(f) >= 256);
  const frHello = wav('fr', 'hello-world');
  const enHello = wav('en', 'hello-world');
  const enIntro = wav('en', 'vm-intro');
  const where = heard.map((f) => ({ fr: locate(f, frHello), en: locate(f, enHello), intro: locate(f, enIntro) }));
  // Every loud frame is a slice of French hello-world or of English vm-intro, in that order; none is English hello-world.
  assert.ok(where.every((w) => w.en === -1), 'no frame of the English hello-world');
  assert.ok(where.every((w) => (w.fr >= 0) !== (w.intro >= 0)), 'every loud frame comes from fr hello-world or en vm-intro');
  const firstIntro = where.findIndex((w) => w.intro >= 0);
  assert.ok(firstIntro > 0, 'French hello-world was heard before vm-intro');
  assert.ok(where.slice(firstIntro).every((w) => w.intro >= 0), 'vm-intro follows hello-world');
  const frPositions = where.slice(0, firstIntro).map((w) => w.fr);
  assert.ok(Math.min(...frPositions) >= (offsetms * RATE) / 1000, `hello-world started at the offset (first heard at sample ${Math.min(...frPositions)})`);
  assert.ok(Math.min(...where.slice(firstIntro).map((w) => w.intro)) < (offsetms * RATE) / 1000, 'vm-intro started from its beginning');
  // vm-intro was heard to its end: most of it is there.
  assert.ok((heard.length - firstIntro) * FRAME >= enIntro.length / 2, 'vm-intro was heard');
});

test('offsetms past the end of the first item: it ends at once, the second plays whole', async () => {
  const { id } = await inApp('pb-offset-end');
  const body = await play(id, 'sound:goodbye,sound:hello-world', { offsetms: 100000 });
  await waitPb(ctx.ev, body.id, 'PlaybackFinished');
  const evs = pbEvents(ctx.ev, body.id);
  assert.equal(evs.map((e) => [e.type, e.playback.media_uri]), [
    ['PlaybackStarted', 'sound:goodbye'],
    ['PlaybackContinuing', 'sound:goodbye'],
    ['PlaybackStarted', 'sound:hello-world'],
    ['PlaybackFinished', 'sound:hello-world'],
  ]);
  // Items follow an exact timeline from the list's first PlaybackStarted (a later item's own
  // Started can come a timer's lateness after its audio began, so measure from the list's start).
  lasted(evs[0]!, evs[3]!, soundMs('en', 'hello-world'), 'hello-world after the offset item');
});

test('lang: a French channel plays French by default; lang=en overrides it', async () => {
  const { id } = await callInApp(ctx.t, ctx.ev, { id: 'pb-carol', app: 'app1', endpoint: 'PJSIP/carol' });
  const fr = await play(id, 'sound:goodbye');
  assert.is(fr.language, 'fr');
  const frStarted = await waitPb(ctx.ev, fr.id, 'PlaybackStarted');
  const frFinished = await waitPb(ctx.ev, fr.id, 'PlaybackFinished');
  assert.is(frFinished.playback.language, 'fr');
  lasted(frStarted, frFinished, soundMs('fr', 'goodbye'), 'fr goodbye');
  const en = await play(id, 'sound:goodbye', { lang: 'en' });
  assert.is(en.language, 'en');
  assert.is((await waitPb(ctx.ev, en.id, 'PlaybackFinished')).playback.language, 'en');
});

// ---- schemes -----------------------------------------------------------------

test('number:42 says digits/40 then digits/2: it lasts their sum', async () => {
  const { id } = await inApp('pb-number');
  const body = await play(id, 'number:42');
  const started = await waitPb(ctx.ev, body.id, 'PlaybackStarted');
  const finished = await waitPb(ctx.ev, body.id, 'PlaybackFinished');
  assert.equal(finished.playback, { id: body.id, media_uri: 'number:42', target_uri: 'channel:pb-number', language: 'en', state: 'done' });
  lasted(started, finished, soundMs('en', 'digits/40') + soundMs('en', 'digits/2'), 'forty two');
});

test('number:42 on the line: exactly digits/40 followed by digits/2', async () => {
  const { one, two } = await localPair(ctx.t, ctx.ev, ctx.tl, 'pb-loc-number');
  await record(two, 'pb-number', ctx.tl);
  const body = await play(one, 'number:42');
  await waitPb(ctx.ev, body.id, 'PlaybackFinished');
  assert.is((await ctx.t.http('POST', '/ari/recordings/live/pb-number/stop')).status, 204);
  await recordingFinished(ctx.tl, 'pb-number');
  const forty = wav('en', 'digits/40');
  const two_ = wav('en', 'digits/2');
  const said = new Int16Array(forty.length + two_.length);
  said.set(forty);
  said.set(two_, forty.length);
  const heard = frames(await downloadWav(ctx.t, 'pb-number')).filter((f) => level(f) >= 256);
  const pos = heard.map((f) => locate(f, said));
  assert.ok(heard.length >= 10, `${heard.length} loud frames`);
  assert.ok(pos.every((p) => p >= 0), 'every loud frame is from "forty two"');
  assert.ok(pos.some((p) => p < forty.length) && pos.some((p) => p >= forty.length), 'both words were heard');
  for (let i = 1; i < pos.length; i++) assert.ok(pos[i]! >= pos[i - 1]!, 'in order');
});

test('digits: and characters: assemble their sounds', async () => {
  const { id } = await inApp('pb-digits');
  const d = await play(id, 'digits:5*');
  const c = await play(id, 'characters:a1.');
  const dStarted = await waitPb(ctx.ev, d.id, 'PlaybackStarted');
  const dFinished = await waitPb(ctx.ev, d.id, 'PlaybackFinished');
  assert.is(dFinished.playback.state, 'done');
  lasted(dStarted, dFinished, soundMs('en', 'digits/5') + soundMs('en', 'digits/star'), 'digits:5*');
  const cStarted = await waitPb(ctx.ev, c.id, 'PlaybackStarted');
  const cFinished = await waitPb(ctx.ev, c.id, 'PlaybackFinished');
  assert.equal(cFinished.playback, { id: c.id, media_uri: 'characters:a1.', target_uri: 'channel:pb-digits', language: 'en', state: 'done' });
  lasted(cStarted, cFinished, soundMs('en', 'letters/a') + soundMs('en', 'digits/1') + soundMs('en', 'letters/dot'), 'characters:a1.');
});

test('sound: that does not exist → PlaybackStarted then PlaybackFinished failed', async () => {
  const { id } = await inApp('pb-nosound');
  const body = await play(id, 'sound:no-such-sound');
  assert.is(body.state, 'queued');
  const finished = await waitPb(ctx.ev, body.id, 'PlaybackFinished');
  assert.equal(pbTypes(ctx.ev, body.id), ['PlaybackStarted', 'PlaybackFinished']);
  assert.is(pbEvents(ctx.ev, body.id)[0]!.playback.state, 'playing');
  assert.equal(finished.playback, { id: body.id, media_uri: 'sound:no-such-sound', target_uri: 'channel:pb-nosound', language: 'en', state: 'failed' });
});

test('recording: plays a stored recording (and its copy) for its length; a missing one fails', async () => {
  // Record one second of a 440 Hz tone sent by the far end.
  const { id } = await inApp('pb-rec-src');
  const audio = await ctx.t.http('POST', `/sim/channels/${id}/audio`, { query: { source: 'tone', tone: '440' } });
  assert.is(audio.status, 204, audio.text);
  await record(id, 'pb-rec', ctx.ev, { maxDurationSeconds: 1 });
  await recordingFinished(ctx.ev, 'pb-rec');
  const copy = await ctx.t.http('POST', '/ari/recordings/stored/pb-rec/copy', { query: { destinationRecordingName: 'pb-rec-copy' } });
  assert.is(copy.status, 200, copy.text);

  const p1 = await play(id, 'recording:pb-rec');
  const p2 = await play(id, 'recording:pb-rec-copy');
  for (const pb of [p1, p2]) {
    const started = await waitPb(ctx.ev, pb.id, 'PlaybackStarted');
    const finished = await waitPb(ctx.ev, pb.id, 'PlaybackFinished');
    assert.is(finished.playback.state, 'done');
    assert.is(finished.playback.media_uri, pb.media_uri);
    lasted(started, finished, 1000, pb.media_uri);
  }
  const missing = await play(id, 'recording:no-such-recording');
  const failed = await waitPb(ctx.ev, missing.id, 'PlaybackFinished');
  assert.equal(pbTypes(ctx.ev, missing.id), ['PlaybackStarted', 'PlaybackFinished']);
  assert.equal(failed.playback, { id: missing.id, media_uri: 'recording:no-such-recording', target_uri: 'channel:pb-rec-src', language: 'en', state: 'failed' });

  // The recording really plays what was recorded: the other half of a Local pair hears 440 Hz.
  // ;2 is recorded from before the playback starts, so the whole second is there however late this test's requests arrive.
  const { one, two } = await localPair(ctx.t, ctx.ev, ctx.tl, 'pb-loc-rec');
  await record(two, 'pb-rec-heard', ctx.tl);
  const pb = await play(one, 'recording:pb-rec-copy');
  await waitPb(ctx.ev, pb.id, 'PlaybackStarted');
  await waitPb(ctx.ev, pb.id, 'PlaybackFinished');
  assert.is((await ctx.t.http('POST', '/ari/recordings/live/pb-rec-heard/stop')).status, 204);
  await recordingFinished(ctx.tl, 'pb-rec-heard');
  const heard = frames(await downloadWav(ctx.t, 'pb-rec-heard')).filter((f) => !allZero(f));
  assert.ok(heard.length >= 10, `${heard.length} frames of sound`);
  const joined = new Int16Array(heard.length * FRAME);
  heard.forEach((f, i) => joined.set(f, i * FRAME));
  assert.ok(framePower(joined, 440) > 0.02, `440 Hz power ${framePower(joined, 440)}`);
  assert.ok(tonePower(joined, 1000) < 0.001, `1000 Hz power ${tonePower(joined, 1000)}`);
});

test('tone: plays until stopped (no PlaybackFinished by itself); DELETE → 204, PlaybackFinished done', async () => {
  const { id } = await inApp('pb-tone');
  const body = await play(id, 'tone:ring');
  const started = await waitPb(ctx.ev, body.id, 'PlaybackStarted');
  assert.equal(started.playback, { id: body.id, media_uri: 'tone:ring', target_uri: 'channel:pb-tone', language: 'en', state: 'playing' });
  // Ring is 2 s on, 4 s off: after more than one whole cadence it still plays.
  await sleep(7000 / TEST_SCALE + 20);
  assert.equal(pbTypes(ctx.ev, body.id), ['PlaybackStarted']);
  const got = await getPb(body.id);
  assert.is(got.status, 200);
  assert.is(got.body.state, 'playing');
  const del = await stopPb(body.id);
  assert.is(del.status, 204);
  assert.is(del.text, '');
  const finished = await waitPb(ctx.ev, body.id, 'PlaybackFinished');
  assert.equal(finished.playback, { id: body.id, media_uri: 'tone:ring', target_uri: 'channel:pb-tone', language: 'en', state: 'done' });
  assert.equal(pbTypes(ctx.ev, body.id), ['PlaybackStarted', 'PlaybackFinished']);
  assert.is((await getPb(body.id)).status, 404);
});

test('tone:1000 is what the other half hears: 1000 Hz strong, 440 Hz absent', async () => {
  const { one, two } = await localPair(ctx.t, ctx.ev, ctx.tl, 'pb-loc-tone');
  const body = await play(one, 'tone:1000');
  await waitPb(ctx.ev, body.id, 'PlaybackStarted');
  await record(two, 'pb-tone-heard', ctx.tl, { maxDurationSeconds: 1 });
  const done = await recordingFinished(ctx.tl, 'pb-tone-heard');
  assert.is(done.recording.state, 'done');
  const samples = await downloadWav(ctx.t, 'pb-tone-heard');
  assert.is(samples.length, RATE, 'one second');
  // The tone is synthesised at a quarter of full scale: power 0.25² = 0.0625.
  const p1000 = framePower(samples, 1000);
  const p440 = tonePower(samples, 440);
  assert.ok(p1000 > 0.05, `1000 Hz power ${p1000}`);
  assert.ok(p440 < 0.001, `440 Hz power ${p440}`);
  assert.equal(pbTypes(ctx.ev, body.id), ['PlaybackStarted']);
  assert.is((await stopPb(body.id)).status, 204);
  await waitPb(ctx.ev, body.id, 'PlaybackFinished');
});

test('a pause in the middle is silence on the line; unpause brings the tone back', async () => {
  const { one, two } = await localPair(ctx.t, ctx.ev, ctx.tl, 'pb-loc-pause');
  const body = await play(one, 'tone:1000');
  await waitPb(ctx.ev, body.id, 'PlaybackStarted');
  await record(two, 'pb-pause-heard', ctx.tl);
  await sleep(20);
  assert.is((await control(body.id, 'pause')).status, 204);
  await sleep(20);
  assert.is((await control(body.id, 'unpause')).status, 204);
  await sleep(20);
  assert.is((await ctx.t.http('POST', '/ari/recordings/live/pb-pause-heard/stop')).status, 204);
  await recordingFinished(ctx.tl, 'pb-pause-heard');
  assert.is((await stopPb(body.id)).status, 204);

  const kinds = frames(await downloadWav(ctx.t, 'pb-pause-heard')).map((f) => (allZero(f) ? 'S' : tonePower(f, 1000) > 0.05 ? 'T' : '?'));
  const runs: Array<[string, number]> = [];
  for (const k of kinds) {
    const last = runs[runs.length - 1];
    if (last && last[0] === k) last[1]++;
    else runs.push([k, 1]);
  }
  assert.equal(runs.map((r) => r[0]), ['T', 'S', 'T'], `frames: ${runs.map(([k, n]) => `${k}×${n}`).join(' ')}`);
  // 20 ms of wall time paused is 400 ms simulated: 20 frames (some slack for the event loop).
  assert.ok(runs[1]![1] >= 10, `${runs[1]![1]} silent frames`);
  assert.equal(pbTypes(ctx.ev, body.id), ['PlaybackStarted', 'PlaybackStarted', 'PlaybackFinished']);
});

// ---- 400s at request time ---------------------------------------------------

test('play: unknown scheme, empty media, non-integer number:, unparsable tone: are 400 at once; no playback is made', async () => {
  const { id } = await inApp('pb-bad');
  const cases: Array<[Record<string, string>, string]> = [
    [{ media: 'foo:bar' }, "Invalid media URI 'foo:bar': the scheme must be one of sound, recording, number, digits, characters, tone"],
    [{ media: 'hello-world' }, "Invalid media URI 'hello-world': the scheme must be one of sound, recording, number, digits, characters, tone"],
    [{ media: 'sound:' }, "Invalid media URI 'sound:': nothing after the scheme"],
    [{ media: '' }, 'Missing parameter media'],
    [{ media: 'number:4x' }, "Invalid media URI 'number:4x': number: takes an integer"],
    [{ media: 'number:1.5' }, "Invalid media URI 'number:1.5': number: takes an integer"],
    [{ media: 'tone:abc' }, "Invalid tone 'abc': invalid tone 'abc'"],
    [{ media: 'tone:ring;tonezone=zz' }, "Unknown tone zone 'zz'"],
    [{ media: 'tone:ring;volume=3' }, "Invalid tone option 'volume=3' (only tonezone= is known)"],
    // One bad item refuses the whole list.
    [{ media: 'sound:hello-world,foo:bar' }, "Invalid media URI 'foo:bar': the scheme must be one of sound, recording, number, digits, characters, tone"],
  ];
  for (const [query, message] of cases) {
    const r = await ctx.t.http('POST', `/ari/channels/${id}/play`, { query: { ...query, playbackId: 'pb-refused' } });
    assert.is(r.status, 400, `${JSON.stringify(query)}: ${r.text}`);
    assert.equal(r.body, { message }, JSON.stringify(query));
  }
  const missing = await ctx.t.http('POST', `/ari/channels/${id}/play`);
  assert.is(missing.status, 400);
  assert.equal(missing.body, { message: "Missing parameter media" });
  assert.is((await getPb('pb-refused')).status, 404);
  // A tone zone that exists is fine.
  const ok = await play(id, 'tone:busy;tonezone=fr');
  await waitPb(ctx.ev, ok.id, 'PlaybackStarted');
  assert.is((await stopPb(ok.id)).status, 204);
  await waitPb(ctx.ev, ok.id, 'PlaybackFinished');
  assert.not.ok(ctx.ev.events.some((e) => e.type.startsWith('Playback') && e.playback?.id === 'pb-refused'));
});

test('play guards: 404 unknown channel, 409 not in an app, 412 Down; negative skipms/offsetms are 400 after the guards', async () => {
  const neg = { skipms: -1, offsetms: -1 };
  const unknown = await ctx.t.http('POST', '/ari/channels/no-such-channel/play', { query: { media: 'sound:beep', ...neg } });
  assert.is(unknown.status, 404);
  assert.equal(unknown.body, { message: 'Channel not found' });
  const unknownWithId = await ctx.t.http('POST', '/ari/channels/no-such-channel/play/x', { query: { media: 'sound:beep' } });
  assert.is(unknownWithId.status, 404);
  assert.equal(unknownWithId.body, { message: 'Channel not found' });

  // An inbound call to 3000 (Answer, Echo) is Up but not in an application.
  const call = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '3000', channelId: 'pb-echo' } });
  assert.is(call.status, 200, call.text);
  await waitUntil(async () => (await ctx.t.http('GET', '/ari/channels/pb-echo')).body?.state === 'Up', 'pb-echo is Up');
  const notInApp = await ctx.t.http('POST', '/ari/channels/pb-echo/play', { query: { media: 'sound:beep', ...neg } });
  assert.is(notInApp.status, 409);
  assert.equal(notInApp.body, { message: 'Channel not in Stasis application' });

  const { id: down } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'pb-down' });
  const invalid = await ctx.t.http('POST', `/ari/channels/${down}/play`, { query: { media: 'sound:beep', ...neg } });
  assert.is(invalid.status, 412);
  assert.equal(invalid.body, { message: 'Channel in invalid state' });

  const { id } = await inApp('pb-neg');
  const skip = await ctx.t.http('POST', `/ari/channels/${id}/play`, { query: { media: 'sound:beep', ...neg } });
  assert.is(skip.status, 400);
  assert.equal(skip.body, { message: 'skipms cannot be negative' });
  const offset = await ctx.t.http('POST', `/ari/channels/${id}/play`, { query: { media: 'foo:bar', offsetms: -5 } });
  assert.is(offset.status, 400);
  assert.equal(offset.body, { message: 'offsetms cannot be negative' });
  const offsetWithId = await ctx.t.http('POST', `/ari/channels/${id}/play/pb-neg-1`, { query: { media: 'sound:beep', offsetms: -5 } });
  assert.is(offsetWithId.status, 400);
  assert.equal(offsetWithId.body, { message: 'offsetms cannot be negative' });
  // Nothing was queued.
  assert.not.ok(ctx.ev.events.some((e) => e.type.startsWith('Playback') && e.playback?.target_uri === `channel:${id}`));
});

// ---- queueing ----------------------------------------------------------------------

test('two plays on one channel: the second answers queued and starts only after the first finishes', async () => {
  const { id } = await inApp('pb-queue');
  const a = await play(id, 'sound:welcome');
  const b = await play(id, 'sound:goodbye');
  assert.is(b.state, 'queued');
  const aStarted = await waitPb(ctx.ev, a.id, 'PlaybackStarted');
  const queued = await getPb(b.id);
  assert.is(queued.status, 200);
  assert.equal(queued.body, { id: b.id, media_uri: 'sound:goodbye', target_uri: 'channel:pb-queue', language: 'en', state: 'queued' });
  assert.equal(pbTypes(ctx.ev, b.id), []);
  const aFinished = await waitPb(ctx.ev, a.id, 'PlaybackFinished');
  const bStarted = await waitPb(ctx.ev, b.id, 'PlaybackStarted');
  const bFinished = await waitPb(ctx.ev, b.id, 'PlaybackFinished');
  assert.ok(indexOf(ctx.ev, aFinished) < indexOf(ctx.ev, bStarted), 'b starts after a finishes');
  lasted(aStarted, bStarted, soundMs('en', 'welcome'), 'b waited for a');
  lasted(bStarted, bFinished, soundMs('en', 'goodbye'), 'b');
});

test('stopping a queued playback cancels it: GET shows done, it never sounds, PlaybackFinished done comes in its turn', async () => {
  const { id } = await inApp('pb-cancel');
  // The first is a tone: b stays queued behind it, however slow the checks, until a is stopped.
  const a = await play(id, 'tone:ring');
  const b = await play(id, 'sound:goodbye');
  const c = await play(id, 'sound:beep');
  await waitPb(ctx.ev, a.id, 'PlaybackStarted');
  const del = await stopPb(b.id);
  assert.is(del.status, 204);
  // Asterisk's CANCELED state, reported as done; it stays until its turn comes.
  const got = await getPb(b.id);
  assert.is(got.status, 200);
  assert.equal(got.body, { id: b.id, media_uri: 'sound:goodbye', target_uri: 'channel:pb-cancel', language: 'en', state: 'done' });
  for (const op of ['restart', 'pause', 'unpause', 'reverse', 'forward']) {
    const r = await control(b.id, op);
    assert.is(r.status, 409, op);
    assert.equal(r.body, { message: `Can only ${op} while media is playing` });
  }
  assert.is((await stopPb(b.id)).status, 204, 'stop again is a no-op');
  assert.equal(pbTypes(ctx.ev, b.id), [], 'no event yet');
  assert.is((await stopPb(a.id)).status, 204);
  const aFinished = await waitPb(ctx.ev, a.id, 'PlaybackFinished');
  const bFinished = await waitPb(ctx.ev, b.id, 'PlaybackFinished');
  const cStarted = await waitPb(ctx.ev, c.id, 'PlaybackStarted');
  await waitPb(ctx.ev, c.id, 'PlaybackFinished');
  assert.equal(bFinished.playback, { id: b.id, media_uri: 'sound:goodbye', target_uri: 'channel:pb-cancel', language: 'en', state: 'done' });
  assert.equal(pbTypes(ctx.ev, b.id), ['PlaybackFinished'], 'b never started');
  assert.ok(indexOf(ctx.ev, aFinished) < indexOf(ctx.ev, bFinished) && indexOf(ctx.ev, bFinished) < indexOf(ctx.ev, cStarted));
  assert.is((await getPb(b.id)).status, 404);
});

// ---- GET / DELETE / control ------------------------------------------------------

test('GET 200 while alive (queued, playing), 404 after; DELETE of a playing one → 204, PlaybackFinished done; then 404', async () => {
  const { id } = await inApp('pb-get');
  const a = await play(id, 'number:999999999');
  await waitPb(ctx.ev, a.id, 'PlaybackStarted');
  const got = await getPb(a.id);
  assert.is(got.status, 200);
  assert.equal(got.body, { id: a.id, media_uri: 'number:999999999', target_uri: 'channel:pb-get', language: 'en', state: 'playing' });
  const del = await stopPb(a.id);
  assert.is(del.status, 204);
  const finished = await waitPb(ctx.ev, a.id, 'PlaybackFinished');
  assert.is(finished.playback.state, 'done');
  assert.equal(pbTypes(ctx.ev, a.id), ['PlaybackStarted', 'PlaybackFinished']);
  const gone = await getPb(a.id);
  assert.is(gone.status, 404);
  assert.equal(gone.body, { message: 'Playback not found' });
  const delAgain = await stopPb(a.id);
  assert.is(delAgain.status, 404);
  assert.equal(delAgain.body, { message: 'Playback not found' });
  // Stop of a list skips the rest of it.
  const list = await play(id, 'sound:welcome,sound:goodbye');
  await waitPb(ctx.ev, list.id, 'PlaybackStarted');
  assert.is((await stopPb(list.id)).status, 204);
  const listDone = await waitPb(ctx.ev, list.id, 'PlaybackFinished');
  assert.equal(listDone.playback, { id: list.id, media_uri: 'sound:welcome', next_media_uri: 'sound:goodbye', target_uri: 'channel:pb-get', language: 'en', state: 'done' });
  await sleep(soundMs('en', 'goodbye') / TEST_SCALE + 10);
  assert.equal(pbTypes(ctx.ev, list.id), ['PlaybackStarted', 'PlaybackFinished']);
});

test('control: missing operation 400, invalid 400 (before the lookup), unknown playback 404', async () => {
  const missing = await control('no-such-playback');
  assert.is(missing.status, 400);
  assert.equal(missing.body, { message: 'Missing operation' });
  const invalid = await control('no-such-playback', 'xyz');
  assert.is(invalid.status, 400);
  assert.equal(invalid.body, { message: 'Invalid operation xyz' });
  for (const op of ['restart', 'pause', 'unpause', 'reverse', 'forward']) {
    const r = await control('no-such-playback', op);
    assert.is(r.status, 404, op);
    assert.equal(r.body, { message: 'Playback not found' });
  }
  const get = await getPb('no-such-playback');
  assert.is(get.status, 404);
  assert.equal(get.body, { message: 'Playback not found' });
  const del = await stopPb('no-such-playback');
  assert.is(del.status, 404);
  assert.equal(del.body, { message: 'Playback not found' });
  // On a live playback too.
  const { id } = await inApp('pb-ctl-bad');
  const pb = await play(id, 'tone:dial');
  await waitPb(ctx.ev, pb.id, 'PlaybackStarted');
  const m = await control(pb.id);
  assert.is(m.status, 400);
  assert.equal(m.body, { message: 'Missing operation' });
  const x = await control(pb.id, 'stop');
  assert.is(x.status, 400);
  assert.equal(x.body, { message: 'Invalid operation stop' });
  assert.is((await stopPb(pb.id)).status, 204);
  await waitPb(ctx.ev, pb.id, 'PlaybackFinished');
});

test('control in each state: queued, playing, paused (per Asterisk\'s table)', async () => {
  const { id } = await inApp('pb-ctl');
  // A long item (seconds of speech), so the playing-state checks meet it playing on a slow machine; skipms 100 keeps reverse and forward inside it.
  const a = await play(id, 'number:999999999', { skipms: 100 });
  const b = await play(id, 'sound:beep');
  await waitPb(ctx.ev, a.id, 'PlaybackStarted');

  // playing: unpause is a no-op; pause → paused, no event (a now waits, whatever the checks below take).
  assert.is((await control(a.id, 'unpause')).status, 204);
  assert.is((await control(a.id, 'pause')).status, 204);

  // queued: restart is a no-op, the rest are 409.
  assert.is((await control(b.id, 'restart')).status, 204);
  for (const op of ['pause', 'unpause', 'reverse', 'forward']) {
    const r = await control(b.id, op);
    assert.is(r.status, 409, op);
    assert.equal(r.body, { message: `Can only ${op} while media is playing` });
  }
  assert.is((await getPb(b.id)).body.state, 'queued');
  assert.equal(pbTypes(ctx.ev, b.id), []);

  const paused = await getPb(a.id);
  assert.equal(paused.body, { id: a.id, media_uri: 'number:999999999', target_uri: 'channel:pb-ctl', language: 'en', state: 'paused' });

  // paused: pause is a no-op; restart/reverse/forward are 409.
  assert.is((await control(a.id, 'pause')).status, 204);
  for (const op of ['restart', 'reverse', 'forward']) {
    const r = await control(a.id, op);
    assert.is(r.status, 409, op);
    assert.equal(r.body, { message: `Can only ${op} while media is playing` });
  }
  // A paused playback does not end by itself.
  await sleep(ninesMs() / TEST_SCALE + 20);
  assert.equal(pbTypes(ctx.ev, a.id), ['PlaybackStarted'], 'pause sends no event and holds the position');
  assert.is((await getPb(a.id)).body.state, 'paused');

  // unpause → PlaybackStarted again.
  assert.is((await control(a.id, 'unpause')).status, 204);
  const again = await nthPb(ctx.ev, a.id, 'PlaybackStarted', 2);
  assert.equal(again.playback, { id: a.id, media_uri: 'number:999999999', target_uri: 'channel:pb-ctl', language: 'en', state: 'playing' });
  assert.is((await getPb(a.id)).body.state, 'playing');
  // playing: restart, reverse and forward are accepted (no event).
  for (const op of ['restart', 'reverse', 'forward']) assert.is((await control(a.id, op)).status, 204, op);
  assert.equal(pbTypes(ctx.ev, a.id), ['PlaybackStarted', 'PlaybackStarted']);

  // A paused playback can be stopped.
  assert.is((await control(a.id, 'pause')).status, 204);
  assert.is((await stopPb(a.id)).status, 204);
  const finished = await waitPb(ctx.ev, a.id, 'PlaybackFinished');
  assert.is(finished.playback.state, 'done');
  assert.equal(pbTypes(ctx.ev, a.id), ['PlaybackStarted', 'PlaybackStarted', 'PlaybackFinished']);
  await waitPb(ctx.ev, b.id, 'PlaybackFinished');
  // Done: gone.
  const r = await control(a.id, 'restart');
  assert.is(r.status, 404);
  assert.equal(r.body, { message: 'Playback not found' });
});

test('pause holds the position: the pause adds to the playing time', async () => {
  const { id } = await inApp('pb-pause-time');
  const pb = await play(id, 'sound:welcome');
  const started = await waitPb(ctx.ev, pb.id, 'PlaybackStarted');
  assert.is((await control(pb.id, 'pause')).status, 204);
  const pausedAt = Date.now();
  await sleep(60);
  const unpauseAt = Date.now();
  assert.is((await control(pb.id, 'unpause')).status, 204);
  const finished = await waitPb(ctx.ev, pb.id, 'PlaybackFinished');
  assert.equal(pbTypes(ctx.ev, pb.id), ['PlaybackStarted', 'PlaybackStarted', 'PlaybackFinished']);
  lasted(started, finished, soundMs('en', 'welcome') + (unpauseAt - pausedAt) * TEST_SCALE, 'played plus paused');
});

test('restart goes back to the beginning: the item ends a whole sound after the restart', async () => {
  const { id } = await inApp('pb-restart');
  const pb = await play(id, 'number:999999999');
  await waitPb(ctx.ev, pb.id, 'PlaybackStarted');
  await sleep(20);
  const sent = Date.now();
  assert.is((await control(pb.id, 'restart')).status, 204);
  const finished = await waitPb(ctx.ev, pb.id, 'PlaybackFinished');
  const wall = at(finished) - sent;
  assert.ok(wall >= ninesMs() / TEST_SCALE - 1, `${wall} ms after the restart`);
  assert.equal(pbTypes(ctx.ev, pb.id), ['PlaybackStarted', 'PlaybackFinished'], 'restart sends no event');
});

test('reverse with skipms adds skipms to the remaining time', async () => {
  const { id } = await inApp('pb-reverse');
  const skipms = 2000;
  const pb = await play(id, 'number:999999999', { skipms });
  const started = await waitPb(ctx.ev, pb.id, 'PlaybackStarted');
  // More than skipms into the item, so the reverse goes back a whole skipms.
  await sleep(skipms / TEST_SCALE + 10);
  assert.is((await control(pb.id, 'reverse')).status, 204);
  const finished = await waitPb(ctx.ev, pb.id, 'PlaybackFinished');
  assert.equal(pbTypes(ctx.ev, pb.id), ['PlaybackStarted', 'PlaybackFinished'], 'reverse sends no event');
  // The item plays ninesMs in all, plus the skipms heard twice.
  lasted(started, finished, ninesMs() + skipms, 'played plus reversed');
});

test('forward past the end finishes the item at once; in a list the next item starts', async () => {
  const { id } = await inApp('pb-forward');
  const pb = await play(id, 'number:999999999', { skipms: 1000000 });
  await waitPb(ctx.ev, pb.id, 'PlaybackStarted');
  assert.is((await control(pb.id, 'forward')).status, 204);
  // A marker event sent after the 204: the playback had finished before it.
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/variable`, { query: { variable: 'MARK', value: '1' } })).status, 204);
  const mark = await ctx.ev.waitFor((e) => e.type === 'ChannelVarset' && e.channel?.id === id && e.variable === 'MARK');
  const finished = await waitPb(ctx.ev, pb.id, 'PlaybackFinished');
  assert.is(finished.playback.state, 'done');
  assert.ok(indexOf(ctx.ev, finished) < indexOf(ctx.ev, mark), 'finished before the marker');

  const list = await play(id, 'number:999999999,sound:beep', { skipms: 1000000 });
  await waitPb(ctx.ev, list.id, 'PlaybackStarted');
  assert.is((await control(list.id, 'forward')).status, 204);
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/variable`, { query: { variable: 'MARK2', value: '1' } })).status, 204);
  const mark2 = await ctx.ev.waitFor((e) => e.type === 'ChannelVarset' && e.channel?.id === id && e.variable === 'MARK2');
  const second = await nthPb(ctx.ev, list.id, 'PlaybackStarted', 2);
  assert.is(second.playback.media_uri, 'sound:beep');
  assert.ok(indexOf(ctx.ev, second) < indexOf(ctx.ev, mark2), 'the next item started before the marker');
  const done = await waitPb(ctx.ev, list.id, 'PlaybackFinished');
  lasted(second, done, soundMs('en', 'beep'), 'beep');
  assert.equal(pbTypes(ctx.ev, list.id), ['PlaybackStarted', 'PlaybackContinuing', 'PlaybackStarted', 'PlaybackFinished']);
});

test('number:, digits: and characters: playbacks are controllable (pause → paused, unpause → PlaybackStarted)', async () => {
  const { id } = await inApp('pb-ctl-say');
  for (const media of ['number:123456789', 'digits:123456789', 'characters:abcdefghij']) {
    const pb = await play(id, media, { skipms: 100 });
    await waitPb(ctx.ev, pb.id, 'PlaybackStarted');
    assert.is((await control(pb.id, 'pause')).status, 204, media);
    assert.is((await getPb(pb.id)).body.state, 'paused', media);
    assert.is((await control(pb.id, 'restart')).status, 409, media);
    assert.is((await control(pb.id, 'unpause')).status, 204, media);
    await nthPb(ctx.ev, pb.id, 'PlaybackStarted', 2);
    assert.is((await control(pb.id, 'restart')).status, 204, media);
    assert.is((await control(pb.id, 'forward')).status, 204, media);
    assert.is((await control(pb.id, 'reverse')).status, 204, media);
    assert.is((await stopPb(pb.id)).status, 204, media);
    const finished = await waitPb(ctx.ev, pb.id, 'PlaybackFinished');
    assert.is(finished.playback.state, 'done', media);
    assert.equal(pbTypes(ctx.ev, pb.id), ['PlaybackStarted', 'PlaybackStarted', 'PlaybackFinished'], media);
  }
});

// ---- interactions with channel media and hangup -------------------------------------

test('music on hold and silence are suspended by a playback and not resumed', async () => {
  const { id } = await inApp('pb-moh');
  const hearing = async () => (await ctx.t.http('GET', `/sim/channels/${id}`)).body.far_end;
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/moh`)).status, 204);
  assert.is((await hearing()).hearing, 'moh');
  assert.is((await hearing()).moh_class, 'default');
  const a = await play(id, 'sound:hello-world');
  await waitPb(ctx.ev, a.id, 'PlaybackStarted');
  const during = await hearing();
  assert.is(during.hearing, 'nothing');
  assert.is(during.moh_class, undefined);
  await waitPb(ctx.ev, a.id, 'PlaybackFinished');
  assert.is((await hearing()).hearing, 'nothing', 'music on hold does not come back');

  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/silence`)).status, 204);
  assert.is((await hearing()).hearing, 'silence');
  const b = await play(id, 'sound:beep');
  await waitPb(ctx.ev, b.id, 'PlaybackStarted');
  assert.is((await hearing()).hearing, 'nothing');
  await waitPb(ctx.ev, b.id, 'PlaybackFinished');
  assert.is((await hearing()).hearing, 'nothing', 'silence does not come back');
});

test('hangup during a playback: PlaybackFinished (done) comes before StasisEnd', async () => {
  const { id } = await inApp('pb-hangup');
  const pb = await play(id, 'sound:welcome');
  await waitPb(ctx.ev, pb.id, 'PlaybackStarted');
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${id}`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === id);
  const seq = ctx.ev.events.filter((e) => e.channel?.id === id || e.playback?.target_uri === `channel:${id}`).map((e) => e.type);
  assert.equal(seq.slice(seq.indexOf('PlaybackStarted')), ['PlaybackStarted', 'ChannelHangupRequest', 'PlaybackFinished', 'StasisEnd']);
  const finished = await waitPb(ctx.ev, pb.id, 'PlaybackFinished');
  assert.is(finished.playback.state, 'done');
  assert.is((await getPb(pb.id)).status, 404);
});

// ---- bridges ----------------------------------------------------------------------

test('bridge play: 201 with target bridge:<id>; the events reach the apps of the channels in the bridge', async () => {
  const br = await ctx.t.http('POST', '/ari/bridges', { query: { bridgeId: 'pb-bridge' } });
  assert.is(br.status, 200, br.text);
  const { id: a } = await inApp('pb-br-a');
  const { id: b } = await inApp('pb-br-b', 'app2', ctx.ev2);
  const add = await ctx.t.http('POST', '/ari/bridges/pb-bridge/addChannel', { query: { channel: `${a},${b}` } });
  assert.is(add.status, 204, add.text);
  await ctx.ev2.waitFor((e) => e.type === 'ChannelEnteredBridge' && e.channel?.id === b);

  const r = await ctx.t.http('POST', '/ari/bridges/pb-bridge/play', { query: { media: 'sound:hello-world,sound:beep' } });
  assert.is(r.status, 201, r.text);
  assert.is(r.headers.get('location'), `/ari/playbacks/${r.body.id}`);
  assert.equal(r.body, { id: r.body.id, media_uri: 'sound:hello-world', next_media_uri: 'sound:beep', target_uri: 'bridge:pb-bridge', language: 'en', state: 'queued' });
  for (const log of [ctx.ev, ctx.ev2]) {
    await waitPb(log, r.body.id, 'PlaybackFinished');
    const evs = pbEvents(log, r.body.id);
    assert.equal(evs.map((e) => e.type), ['PlaybackStarted', 'PlaybackContinuing', 'PlaybackStarted', 'PlaybackFinished']);
    assert.equal(evs[0]!.playback, { id: r.body.id, media_uri: 'sound:hello-world', next_media_uri: 'sound:beep', target_uri: 'bridge:pb-bridge', language: 'en', state: 'playing' });
    assert.equal(evs[3]!.playback, { id: r.body.id, media_uri: 'sound:beep', target_uri: 'bridge:pb-bridge', language: 'en', state: 'done' });
    lasted(evs[0]!, evs[1]!, soundMs('en', 'hello-world'), `bridge hello-world (${evs[0]!.application})`);
    // The list runs on an exact timeline: its end is the sum of its items after its first PlaybackStarted.
    lasted(evs[0]!, evs[3]!, soundMs('en', 'hello-world') + soundMs('en', 'beep'), `bridge list (${evs[0]!.application})`);
  }
  assert.is(pbEvents(ctx.ev2, r.body.id)[0]!.application, 'app2');
  // An app with no channel in the bridge hears nothing about it.
  assert.equal(pbTypes(ctx.tl, r.body.id), []);

  // playWithId, lang, and a queued second playback on the bridge.
  const w1 = await ctx.t.http('POST', '/ari/bridges/pb-bridge/play/pb-br-1', { query: { media: 'tone:ring', lang: 'fr' } });
  assert.is(w1.status, 201, w1.text);
  assert.equal(w1.body, { id: 'pb-br-1', media_uri: 'tone:ring', target_uri: 'bridge:pb-bridge', language: 'fr', state: 'queued' });
  const w2 = await ctx.t.http('POST', '/ari/bridges/pb-bridge/play/pb-br-2', { query: { media: 'sound:beep' } });
  assert.is(w2.status, 201);
  await waitPb(ctx.ev, 'pb-br-1', 'PlaybackStarted');
  assert.is((await getPb('pb-br-2')).body.state, 'queued');
  assert.is((await stopPb('pb-br-1')).status, 204);
  await waitPb(ctx.ev2, 'pb-br-1', 'PlaybackFinished');
  await waitPb(ctx.ev2, 'pb-br-2', 'PlaybackFinished');

  const missing = await ctx.t.http('POST', '/ari/bridges/no-such-bridge/play', { query: { media: 'sound:beep' } });
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Bridge not found' });
  assert.is((await ctx.t.http('DELETE', '/ari/bridges/pb-bridge')).status, 204);
});

// ---- the npm ari-client ----------------------------------------------------------------

test('ari-client: channel.play({media}, playback) with a client-made Playback; playback.once(PlaybackFinished)', async () => {
  const client = await ari.connect(ctx.t.url, 'asterisk', 'asterisk');
  try {
    await client.start('pb-client');
    await waitUntil(async () => (await ctx.t.http('GET', '/ari/applications/pb-client')).status === 200, 'pb-client is registered');
    const channel = client.Channel();
    const inApp = new Promise<void>((resolve) => channel.once('StasisStart', () => resolve()));
    await channel.originate({ endpoint: 'PJSIP/instant', app: 'pb-client' });
    await inApp;

    const playback = client.Playback();
    const events: string[] = [];
    playback.on('PlaybackStarted', (e: any) => events.push(`${e.type}:${e.playback.state}`));
    const finished = new Promise<[any, any]>((resolve) => playback.once('PlaybackFinished', (e: any, instance: any) => resolve([e, instance])));
    const t0 = Date.now();
    const result = await channel.play({ media: 'sound:hello-world' }, playback);
    assert.is(result.id, playback.id, 'the client injects its own playbackId');
    assert.is(result.state, 'queued');
    assert.is(result.target_uri, `channel:${channel.id}`);
    const [event, instance] = await finished;
    assert.is(Date.now() - t0 >= soundMs('en', 'hello-world') / TEST_SCALE - 1, true);
    assert.equal(events, ['PlaybackStarted:playing']);
    assert.is(event.playback.state, 'done');
    assert.is(event.playback.media_uri, 'sound:hello-world');
    assert.is(instance.id, playback.id);
    assert.type(instance.control, 'function', 'a Playback instance with its operations');

    // Instance operations: control and stop through the client.
    const tone = client.Playback();
    const toneDone = new Promise<any>((resolve) => tone.once('PlaybackFinished', (e: any) => resolve(e)));
    const toneStarted = new Promise<void>((resolve) => tone.once('PlaybackStarted', () => resolve()));
    await channel.play({ media: 'tone:ring' }, tone);
    await toneStarted;
    await tone.control({ operation: 'pause' });
    assert.is((await tone.get()).state, 'paused');
    await tone.stop();
    assert.is((await toneDone).playback.state, 'done');
    await channel.hangup();
  } finally {
    client.stop();
  }
});

test.run();
