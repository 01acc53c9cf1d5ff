import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ari from 'ari-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeAlaw, decodeUlaw, FRAME_SAMPLES, level, SILENCE_THRESHOLD, slinBytes, slinFromBytes, tonePower } from '../../server/ari/media/pcm.js';
import { parseWav, wavHeader } from '../../server/ari/media/wav.js';
import { callInApp, createInApp, eventLabel } from '../_helpers/ari.js';
import { framePower } from '../_helpers/audio.js';
import { spawnServer, type ChildServer } from '../_helpers/child.js';
import { connectEvents, sleep, waitUntil, WAIT_MS, type AriEvent, type EventLog } from '../_helpers/events.js';
import { ariHttp, type AriHttp } from '../_helpers/http.js';
import { startTestServer, TEST_SCALE } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';
import { tempDir } from '../_helpers/temp-dir.js';

// Channel recordings with real audio: the far end sends a known signal, we record it,
// download the file and look for the signal in it (Goertzel).
const test = suite('recordings');
const ctx = useServer(test);

const enc = encodeURIComponent;
let seq = 0;
const uid = (p: string) => `${p}-${++seq}`;

/** Every bundled format: extension, samples per second and bytes per sample of the file's audio. */
const FORMATS = {
  wav: { ext: 'wav', rate: 8000, bytes: 2 },
  slin: { ext: 'sln', rate: 8000, bytes: 2 },
  slin16: { ext: 'sln16', rate: 16000, bytes: 2 },
  ulaw: { ext: 'ulaw', rate: 8000, bytes: 1 },
  alaw: { ext: 'alaw', rate: 8000, bytes: 1 },
} as const;
type Format = keyof typeof FORMATS;

// ---- helpers ---------------------------------------------------------------------------

/** An answered inbound call in app1 (extension 1000: Answer, Stasis). */
async function answered(prefix = 'rc'): Promise<string> {
  const id = uid(prefix);
  await callInApp(ctx.t, ctx.ev, { id, app: 'app1' });
  return id;
}

/** The far end of `id` sends from now on: a tone list, a catalogue sound, or silence. */
async function farAudio(id: string, query: Record<string, string>, http: AriHttp = ctx.t.http): Promise<void> {
  const r = await http('POST', `/sim/channels/${enc(id)}/audio`, { query });
  assert.is(r.status, 204, r.text);
}
const farTone = (id: string, tone: string, http?: AriHttp) => farAudio(id, { source: 'tone', tone }, http);

/** POST /ari/channels/{id}/record. */
function record(id: string, query: Record<string, string | number | boolean>, http: AriHttp = ctx.t.http) {
  return http('POST', `/ari/channels/${enc(id)}/record`, { query });
}

/** Records and asserts the 201. */
async function recordOk(id: string, query: Record<string, string | number | boolean>): Promise<any> {
  const r = await record(id, query);
  assert.is(r.status, 201, r.text);
  return r.body;
}

/** The first event at or after index `mark` of `log` that matches. */
function eventAfter(log: EventLog, mark: number, pred: (e: AriEvent) => boolean, timeoutMs = WAIT_MS): Promise<AriEvent> {
  return log.waitFor((e) => log.events.indexOf(e) >= mark && pred(e), timeoutMs);
}

/** Frames a live recording has captured so far: the server's own count of 20 simulated ms frames. */
const framesOf = (name: string): number => ctx.t.server.telephony.recordings.getLive(name).frames;

/**
 * Waits until live recording `name` holds `n` more frames than `from`: simulated time as the
 * recording counts it, where a wall-clock sleep would come up short whenever the media clock
 * lags (on a busy machine it renders overdue frames a little later).
 */
async function recorded(name: string, n: number, from = 0): Promise<void> {
  await waitUntil(() => framesOf(name) >= from + n, `${name} recorded ${n} frames`, WAIT_MS, 2);
}
const isRec = (type: string, name: string) => (e: AriEvent) => e.type === type && e.recording?.name === name;

/** Records `name` from `id` and waits for its RecordingFinished (events counted from now). */
async function recordAndWait(id: string, query: Record<string, string | number | boolean> & { name: string }): Promise<AriEvent> {
  const mark = ctx.ev.events.length;
  await recordOk(id, query);
  return eventAfter(ctx.ev, mark, isRec('RecordingFinished', query.name));
}

/** GET with the raw bytes of the answer. */
async function getBytes(base: string, path: string): Promise<{ status: number; type: string | null; data: Buffer }> {
  const r = await ariHttp(base)('GET', path);
  return { status: r.status, type: r.headers.get('content-type'), data: r.bytes };
}

/** Downloads a stored recording's file, asserting 200 and the audio/<extension> content type. */
async function download(name: string, format: Format, base = ctx.t.url): Promise<Buffer> {
  const r = await getBytes(base, `/ari/recordings/stored/${enc(name)}/file`);
  assert.is(r.status, 200, r.data.toString());
  assert.is(r.type, `audio/${FORMATS[format].ext}`);
  return r.data;
}

/** Checks a WAV file's header field by field (16-bit mono PCM at 8 kHz, sizes consistent with the file). */
function checkWavHeader(buf: Buffer): void {
  assert.ok(buf.length >= 44, `a WAV of ${buf.length} bytes`);
  assert.is(buf.toString('ascii', 0, 4), 'RIFF');
  assert.is(buf.readUInt32LE(4), buf.length - 8, 'RIFF size');
  assert.is(buf.toString('ascii', 8, 12), 'WAVE');
  assert.is(buf.toString('ascii', 12, 16), 'fmt ');
  assert.is(buf.readUInt32LE(16), 16, 'fmt chunk size');
  assert.is(buf.readUInt16LE(20), 1, 'PCM');
  assert.is(buf.readUInt16LE(22), 1, 'mono');
  assert.is(buf.readUInt32LE(24), 8000, 'sample rate');
  assert.is(buf.readUInt32LE(28), 16000, 'byte rate');
  assert.is(buf.readUInt16LE(32), 2, 'block align');
  assert.is(buf.readUInt16LE(34), 16, 'bits per sample');
  assert.is(buf.toString('ascii', 36, 40), 'data');
  assert.is(buf.readUInt32LE(40), buf.length - 44, 'data size');
}

/** The audio of a downloaded file (header checked for WAV) as samples at the file's rate. */
function decode(format: Format, buf: Buffer): Int16Array {
  switch (format) {
    case 'wav': {
      checkWavHeader(buf);
      const w = parseWav(buf);
      assert.is(w.rate, 8000);
      assert.is(w.channels, 1);
      return w.samples;
    }
    case 'ulaw':
      return decodeUlaw(buf);
    case 'alaw':
      return decodeAlaw(buf);
    default:
      assert.is(buf.length % 2, 0, 'whole 16-bit samples');
      return slinFromBytes(buf);
  }
}

/** Seconds of audio in a file of `format` (from its size). */
const fileSeconds = (format: Format, buf: Buffer) =>
  (buf.length - (format === 'wav' ? 44 : 0)) / (FORMATS[format].rate * FORMATS[format].bytes);

/** Asserts a duration within ±100 ms (simulated). */
function near(actual: number, expected: number, what: string, tol = 0.1): void {
  assert.ok(Math.abs(actual - expected) <= tol + 1e-9, `${what}: ${actual.toFixed(3)} s, expected ${expected} s ±${tol}`);
}

/** Power of a tone normalised to 0..1 of full scale (the far end's tones are at 0.25 of full scale: 0.0625). */
const power = (s: Int16Array, f: number, rate = 8000) => tonePower(s, f, rate);
/** How much of a signal's energy is at `f` (1 for a pure sine). */
function purity(s: Int16Array, f: number, rate = 8000): number {
  let ms = 0;
  for (const x of s) ms += (x / 32768) ** 2;
  ms /= s.length || 1;
  return ms ? framePower(s, f, rate) / (2 * ms) : 0;
}
/**
 * The largest deviation (0..1 of full scale) of `s` from the best-fitting sine at `f`:
 * a clean recording of a pure tone deviates only by its quantisation (G.711: under 1%),
 * a click or a gap stands out.
 */
function worstDeviation(s: Int16Array, f: number, rate: number): number {
  const w = (2 * Math.PI * f) / rate;
  let a = 0;
  let b = 0;
  for (let i = 0; i < s.length; i++) {
    a += s[i]! * Math.sin(w * i);
    b += s[i]! * Math.cos(w * i);
  }
  a = (2 * a) / s.length;
  b = (2 * b) / s.length;
  let worst = 0;
  for (let i = 0; i < s.length; i++) worst = Math.max(worst, Math.abs(s[i]! - a * Math.sin(w * i) - b * Math.cos(w * i)));
  return worst / 32768;
}

/** 20 ms frames of 8 kHz audio. */
function frames(s: Int16Array): Int16Array[] {
  const out: Int16Array[] = [];
  for (let i = 0; i + FRAME_SAMPLES <= s.length; i += FRAME_SAMPLES) out.push(s.subarray(i, i + FRAME_SAMPLES));
  return out;
}

/** Asserts the 440 Hz far-end tone is in `s` from start to end (and nothing at 1 kHz). */
function assertTone(s: Int16Array, freq: number, rate: number, what: string): void {
  const win = Math.floor(rate / 5); // 200 ms windows at both ends and over all
  for (const [label, part] of [['whole', s], ['first 200 ms', s.subarray(0, win)], ['last 200 ms', s.subarray(s.length - win)]] as const) {
    const p = framePower(part, freq, rate);
    assert.ok(p > 0.05, `${what}: ${freq} Hz power in the ${label} is ${p}`);
  }
  const other = power(s, 1000, rate);
  assert.ok(other < 0.001, `${what}: 1 kHz power is ${other}`);
}

/** Uploads far-end audio (PUT /sim/channels/{id}/audio). */
function upload(id: string, body: Buffer, contentType?: string, query: { loop?: boolean } = {}): Promise<{ status: number; body: any }> {
  return ctx.t.http('PUT', `/sim/channels/${enc(id)}/audio`, { body, query, headers: contentType ? { 'content-type': contentType } : {} });
}

/** A sine as 16-bit samples. */
function sine(freq: number, rate: number, seconds: number, amplitude = 0.3): Int16Array {
  return Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) => Math.round(Math.sin((2 * Math.PI * freq * i) / rate) * amplitude * 32767));
}

/** Hangs up (DELETE) and waits for the channel's StasisEnd: a channel that entered the app from the dialplan leaves the app's subscription there, so ChannelDestroyed does not reach it. */
async function hangup(id: string, t: { http: AriHttp } = ctx.t, log: EventLog = ctx.ev): Promise<void> {
  const mark = log.events.length;
  await t.http('DELETE', `/ari/channels/${enc(id)}`);
  await eventAfter(log, mark, (e) => e.type === 'StasisEnd' && e.channel?.id === id);
}

const recPath = (name: string, ext: string, dataDir = ctx.t.dataDir) => join(dataDir, 'recordings', `${name}.${ext}`);

// ---- record: answer, events ----------------------------------------------------------------

test('record an answered channel: 201 + Location + queued LiveRecording; RecordingStarted → RecordingFinished done; stored', async () => {
  const id = await answered();
  const name = uid('basic');
  const mark = ctx.ev.events.length;
  const r = await record(id, { name, format: 'wav', maxDurationSeconds: 1 });
  assert.is(r.status, 201, r.text);
  assert.is(r.headers.get('location'), `/ari/recordings/live/${enc(name)}`);
  assert.equal(r.body, { name, format: 'wav', target_uri: `channel:${id}`, state: 'queued' });
  const started = await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
  assert.is(started.recording.state, 'recording');
  assert.is(started.recording.target_uri, `channel:${id}`);
  assert.is(started.recording.format, 'wav');
  assert.is(started.application, 'app1');
  const done = await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  assert.is(done.recording.state, 'done');
  assert.is(done.recording.duration, 1);
  assert.is(done.recording.name, name);
  assert.not.ok('talking_duration' in done.recording, 'no silence figures without maxSilenceSeconds');
  const types = ctx.ev.events.slice(mark).filter((e) => e.recording?.name === name).map((e) => e.type);
  assert.equal(types, ['RecordingStarted', 'RecordingFinished']);
  // No longer live; stored.
  const live = await ctx.t.http('GET', `/ari/recordings/live/${enc(name)}`);
  assert.is(live.status, 404);
  assert.equal(live.body, { message: 'Recording not found' });
  const stored = await ctx.t.http('GET', `/ari/recordings/stored/${enc(name)}`);
  assert.is(stored.status, 200);
  assert.equal(stored.body, { name, format: 'wav' });
  assert.ok(existsSync(recPath(name, 'wav')));
  // The channel is still up and in the app.
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).body.state, 'Up');
  await hangup(id);
});

test('record on an inbound channel still ringing (1001) answers it first: State:Up, then RecordingStarted', async () => {
  const id = uid('ringing');
  const { start } = await callInApp(ctx.t, ctx.ev, { id, app: 'app1', extension: '1001' });
  assert.is(start.channel!.state, 'Ring');
  const name = uid('ans');
  const mark = ctx.ev.events.length;
  const r = await record(id, { name, format: 'ulaw', maxDurationSeconds: 1 });
  assert.is(r.status, 201, r.text);
  assert.is(r.body.state, 'queued');
  await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  const labels = ctx.ev.events.slice(mark).filter((e) => e.channel?.id === id || e.recording?.name === name).map(eventLabel);
  assert.equal(labels, ['State:Up', 'RecordingStarted', 'RecordingFinished']);
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).body.state, 'Up');
  await hangup(id);
});

test('record on a created channel that was never dialed: 201, then RecordingFailed (cannot answer); nothing stored', async () => {
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: uid('down') });
  const name = uid('nodial');
  const mark = ctx.ev.events.length;
  const r = await record(id, { name, format: 'wav' });
  assert.is(r.status, 201, r.text);
  const failed = await eventAfter(ctx.ev, mark, isRec('RecordingFailed', name));
  assert.is(failed.recording.state, 'failed');
  assert.is(failed.recording.cause, 'Failed to answer channel');
  assert.not.ok(ctx.ev.events.slice(mark).some(isRec('RecordingStarted', name)));
  assert.is((await ctx.t.http('GET', `/ari/recordings/stored/${enc(name)}`)).status, 404);
  assert.is((await ctx.t.http('GET', `/ari/recordings/live/${enc(name)}`)).status, 404);
  await hangup(id);
});

// ---- the key test: a known tone, every format ----------------------------------------------------

test('a 440 Hz far-end tone recorded for 2 s in every format: header, size, duration and the tone in the file', async () => {
  // Sample-exact checks need every 20 ms frame rendered. A media clock that falls more than 50
  // ticks behind skips ticks (counted as lateTicks) and the file then jumps in phase: at the test
  // scale that is 50 ms of stall, which 16 kHz resampling on a busy machine reaches. This test
  // runs on its own server at a quarter of the speed (200 ms of stall before a skip), and a take
  // during which the server still reports skipped ticks is recorded again.
  const slow = await startTestServer({ SIM_TIME_SCALE: '5' });
  const ev = await connectEvents(slow.url, 'tones');
  try {
    const id = uid('tone');
    await callInApp(slow, ev, { id, app: 'tones' });
    await farTone(id, '440', slow.http);
    const clock = slow.server.telephony.clock;
    for (const format of Object.keys(FORMATS) as Format[]) {
      let name = '';
      let done: AriEvent | undefined;
      for (let take = 1; !done; take++) {
        name = uid(`tone-${format}`);
        const late = clock.lateTicks;
        const mark = ev.events.length;
        assert.is((await record(id, { name, format, maxDurationSeconds: 2 }, slow.http)).status, 201);
        const fin = await eventAfter(ev, mark, isRec('RecordingFinished', name));
        if (clock.lateTicks === late) done = fin;
        else assert.ok(take < 3, `${format}: the media clock skipped ${clock.lateTicks - late} ticks in each of ${take} takes (machine too slow)`);
      }
      assert.is(done.recording.state, 'done', format);
      assert.is(done.recording.format, format);
      assert.is(done.recording.duration, 2, format);
      assert.equal((await slow.http('GET', `/ari/recordings/stored/${enc(name)}`)).body, { name, format });
      const buf = await download(name, format, slow.url);
      const { rate, bytes } = FORMATS[format];
      // Size = duration × rate × bytes per sample (+ the 44-byte header for WAV).
      near(fileSeconds(format, buf), 2, `${format} file duration`);
      assert.is((buf.length - (format === 'wav' ? 44 : 0)) % bytes, 0, `${format}: whole samples`);
      // The file on disk is what was served, under DATA_DIR/recordings/<name>.<ext>.
      assert.ok(readFileSync(recPath(name, FORMATS[format].ext, slow.dataDir)).equals(buf), `${format}: file on disk`);
      const samples = decode(format, buf);
      near(samples.length / rate, 2, `${format} decoded duration`);
      assertTone(samples, 440, rate, format);
      const pure = purity(samples, 440, rate);
      assert.ok(pure > 0.9, `${format}: ${(pure * 100).toFixed(1)}% of the energy is at 440 Hz`);
      // Sample by sample it is that sine: no clicks where 20 ms frames meet (resampling included;
      // the first and last 5 ms are left out, where a resampler has no neighbours to work from).
      const dev = worstDeviation(samples.subarray(rate / 200, samples.length - rate / 200), 440, rate);
      assert.ok(dev < 0.02, `${format}: a sample is ${(dev * 100).toFixed(2)}% of full scale off the 440 Hz sine`);
    }
    await hangup(id, slow, ev);
    slow.assertNoViolations();
  } finally {
    await ev.close();
    await slow.close();
  }
});

test('unknown formats are 422 "specified format is unknown on this system"', async () => {
  const id = await answered();
  for (const format of ['gsm', 'mp3', 'WAV', 'sln']) {
    const r = await record(id, { name: uid('fmt'), format });
    assert.is(r.status, 422, `${format}: ${r.text}`);
    assert.equal(r.body, { message: 'specified format is unknown on this system' });
  }
  await hangup(id);
});

// ---- maxSilenceSeconds, terminateOn, beep ---------------------------------------------------------

test('maxSilenceSeconds: a silent far end ends the recording after that long; talking/silence durations are reported', async () => {
  const id = await answered('silent');
  const name = uid('silence');
  const mark = ctx.ev.events.length;
  await recordOk(id, { name, format: 'wav', maxSilenceSeconds: 1 });
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
  const done = await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  assert.is(done.recording.state, 'done');
  assert.is(done.recording.duration, 1);
  assert.is(done.recording.talking_duration, 0);
  assert.is(done.recording.silence_duration, 1);
  const samples = decode('wav', await download(name, 'wav'));
  near(samples.length / 8000, 1, 'silence-terminated file');
  assert.ok(level(samples) < SILENCE_THRESHOLD, 'the file is silence');
  await hangup(id);
});

test('maxSilenceSeconds: a tone keeps the recording going until maxDurationSeconds; silence afterwards ends it', async () => {
  const id = await answered('talky');
  await farTone(id, '440');
  const name = uid('talk');
  const done = await recordAndWait(id, { name, format: 'slin', maxSilenceSeconds: 1, maxDurationSeconds: 3 });
  assert.is(done.recording.duration, 3, 'not cut short by the silence detector');
  assert.is(done.recording.talking_duration, 3);
  assert.is(done.recording.silence_duration, 0);
  near(fileSeconds('slin', await download(name, 'slin')), 3, 'file');

  // Tone, then the far end falls silent: the recording ends about a second after.
  const name2 = uid('talk-then-quiet');
  const mark = ctx.ev.events.length;
  await recordOk(id, { name: name2, format: 'slin', maxSilenceSeconds: 1 });
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name2));
  await recorded(name2, 50); // ≥ 1 s simulated of tone
  const live = await ctx.t.http('GET', `/ari/recordings/live/${enc(name2)}`);
  assert.is(live.status, 200, 'a tone does not end it');
  assert.is(live.body.state, 'recording');
  assert.type(live.body.talking_duration, 'number');
  assert.type(live.body.silence_duration, 'number');
  await farAudio(id, { source: 'silence' });
  const end = await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name2));
  assert.ok(end.recording.talking_duration >= 1, `talking ${end.recording.talking_duration}`);
  assert.is(end.recording.silence_duration, 1);
  const s = slinFromBytes(await download(name2, 'slin'));
  const f = frames(s);
  const trailing = f.length - f.findLastIndex((x) => level(x) >= SILENCE_THRESHOLD) - 1;
  near((trailing * 20) / 1000, 1, 'trailing silence', 0.04);
  assert.ok(framePower(s.subarray(0, 8000), 440) > 0.05, 'the tone opens the file');
  await hangup(id);
});

/** Far end presses `digits`; resolves once ChannelDtmfReceived for the last one arrived. */
async function press(id: string, digits: string): Promise<void> {
  const mark = ctx.ev.events.length;
  const r = await ctx.t.http('POST', `/sim/channels/${enc(id)}/dtmf`, { query: { dtmf: digits } });
  assert.is(r.status, 204, r.text);
  await ctx.ev.waitForCount((e) => ctx.ev.events.indexOf(e) >= mark && e.type === 'ChannelDtmfReceived' && e.channel?.id === id, digits.length);
}

test('terminateOn: # stops on #; any stops on any digit; * ignores #; none ignores digits', async () => {
  const id = await answered('dtmf');
  await farTone(id, '440');
  const live = (name: string) => ctx.t.http('GET', `/ari/recordings/live/${enc(name)}`);

  // Asterisk parses terminateOn case-insensitively.
  for (const [terminateOn, ignored, stopper] of [['#', '1*', '#'], ['any', '', '5'], ['ANY', '', 'D'], ['*', '#', '*']] as const) {
    const name = uid(`term-${terminateOn === '#' ? 'pound' : terminateOn === '*' ? 'star' : terminateOn}`);
    const mark = ctx.ev.events.length;
    await recordOk(id, { name, format: 'wav', terminateOn });
    await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
    if (ignored) {
      await press(id, ignored);
      const still = await live(name);
      assert.is(still.status, 200, `${terminateOn}: '${ignored}' does not end it`);
      assert.is(still.body.state, 'recording');
    }
    await press(id, stopper);
    const done = await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
    assert.is(done.recording.state, 'done', terminateOn);
    // It ended with the digit: the event follows that ChannelDtmfReceived.
    const dtmf = ctx.ev.events.findLastIndex((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === id && e.digit === stopper);
    assert.ok(dtmf >= 0 && dtmf < ctx.ev.events.indexOf(done), `${terminateOn}: finished after the digit`);
    assert.is((await live(name)).status, 404);
    assert.equal((await ctx.t.http('GET', `/ari/recordings/stored/${enc(name)}`)).body, { name, format: 'wav' });
  }

  for (const terminateOn of ['none', 'None', '', undefined]) {
    const name = uid('term-none');
    const mark = ctx.ev.events.length;
    await recordOk(id, { name, format: 'wav', ...(terminateOn !== undefined ? { terminateOn } : {}) });
    await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
    await press(id, '#*1');
    assert.is((await live(name)).status, 200, `terminateOn=${terminateOn}: digits do not end it`);
    assert.is((await ctx.t.http('POST', `/ari/recordings/live/${enc(name)}/stop`)).status, 204);
    const done = await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
    assert.is(done.recording.state, 'done');
  }
  await hangup(id);
});

test('beep: the beep (1 kHz, 250 ms) goes out on the channel first; the recording holds the far end after it', async () => {
  // A Local pair: what ;1 sends is what ;2 receives, so recording ;2 captures ;1's beep.
  const one = uid('beep-loc');
  const two = `${one};2`;
  const o = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'Local/1000@default', app: 'app1', channelId: one }, json: { variables: { STASIS_APP: 'app1' } } });
  assert.is(o.status, 200, o.text);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === one);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === two);
  const observer = uid('beep-observer');
  let mark = ctx.ev.events.length;
  await recordOk(two, { name: observer, format: 'wav' });
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', observer));
  const beeping = uid('beeping');
  const done = await recordAndWait(one, { name: beeping, format: 'wav', beep: true, maxDurationSeconds: 1 });
  assert.is(done.recording.state, 'done');
  mark = ctx.ev.events.length;
  assert.is((await ctx.t.http('POST', `/ari/recordings/live/${enc(observer)}/stop`)).status, 204);
  await eventAfter(ctx.ev, mark, isRec('RecordingFinished', observer));
  const heard = decode('wav', await download(observer, 'wav'));
  const loudness = frames(heard).map((f) => level(f) >= SILENCE_THRESHOLD);
  const loud = frames(heard).filter((f) => level(f) >= SILENCE_THRESHOLD);
  // 250 ms = 12.5 frames, in one stretch. The upper bound has slack: media-clock ticks that were
  // already due when the beep started (event-loop lag) render its first frame again (audio.ts).
  assert.ok(loud.length >= 12 && loud.length <= 20, `${loud.length} frames of beep`);
  assert.is(loudness.lastIndexOf(true) - loudness.indexOf(true) + 1, loud.length, 'one stretch');
  const beep = new Int16Array(loud.length * FRAME_SAMPLES);
  loud.forEach((f, i) => beep.set(f, i * FRAME_SAMPLES));
  assert.ok(purity(beep, 1000) > 0.8, `the beep is 1 kHz (${purity(beep, 1000)})`);
  // The recording with beep holds what ;1 received (silence from ;2), not its own beep.
  const own = decode('wav', await download(beeping, 'wav'));
  near(own.length / 8000, 1, 'beep recording');
  assert.ok(power(own, 1000) < 0.001, 'the beep is not recorded');
  await hangup(one);

  // On a far end sending a tone: capture starts after the beep and holds the tone, for the full duration.
  const id = await answered('beep-tone');
  await farTone(id, '440');
  const name = uid('beep-440');
  mark = ctx.ev.events.length;
  const t0 = Date.now();
  const r = await record(id, { name, format: 'wav', beep: true, maxDurationSeconds: 1 });
  assert.is(r.status, 201, r.text);
  const fin = await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  // 250 ms of beep then 1 s of capture, simulated (a lower bound on wall time).
  assert.ok(Date.now() - t0 >= (1250 / TEST_SCALE) * 0.95, `took ${Date.now() - t0} ms`);
  assert.is(fin.recording.duration, 1);
  const s = decode('wav', await download(name, 'wav'));
  near(s.length / 8000, 1, 'capture after the beep');
  assertTone(s, 440, 8000, 'beep=true');
  await hangup(id);
});

test('beep: while the beep plays the recording reads as recording, and a pause given during the beep holds (scale 1)', async () => {
  // At SIM_TIME_SCALE 1 the beep lasts 250 ms of wall time: long enough to act during it.
  const slow = await startTestServer({ SIM_TIME_SCALE: '1' });
  const ev = await connectEvents(slow.url, 'slow');
  try {
    const id = uid('slow');
    await callInApp(slow, ev, { id, app: 'slow' });
    await farTone(id, '440', slow.http);
    const name = uid('slow-beep');
    const r = await record(id, { name, format: 'wav', beep: true }, slow.http);
    assert.is(r.status, 201, r.text);
    const started = await ev.waitFor(isRec('RecordingStarted', name));
    assert.is(started.recording.state, 'recording');
    const during = await slow.http('GET', `/ari/recordings/live/${enc(name)}`);
    assert.is(during.body.state, 'recording', 'GET agrees with RecordingStarted during the beep');
    assert.is((await slow.http('POST', `/ari/recordings/live/${enc(name)}/pause`)).status, 204);
    await sleep(400); // past the end of the beep
    const after = await slow.http('GET', `/ari/recordings/live/${enc(name)}`);
    assert.is(after.body.state, 'paused', 'the pause survives the end of the beep');
    assert.is((await slow.http('POST', `/ari/recordings/live/${enc(name)}/stop`)).status, 204);
    await ev.waitFor(isRec('RecordingFinished', name));
    const buf = await download(name, 'wav', slow.url);
    checkWavHeader(buf);
    // Paused from (at the latest) just after the beep: at most a few frames captured.
    assert.ok(buf.length - 44 <= 16000 * 0.2, `${buf.length - 44} bytes captured while paused`);
    // Once stopped, nothing keeps the media clock running.
    await sleep(300);
    assert.is(slow.server.telephony.router.clock.active, 0, 'no frame consumer left on the media clock');
    await hangup(id, slow, ev);
    slow.assertNoViolations();
  } finally {
    await ev.close();
    await slow.close();
  }
});

// ---- ifExists -------------------------------------------------------------------------------------

test('ifExists: fail (default) is 409 on a stored one; overwrite replaces it; append adds to it', async () => {
  const id = await answered('exists');
  const name = uid('exists');
  await farTone(id, '700');
  await recordAndWait(id, { name, format: 'wav', maxDurationSeconds: 1 });
  const first = await download(name, 'wav');

  for (const ifExists of [undefined, 'fail', '', 'FAIL']) {
    const r = await record(id, { name, format: 'wav', ...(ifExists !== undefined ? { ifExists } : {}) });
    assert.is(r.status, 409, `ifExists=${ifExists}: ${r.text}`);
    assert.equal(r.body, { message: `Recording '${name}' already exists and can not be overwritten` });
  }
  // The same name in another format exists too.
  const other = await record(id, { name, format: 'ulaw' });
  assert.is(other.status, 409);
  assert.ok((await download(name, 'wav')).equals(first), 'the stored one is untouched');

  // overwrite: a new 440 Hz recording replaces the 700 Hz one.
  await farTone(id, '440');
  const over = await recordAndWait(id, { name, format: 'wav', maxDurationSeconds: 2, ifExists: 'overwrite' });
  assert.is(over.recording.duration, 2);
  const replaced = decode('wav', await download(name, 'wav'));
  near(replaced.length / 8000, 2, 'overwritten');
  assert.ok(framePower(replaced, 440) > 0.05);
  assert.ok(power(replaced, 700) < 0.001, 'nothing of the old recording is left');

  // append: 1 s of 700 Hz after the 2 s of 440 Hz; one valid WAV of 3 s.
  await farTone(id, '700');
  await recordAndWait(id, { name, format: 'wav', maxDurationSeconds: 1, ifExists: 'append' });
  const appended = await download(name, 'wav');
  const all = decode('wav', appended); // header sizes checked against the file
  near(all.length / 8000, 3, 'appended');
  assert.ok(framePower(all.subarray(0, 16000), 440) > 0.05 && power(all.subarray(0, 16000), 700) < 0.001, 'the old part first');
  assert.ok(framePower(all.subarray(all.length - 7200), 700) > 0.05 && power(all.subarray(all.length - 7200), 440) < 0.001, 'the new part last');
  assert.equal((await ctx.t.http('GET', '/ari/recordings/stored')).body.filter((x: any) => x.name === name), [{ name, format: 'wav' }]);

  // append on a raw format: the bytes add up.
  const raw = uid('append-raw');
  await recordAndWait(id, { name: raw, format: 'alaw', maxDurationSeconds: 1 });
  await recordAndWait(id, { name: raw, format: 'alaw', maxDurationSeconds: 2, ifExists: 'Append' }); // case-insensitive
  near(fileSeconds('alaw', await download(raw, 'alaw')), 3, 'appended alaw');
  await hangup(id);
});

test('a live recording with the same name is 409 whatever ifExists', async () => {
  const a = await answered('live-a');
  const b = await answered('live-b');
  const name = uid('busy-name');
  const mark = ctx.ev.events.length;
  await recordOk(a, { name, format: 'wav' });
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
  for (const ifExists of ['fail', 'overwrite', 'append']) {
    for (const [ch, format] of [[b, 'wav'], [a, 'wav'], [b, 'slin']] as const) {
      const r = await record(ch, { name, format, ifExists });
      assert.is(r.status, 409, `${ifExists} on ${ch}: ${r.text}`);
      assert.equal(r.body, { message: `Recording '${name}' already exists and can not be overwritten` });
    }
  }
  // Still the first one, still recording.
  const live = await ctx.t.http('GET', `/ari/recordings/live/${enc(name)}`);
  assert.is(live.body.target_uri, `channel:${a}`);
  assert.is(live.body.state, 'recording');
  assert.is((await ctx.t.http('POST', `/ari/recordings/live/${enc(name)}/stop`)).status, 204);
  await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  await hangup(a);
  await hangup(b);
});

// ---- live operations --------------------------------------------------------------------------------

test('live: GET 200 while recording then 404; stop is 204 and stores it', async () => {
  const id = await answered('stop');
  await farTone(id, '440');
  const name = uid('stop');
  const mark = ctx.ev.events.length;
  await recordOk(id, { name, format: 'wav' });
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
  const got = await ctx.t.http('GET', `/ari/recordings/live/${enc(name)}`);
  assert.is(got.status, 200);
  assert.is(got.body.name, name);
  assert.is(got.body.format, 'wav');
  assert.is(got.body.state, 'recording');
  assert.is(got.body.target_uri, `channel:${id}`);
  assert.not.ok('talking_duration' in got.body);
  await recorded(name, 25);
  const stop = await ctx.t.http('POST', `/ari/recordings/live/${enc(name)}/stop`);
  assert.is(stop.status, 204);
  assert.is(stop.text, '');
  const done = await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  assert.is(done.recording.state, 'done');
  assert.is((await ctx.t.http('GET', `/ari/recordings/live/${enc(name)}`)).status, 404);
  const again = await ctx.t.http('POST', `/ari/recordings/live/${enc(name)}/stop`);
  assert.is(again.status, 404);
  assert.equal(again.body, { message: 'Recording not found' });
  const s = decode('wav', await download(name, 'wav'));
  assert.ok(s.length >= 4000, `at least 0.5 s recorded (${s.length} samples)`);
  assertTone(s, 440, 8000, 'stopped');
  await hangup(id);
});

test('live: cancel (DELETE) is 204, RecordingFinished canceled, the file is deleted and nothing is stored', async () => {
  const id = await answered('cancel');
  await farTone(id, '440');
  const name = uid('cancel');
  const mark = ctx.ev.events.length;
  await recordOk(id, { name, format: 'wav' });
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
  await recorded(name, 75); // past the first flush (at most 50 frames in): the file has audio in it
  assert.ok(existsSync(recPath(name, 'wav')), 'the file exists while recording');
  const del = await ctx.t.http('DELETE', `/ari/recordings/live/${enc(name)}`);
  assert.is(del.status, 204);
  const fin = await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  assert.is(fin.recording.state, 'canceled');
  assert.equal(ctx.ev.events.slice(mark).filter((e) => e.recording?.name === name).map((e) => e.type), ['RecordingStarted', 'RecordingFinished']);
  assert.not.ok(existsSync(recPath(name, 'wav')), 'the file is gone');
  assert.is((await ctx.t.http('GET', `/ari/recordings/live/${enc(name)}`)).status, 404);
  assert.is((await ctx.t.http('GET', `/ari/recordings/stored/${enc(name)}`)).status, 404);
  assert.not.ok((await ctx.t.http('GET', '/ari/recordings/stored')).body.some((x: any) => x.name === name));
  assert.is((await ctx.t.http('DELETE', `/ari/recordings/live/${enc(name)}`)).status, 404);
  // The name is free again (fail does not see a cancelled recording).
  const again = await recordAndWait(id, { name, format: 'wav', maxDurationSeconds: 1 });
  assert.is(again.recording.state, 'done');
  await hangup(id);
});

test('live: pause/unpause (204, no events; paused time is not recorded); 409 pauses only where allowed', async () => {
  const id = await answered('pause');
  await farTone(id, '440');
  const name = uid('pause');
  const path = `/ari/recordings/live/${enc(name)}`;
  const mark = ctx.ev.events.length;
  await recordOk(id, { name, format: 'wav' });
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
  await recorded(name, 25);
  assert.is((await ctx.t.http('POST', `${path}/pause`)).status, 204);
  const atPause = framesOf(name);
  assert.is((await ctx.t.http('GET', path)).body.state, 'paused');
  assert.is((await ctx.t.http('POST', `${path}/pause`)).status, 204, 'pause while paused is a no-op');
  // 2 s simulated paused (a lower bound: a busy machine only makes it longer) adds no frame: paused
  // time is not recorded. (Counted by the server, not inferred from the wall clock.)
  const pausedFrom = Date.now();
  await waitUntil(() => Date.now() - pausedFrom >= 2000 / TEST_SCALE, '2 s simulated have passed', WAIT_MS, 5);
  assert.is(framesOf(name), atPause, 'no frame captured while paused');
  assert.is((await ctx.t.http('DELETE', `${path}/pause`)).status, 204);
  assert.is((await ctx.t.http('GET', path)).body.state, 'recording');
  assert.is((await ctx.t.http('DELETE', `${path}/pause`)).status, 204, 'unpause while recording is a no-op');
  await recorded(name, 25, atPause);
  const beforeStop = framesOf(name);
  assert.is((await ctx.t.http('POST', `${path}/stop`)).status, 204);
  await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  // pause/unpause emit nothing.
  assert.equal(ctx.ev.events.slice(mark).filter((e) => e.recording?.name === name).map((e) => e.type), ['RecordingStarted', 'RecordingFinished']);
  const s = decode('wav', await download(name, 'wav'));
  const fileSec = s.length / 8000;
  // The file holds every frame the recording had counted before the stop.
  assert.ok(s.length >= beforeStop * FRAME_SAMPLES, `file ${fileSec.toFixed(2)} s, ${beforeStop} frames counted before the stop`);
  assert.ok(fileSec >= 0.9, `the recorded parts are there (${fileSec.toFixed(2)} s)`);
  // Paused time is skipped, not filled with silence: the tone runs through (with a phase jump
  // where the pause was, so each side is checked on its own).
  assert.ok(frames(s).every((f) => level(f) >= SILENCE_THRESHOLD), 'no silent frame');
  assertTone(s.subarray(0, 3200), 440, 8000, 'before the pause');
  assertTone(s.subarray(s.length - 3200), 440, 8000, 'after the pause');
  await hangup(id);
});

test('live: mute/unmute (204, no events): the muted stretch is silence in the file', async () => {
  const id = await answered('mute');
  await farTone(id, '440');
  const name = uid('mute');
  const path = `/ari/recordings/live/${enc(name)}`;
  const mark = ctx.ev.events.length;
  await recordOk(id, { name, format: 'slin' });
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
  await recorded(name, 25);
  assert.is((await ctx.t.http('POST', `${path}/mute`)).status, 204);
  // ≥ 1 s simulated muted: 50 frames captured after the mute took effect.
  await recorded(name, 50, framesOf(name));
  assert.is((await ctx.t.http('DELETE', `${path}/mute`)).status, 204);
  await recorded(name, 25, framesOf(name));
  assert.is((await ctx.t.http('POST', `${path}/stop`)).status, 204);
  await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  assert.equal(ctx.ev.events.slice(mark).filter((e) => e.recording?.name === name).map((e) => e.type), ['RecordingStarted', 'RecordingFinished']);
  const s = slinFromBytes(await download(name, 'slin'));
  const f = frames(s);
  const silent = f.map((x) => level(x) < SILENCE_THRESHOLD);
  const firstSilent = silent.indexOf(true);
  const lastSilent = silent.lastIndexOf(true);
  assert.ok(firstSilent > 0, 'tone before the mute');
  assert.ok(lastSilent < f.length - 1, 'tone after the unmute');
  const run = lastSilent - firstSilent + 1;
  assert.ok(silent.slice(firstSilent, lastSilent + 1).every(Boolean), 'one muted stretch');
  assert.ok(run >= 45, `muted for ${run} frames (≥ 1 s)`);
  const muted = s.subarray(firstSilent * FRAME_SAMPLES, (lastSilent + 1) * FRAME_SAMPLES);
  assert.ok(muted.every((x) => x === 0), 'the muted stretch is digital silence');
  assert.ok(framePower(s.subarray(0, firstSilent * FRAME_SAMPLES), 440) > 0.05, '440 Hz before');
  assert.ok(framePower(s.subarray((lastSilent + 1) * FRAME_SAMPLES), 440) > 0.05, '440 Hz after');
  await hangup(id);
});

test('live: a recording queued behind a playback is queued; pause/unpause/mute/unmute are 409 "Recording not in session"', async () => {
  const id = await answered('queued');
  await farTone(id, '440');
  // tone: plays until stopped and holds the channel's command queue.
  const pb = await ctx.t.http('POST', `/ari/channels/${id}/play`, { query: { media: 'tone:1000' } });
  assert.is(pb.status, 201, pb.text);
  await ctx.ev.waitFor((e) => e.type === 'PlaybackStarted' && e.playback?.id === pb.body.id);
  const name = uid('queued');
  const path = `/ari/recordings/live/${enc(name)}`;
  const mark = ctx.ev.events.length;
  const r = await record(id, { name, format: 'wav', maxDurationSeconds: 1 });
  assert.is(r.status, 201);
  assert.is(r.body.state, 'queued');
  const got = await ctx.t.http('GET', path);
  assert.is(got.status, 200);
  assert.equal(got.body, { name, format: 'wav', target_uri: `channel:${id}`, state: 'queued' });
  for (const [method, suffix] of [['POST', '/pause'], ['DELETE', '/pause'], ['POST', '/mute'], ['DELETE', '/mute']] as const) {
    const x = await ctx.t.http(method, `${path}${suffix}`);
    assert.is(x.status, 409, `${method} ${suffix}`);
    assert.equal(x.body, { message: 'Recording not in session' });
  }
  // A second record with the same name while it is queued: 409.
  assert.is((await record(id, { name, format: 'wav', ifExists: 'overwrite' })).status, 409);
  assert.not.ok(ctx.ev.events.slice(mark).some(isRec('RecordingStarted', name)), 'not started behind the playback');
  // The playback ends: the recording runs.
  assert.is((await ctx.t.http('DELETE', `/ari/playbacks/${pb.body.id}`)).status, 204);
  const done = await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  assert.is(done.recording.state, 'done');
  const started = ctx.ev.events.findIndex(isRec('RecordingStarted', name));
  const pbDone = ctx.ev.events.findIndex((e) => e.type === 'PlaybackFinished' && e.playback?.id === pb.body.id);
  assert.ok(pbDone >= 0 && pbDone < started, 'started after the playback finished');
  assertTone(decode('wav', await download(name, 'wav')), 440, 8000, 'after the queue');
  await hangup(id);
});

test('live: cancelling a queued recording: RecordingFinished canceled, it never starts, nothing stored', async () => {
  const id = await answered('qcancel');
  const pb = await ctx.t.http('POST', `/ari/channels/${id}/play`, { query: { media: 'tone:1000' } });
  assert.is(pb.status, 201);
  await ctx.ev.waitFor((e) => e.type === 'PlaybackStarted' && e.playback?.id === pb.body.id);
  const name = uid('qcancel');
  const mark = ctx.ev.events.length;
  await recordOk(id, { name, format: 'wav', maxDurationSeconds: 1 });
  assert.is((await ctx.t.http('DELETE', `/ari/recordings/live/${enc(name)}`)).status, 204);
  const fin = await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  assert.is(fin.recording.state, 'canceled');
  assert.is((await ctx.t.http('GET', `/ari/recordings/live/${enc(name)}`)).status, 404);
  assert.is((await ctx.t.http('DELETE', `/ari/playbacks/${pb.body.id}`)).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'PlaybackFinished' && e.playback?.id === pb.body.id);
  // A later command on the queue runs, so the cancelled recording's turn is over.
  const fence = uid('after-cancel');
  await recordAndWait(id, { name: fence, format: 'wav', maxDurationSeconds: 1 });
  assert.not.ok(ctx.ev.events.some(isRec('RecordingStarted', name)), 'never started');
  assert.is((await ctx.t.http('GET', `/ari/recordings/stored/${enc(name)}`)).status, 404);
  assert.not.ok(existsSync(recPath(name, 'wav')));
  await hangup(id);
});

test('live: unknown names are 404 "Recording not found" for every operation', async () => {
  const path = '/ari/recordings/live/no-such-recording';
  for (const [method, suffix] of [['GET', ''], ['DELETE', ''], ['POST', '/stop'], ['POST', '/pause'], ['DELETE', '/pause'], ['POST', '/mute'], ['DELETE', '/mute']] as const) {
    const r = await ctx.t.http(method, `${path}${suffix}`);
    assert.is(r.status, 404, `${method} ${suffix}`);
    assert.equal(r.body, { message: 'Recording not found' });
  }
});

// ---- errors and names ----------------------------------------------------------------------------

test('record errors: 404/409 channel guards, negative durations first, terminateOn/ifExists 400, in Asterisk\'s order', async () => {
  const ok = { name: 'x', format: 'wav' };
  const missing = await record('no-such-channel', ok);
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Channel not found' });
  // Negative durations are refused before the channel is looked up.
  const negDur = await record('no-such-channel', { ...ok, maxDurationSeconds: -1 });
  assert.is(negDur.status, 400);
  assert.equal(negDur.body, { message: 'max_duration_seconds cannot be negative' });
  const negSil = await record('no-such-channel', { ...ok, maxSilenceSeconds: -2 });
  assert.is(negSil.status, 400);
  assert.equal(negSil.body, { message: 'max_silence_seconds cannot be negative' });
  // The channel comes before terminateOn / ifExists / format.
  assert.is((await record('no-such-channel', { ...ok, terminateOn: 'x', ifExists: 'y', format: 'gsm' })).status, 404);

  // Not in an application: an inbound call ringing in the dialplan (extension ring).
  const outside = uid('outside');
  const call = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/bob', extension: 'ring', channelId: outside } });
  assert.is(call.status, 200, call.text);
  const notIn = await record(outside, { ...ok, terminateOn: 'x' });
  assert.is(notIn.status, 409);
  assert.equal(notIn.body, { message: 'Channel not in Stasis application' });
  await ctx.t.http('DELETE', `/ari/channels/${outside}`);

  const id = await answered('errs');
  const cases: Array<[Record<string, string | number>, number, string]> = [
    [{ terminateOn: 'x' }, 400, 'terminateOn invalid'],
    [{ terminateOn: '1' }, 400, 'terminateOn invalid'],
    [{ terminateOn: 'x', ifExists: 'y', format: 'gsm' }, 400, 'terminateOn invalid'],
    [{ ifExists: 'never' }, 400, 'ifExists invalid'],
    [{ ifExists: 'y', format: 'gsm' }, 400, 'ifExists invalid'],
    [{ format: 'gsm', name: '../escape' }, 422, 'specified format is unknown on this system'],
    [{ name: '../escape' }, 400, 'Recording name invalid'],
  ];
  for (const [q, status, message] of cases) {
    const r = await record(id, { ...ok, name: uid('err'), ...q });
    assert.is(r.status, status, `${JSON.stringify(q)}: ${r.text}`);
    assert.equal(r.body, { message }, JSON.stringify(q));
  }
  // Missing name or format.
  const noName = await ctx.t.http('POST', `/ari/channels/${id}/record`, { query: { format: 'wav' } });
  assert.is(noName.status, 400);
  assert.equal(noName.body, { message: 'Recording name is required' });
  const noFormat = await ctx.t.http('POST', `/ari/channels/${id}/record`, { query: { name: uid('nofmt') } });
  assert.is(noFormat.status, 400, noFormat.text);
  // Nothing was started by any of these.
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).status, 200);
  assert.not.ok(ctx.ev.events.some((e) => e.type === 'RecordingStarted' && e.recording?.target_uri === `channel:${id}`));
  await hangup(id);
});

test('a bridged channel is refused at request time (409); a recording channel cannot join a bridge (409)', async () => {
  const id = await answered('bridged');
  const br = await ctx.t.http('POST', '/ari/bridges', { query: { type: 'mixing' } });
  assert.is(br.status, 200, br.text);
  const bridge = br.body.id as string;
  assert.is((await ctx.t.http('POST', `/ari/bridges/${bridge}/addChannel`, { query: { channel: id } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelEnteredBridge' && e.channel?.id === id);
  const name = uid('bridged');
  const mark = ctx.ev.events.length;
  const r = await record(id, { name, format: 'wav' });
  assert.is(r.status, 409, r.text);
  assert.type(r.body.message, 'string');
  assert.is((await ctx.t.http('GET', `/ari/recordings/live/${enc(name)}`)).status, 404);
  assert.is((await ctx.t.http('POST', `/ari/bridges/${bridge}/removeChannel`, { query: { channel: id } })).status, 204);
  await ctx.ev.waitFor((e) => e.type === 'ChannelLeftBridge' && e.channel?.id === id);
  // Out of the bridge, the same request records.
  await recordOk(id, { name, format: 'wav' });
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
  const add = await ctx.t.http('POST', `/ari/bridges/${bridge}/addChannel`, { query: { channel: id } });
  assert.is(add.status, 409);
  assert.equal(add.body, { message: `Channel ${id} currently recording` });
  assert.is((await ctx.t.http('POST', `/ari/recordings/live/${enc(name)}/stop`)).status, 204);
  await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  await ctx.t.http('DELETE', `/ari/bridges/${bridge}`);
  await hangup(id);
});

test('names: "/" makes subdirectories (fetched with %2F); names that could escape are 400 "Recording name invalid"', async () => {
  const id = await answered('names');
  await farTone(id, '440');
  const name = `${uid('dir')}/sub dir/msg #1`;
  const mark = ctx.ev.events.length;
  const r = await record(id, { name, format: 'wav' });
  assert.is(r.status, 201, r.text);
  assert.is(r.headers.get('location'), `/ari/recordings/live/${enc(name)}`);
  assert.ok(r.headers.get('location')!.includes('%2F'));
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
  const live = await ctx.t.http('GET', `/ari/recordings/live/${enc(name)}`);
  assert.is(live.status, 200);
  assert.is(live.body.name, name);
  await recorded(name, 50);
  assert.is((await ctx.t.http('POST', `/ari/recordings/live/${enc(name)}/stop`)).status, 204);
  await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  assert.ok(statSync(recPath(name, 'wav')).isFile(), 'the file is in a subdirectory of the recordings directory');
  const got = await ctx.t.http('GET', `/ari/recordings/stored/${enc(name)}`);
  assert.is(got.status, 200);
  assert.equal(got.body, { name, format: 'wav' });
  assertTone(decode('wav', await download(name, 'wav')), 440, 8000, 'subdirectory');

  const invalid = ['', '/abs', '/', '../up', 'a/../../up', 'a/..', '..', '.', './x', 'a/./b', 'a//b', 'a/', 'back\\slash', 'ctl\u0001x', 'nl\nx', 'del\u007fx'];
  for (const bad of invalid) {
    const x = await record(id, { name: bad, format: 'wav' });
    assert.is(x.status, 400, `${JSON.stringify(bad)}: ${x.text}`);
    assert.equal(x.body, { message: 'Recording name invalid' }, JSON.stringify(bad));
  }
  assert.not.ok(existsSync(join(ctx.t.dataDir, 'up.wav')));
  assert.not.ok(existsSync(join(ctx.t.dataDir, '..', 'up.wav')));
  await hangup(id);
});

// ---- hangup ---------------------------------------------------------------------------------------

test('hangup during a recording: RecordingFinished done before StasisEnd; the file is kept', async () => {
  const id = await answered('hup');
  await farTone(id, '440');
  const name = uid('hup');
  const mark = ctx.ev.events.length;
  await recordOk(id, { name, format: 'wav' });
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
  await recorded(name, 75);
  await hangup(id);
  const seq = ctx.ev.events.slice(mark).filter((e) => e.channel?.id === id || e.recording?.name === name).map(eventLabel);
  assert.equal(seq, ['RecordingStarted', 'ChannelHangupRequest', 'RecordingFinished', 'StasisEnd']);
  const fin = ctx.ev.events.slice(mark).find(isRec('RecordingFinished', name))!;
  assert.is(fin.recording.state, 'done');
  assert.ok(fin.recording.duration >= 1);
  const s = decode('wav', await download(name, 'wav'));
  assert.ok(s.length / 8000 >= 1.4, `${s.length / 8000} s kept`);
  assertTone(s, 440, 8000, 'hung up');
  assert.is((await ctx.t.http('GET', `/ari/recordings/live/${enc(name)}`)).status, 404);
});

test('far-end hangup during a recording ends it the same way (done, kept)', async () => {
  const id = await answered('farhup');
  await farTone(id, '440');
  const name = uid('farhup');
  const mark = ctx.ev.events.length;
  await recordOk(id, { name, format: 'ulaw' });
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
  await recorded(name, 50);
  assert.is((await ctx.t.http('POST', `/sim/channels/${id}/hangup`)).status, 204);
  await eventAfter(ctx.ev, mark, (e) => e.type === 'StasisEnd' && e.channel?.id === id);
  const seq = ctx.ev.events.slice(mark).filter((e) => e.channel?.id === id || e.recording?.name === name).map(eventLabel);
  assert.equal(seq, ['RecordingStarted', 'ChannelHangupRequest', 'RecordingFinished', 'StasisEnd']);
  assertTone(decode('ulaw', await download(name, 'ulaw')), 440, 8000, 'far hangup');
});

// ---- stored ---------------------------------------------------------------------------------------

test('stored: list sorted by name [{name, format}], get, file, delete (204 then 404)', async () => {
  const id = await answered('stored');
  await farTone(id, '440');
  const dir = uid('st');
  const made: Array<[string, Format]> = [[`${dir}/c`, 'ulaw'], [`${dir}/a`, 'wav'], [`${dir}/b`, 'slin16'], [`${dir}/a/deeper`, 'alaw']];
  for (const [name, format] of made) await recordAndWait(id, { name, format, maxDurationSeconds: 1 });
  const list = await ctx.t.http('GET', '/ari/recordings/stored');
  assert.is(list.status, 200);
  const names = (list.body as Array<{ name: string }>).map((x) => x.name);
  assert.equal(names, [...names].sort(), 'sorted by name');
  for (const x of list.body) assert.equal(Object.keys(x).sort(), ['format', 'name']);
  assert.equal(list.body.filter((x: any) => x.name.startsWith(`${dir}/`)), [
    { name: `${dir}/a`, format: 'wav' },
    { name: `${dir}/a/deeper`, format: 'alaw' },
    { name: `${dir}/b`, format: 'slin16' },
    { name: `${dir}/c`, format: 'ulaw' },
  ]);
  for (const [name, format] of made) {
    assert.equal((await ctx.t.http('GET', `/ari/recordings/stored/${enc(name)}`)).body, { name, format });
    const buf = await download(name, format);
    near(fileSeconds(format, buf), 1, name);
  }
  const gone = `${dir}/b`;
  const del = await ctx.t.http('DELETE', `/ari/recordings/stored/${enc(gone)}`);
  assert.is(del.status, 204);
  assert.is(del.text, '');
  assert.not.ok(existsSync(recPath(gone, 'sln16')));
  for (const [method, suffix] of [['GET', ''], ['DELETE', ''], ['GET', '/file']] as const) {
    const r = await ctx.t.http(method, `/ari/recordings/stored/${enc(gone)}${suffix}`);
    assert.is(r.status, 404, `${method} ${suffix}`);
    assert.equal(r.body, { message: 'Recording not found' });
  }
  assert.not.ok((await ctx.t.http('GET', '/ari/recordings/stored')).body.some((x: any) => x.name === gone));
  // Unknown and hostile names are simply not found.
  for (const bad of ['nope', '../trunkline.db', '..%2Ftrunkline', `${dir}/a/..`]) {
    assert.is((await ctx.t.http('GET', `/ari/recordings/stored/${enc(bad)}`)).status, 404, bad);
    assert.is((await getBytes(ctx.t.url, `/ari/recordings/stored/${enc(bad)}/file`)).status, 404, bad);
  }
  await hangup(id);
});

test('stored: copy (200 StoredRecording, same bytes); 404 missing source; 409 existing destination; 400 invalid destination', async () => {
  const id = await answered('copy');
  await farTone(id, '440');
  const src = uid('copy-src');
  const other = uid('copy-other');
  await recordAndWait(id, { name: src, format: 'ulaw', maxDurationSeconds: 1 });
  await recordAndWait(id, { name: other, format: 'wav', maxDurationSeconds: 1 });
  const dest = `${uid('copies')}/one`;
  const c = await ctx.t.http('POST', `/ari/recordings/stored/${enc(src)}/copy`, { query: { destinationRecordingName: dest } });
  assert.is(c.status, 200, c.text);
  assert.equal(c.body, { name: dest, format: 'ulaw' });
  assert.equal((await ctx.t.http('GET', `/ari/recordings/stored/${enc(dest)}`)).body, { name: dest, format: 'ulaw' });
  assert.ok((await download(dest, 'ulaw')).equals(await download(src, 'ulaw')), 'same bytes');
  // The copy is independent of its source.
  assert.is((await ctx.t.http('DELETE', `/ari/recordings/stored/${enc(src)}`)).status, 204);
  assertTone(decodeUlaw(await download(dest, 'ulaw')), 440, 8000, 'copy');

  const missing = await ctx.t.http('POST', `/ari/recordings/stored/${enc(src)}/copy`, { query: { destinationRecordingName: uid('whatever') } });
  assert.is(missing.status, 404);
  assert.equal(missing.body, { message: 'Recording not found' });
  const missingBad = await ctx.t.http('POST', `/ari/recordings/stored/${enc(src)}/copy`, { query: { destinationRecordingName: '../x' } });
  assert.is(missingBad.status, 404, 'the source is checked first');
  const exists = await ctx.t.http('POST', `/ari/recordings/stored/${enc(dest)}/copy`, { query: { destinationRecordingName: other } });
  assert.is(exists.status, 409);
  assert.equal(exists.body, { message: 'A recording with the same name already exists on the system' });
  const self = await ctx.t.http('POST', `/ari/recordings/stored/${enc(dest)}/copy`, { query: { destinationRecordingName: dest } });
  assert.is(self.status, 409);
  for (const bad of ['../x', '/abs', 'a//b', 'a/', '..', 'back\\slash']) {
    const r = await ctx.t.http('POST', `/ari/recordings/stored/${enc(dest)}/copy`, { query: { destinationRecordingName: bad } });
    assert.is(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
    assert.equal(r.body, { message: 'Invalid destination recording name' });
  }
  assert.ok((await download(other, 'wav')).length > 44, 'the existing destination is untouched');
  await hangup(id);
});

// ---- uploaded far-end audio ----------------------------------------------------------------------------

test('uploaded far-end audio: a 16 kHz WAV with a 700 Hz tone is heard (and recorded) at 8 kHz', async () => {
  const id = await answered('upload');
  // Looped, so a recording that starts late on a busy machine still finds the tone at both ends
  // (3 s of 700 Hz is a whole number of cycles: the loop joins without a phase jump).
  const pcm = sine(700, 16000, 3);
  const wav = Buffer.concat([wavHeader(pcm.length * 2, 16000), slinBytes(pcm)]);
  const up = await upload(id, wav, 'audio/wav', { loop: true });
  assert.is(up.status, 204, JSON.stringify(up.body));
  const name = uid('upload');
  await recordAndWait(id, { name, format: 'wav', maxDurationSeconds: 2 });
  const s = decode('wav', await download(name, 'wav'));
  near(s.length / 8000, 2, 'recorded');
  assertTone(s, 700, 8000, '16 kHz upload');
  assert.ok(power(s, 440) < 0.001, 'no 440 Hz');
  assert.ok(purity(s, 700) > 0.9, `pure 700 Hz (${purity(s, 700)})`);

  // Raw 8 kHz slin works too (application/octet-stream), and replaces the WAV.
  const raw = slinBytes(sine(1200, 8000, 3));
  assert.is((await upload(id, raw, 'application/octet-stream', { loop: true })).status, 204);
  const name2 = uid('upload-raw');
  await recordAndWait(id, { name: name2, format: 'slin16', maxDurationSeconds: 1 });
  const s2 = slinFromBytes(await download(name2, 'slin16'));
  assert.ok(framePower(s2, 1200, 16000) > 0.05, `1200 Hz in the slin16 file (${framePower(s2, 1200, 16000)})`);
  assert.ok(power(s2, 700, 16000) < 0.001, 'the WAV is gone');

  // Without loop the far end falls silent once the audio is over: 0.2 s of it, then a recording
  // started at least 0.5 s later (a busy machine only makes the gap longer) hears nothing.
  assert.is((await upload(id, slinBytes(sine(1200, 8000, 0.2)), 'application/octet-stream')).status, 204);
  await sleep(500);
  const name3 = uid('upload-once');
  await recordAndWait(id, { name: name3, format: 'slin16', maxDurationSeconds: 1 });
  const s3 = slinFromBytes(await download(name3, 'slin16'));
  assert.ok(s3.length > 0 && power(s3, 1200, 16000) < 0.001, `silence after the audio ends (${power(s3, 1200, 16000)})`);

  const bad = await upload(id, Buffer.from('hello, not audio'), 'text/plain');
  assert.is(bad.status, 400);
  assert.equal(bad.body, { message: "Unsupported audio type 'text/plain' (send audio/wav, audio/x-sln or application/octet-stream)" });
  const empty = await upload(id, Buffer.alloc(0), 'audio/wav');
  assert.is(empty.status, 400);
  assert.equal(empty.body, { message: 'The request body holds no audio' });
  const odd = await upload(id, Buffer.alloc(3), 'audio/x-sln');
  assert.is(odd.status, 400);
  const broken = await upload(id, Buffer.from('RIFF\0\0\0\0WAVEjunk'), 'audio/wav');
  assert.is(broken.status, 400);
  assert.match(broken.body.message, /^Invalid WAV: /);
  const nobody = await upload('no-such-channel', wav, 'audio/wav');
  assert.is(nobody.status, 404);
  await hangup(id);
});

test('a far end playing a catalogue sound is recorded as that sound', async () => {
  const id = await answered('sound');
  const name = uid('sound');
  // The recording starts first and the sound after it, and the recording runs until 60 more frames
  // (1.2 s of media time) have been captured once the sound was set: the whole 0.8 s sound is in it
  // however late a busy machine runs the requests between.
  const mark = ctx.ev.events.length;
  await recordOk(id, { name, format: 'wav', maxDurationSeconds: 30 });
  await eventAfter(ctx.ev, mark, isRec('RecordingStarted', name));
  await farAudio(id, { source: 'sound', sound: 'hello-world' });
  await recorded(name, 60, framesOf(name));
  assert.is((await ctx.t.http('POST', `/ari/recordings/live/${enc(name)}/stop`)).status, 204);
  await eventAfter(ctx.ev, mark, isRec('RecordingFinished', name));
  const s = decode('wav', await download(name, 'wav'));
  const ref = parseWav(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'ari', 'sounds', 'en', 'hello-world.wav')));
  assert.is(ref.rate, 8000);
  // The sound sits somewhere in the recording: search every offset.
  let best = 0;
  const win = ref.samples.subarray(4000, 4000 + 1600);
  for (let off = 0; off + win.length <= s.length; off += 1) {
    let dot = 0;
    let a = 0;
    let b = 0;
    for (let i = 0; i < win.length; i += 2) {
      dot += win[i]! * s[off + i]!;
      a += win[i]! ** 2;
      b += s[off + i]! ** 2;
    }
    const c = a && b ? dot / Math.sqrt(a * b) : 0;
    if (c > best) best = c;
    if (best > 0.99) break;
  }
  assert.ok(best > 0.95, `the sound is in the recording (correlation ${best.toFixed(3)})`);
  await hangup(id);
});

// ---- the real ari-client --------------------------------------------------------------------------------

test('ari-client: channel.record returns a LiveRecording; RecordingFinished on the instance; recordings.getStored', async () => {
  const client = await ari.connect(ctx.t.url, 'asterisk', 'asterisk');
  await client.start('ac-rec');
  try {
    await waitUntil(async () => (await ctx.t.http('GET', '/ari/applications/ac-rec')).status === 200, 'ac-rec is registered');
    const stasis = new Promise<any>((resolve) => client.once('StasisStart', (_e: any, ch: any) => resolve(ch)));
    const id = uid('ac');
    const call = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: id }, json: { variables: { STASIS_APP: 'ac-rec' } } });
    assert.is(call.status, 200, call.text);
    const channel = await stasis;
    assert.is(channel.id, id);
    await farTone(id, '440');
    const name = uid('ac-rec');
    const live = client.LiveRecording(name);
    const finished = new Promise<any[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no RecordingFinished')), WAIT_MS);
      live.once('RecordingFinished', (...args: any[]) => {
        clearTimeout(timer);
        resolve(args);
      });
    });
    const rec = await channel.record({ name, format: 'wav', maxDurationSeconds: 1 }, live);
    assert.is(rec.name, name);
    assert.is(rec.state, 'queued');
    assert.is(rec.target_uri, `channel:${id}`);
    assert.type(rec.stop, 'function', 'a LiveRecording instance');
    assert.type(rec.getLive, 'function');
    const [event, instance] = await finished;
    assert.is(event.type, 'RecordingFinished');
    assert.is(event.recording.state, 'done');
    assert.is(instance.name, name);
    const stored = await client.recordings.getStored({ recordingName: name });
    assert.is(stored.name, name);
    assert.is(stored.format, 'wav');
    const list = await client.recordings.listStored();
    assert.ok(list.some((x: any) => x.name === name));
    try {
      await client.recordings.getStored({ recordingName: uid('nope') });
      assert.unreachable('should have rejected');
    } catch (err) {
      assert.match((err as Error).message, /Recording not found/);
    }
    assertTone(decode('wav', await download(name, 'wav')), 440, 8000, 'ari-client');
    await channel.hangup();
  } finally {
    client.stop();
  }
});

// ---- restarts ---------------------------------------------------------------------------------------------

/** A child server on a kept DATA_DIR, an app socket and an answered call with a 440 Hz far end. */
async function childWithCall(dataDir: string, app: string, id: string): Promise<{ server: ChildServer; ev: EventLog }> {
  const server = await spawnServer({ DATA_DIR: dataDir, SIM_TIME_SCALE: '10' });
  const ev = await connectEvents(server.url, app);
  const call = await server.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000', channelId: id }, json: { variables: { STASIS_APP: app } } });
  assert.is(call.status, 200, call.text);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
  await farTone(id, '440', server.http);
  return { server, ev };
}

async function stopChild(server: ChildServer | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (server && server.proc.exitCode === null && server.proc.signalCode === null) {
    server.proc.kill(signal);
    await server.exited;
  }
}

test('restart (SIGTERM): a stored recording is still listed and downloadable', async () => {
  const dataDir = tempDir('rec-restart');
  let server: ChildServer | undefined;
  try {
    const first = await childWithCall(dataDir, 'rr', 'keep-1');
    server = first.server;
    const name = 'keep/one';
    const r = await record('keep-1', { name, format: 'wav', maxDurationSeconds: 1 }, server.http);
    assert.is(r.status, 201, r.text);
    await first.ev.waitFor(isRec('RecordingFinished', name));
    const before = await download(name, 'wav', server.url);
    await first.ev.close();
    server.proc.kill('SIGTERM');
    assert.is(await server.exited, 0);

    server = await spawnServer({ DATA_DIR: dataDir, SIM_TIME_SCALE: '10' });
    const list = await server.http('GET', '/ari/recordings/stored');
    assert.equal(list.body, [{ name, format: 'wav' }]);
    assert.equal((await server.http('GET', `/ari/recordings/stored/${enc(name)}`)).body, { name, format: 'wav' });
    const after = await download(name, 'wav', server.url);
    assert.ok(after.equals(before), 'the same bytes');
    assertTone(decode('wav', after), 440, 8000, 'after restart');
  } finally {
    await stopChild(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('restart (SIGTERM) during a recording: it is stopped and stored at shutdown', async () => {
  const dataDir = tempDir('rec-term');
  let server: ChildServer | undefined;
  try {
    const first = await childWithCall(dataDir, 'rt', 'term-1');
    server = first.server;
    const name = 'term/live';
    assert.is((await record('term-1', { name, format: 'slin' }, server.http)).status, 201);
    await first.ev.waitFor(isRec('RecordingStarted', name));
    // 1 s of audio in the file (slin: 16000 bytes a second), as the child's own clock counts it.
    const file = recPath(name, FORMATS.slin.ext, dataDir);
    await waitUntil(() => existsSync(file) && statSync(file).size >= 16000, 'a second of audio reaches the file', WAIT_MS, 20);
    server.proc.kill('SIGTERM');
    assert.is(await server.exited, 0);
    await first.ev.close();
    server = await spawnServer({ DATA_DIR: dataDir, SIM_TIME_SCALE: '10' });
    assert.equal((await server.http('GET', `/ari/recordings/stored/${enc(name)}`)).body, { name, format: 'slin' });
    assert.is((await server.http('GET', `/ari/recordings/live/${enc(name)}`)).status, 404);
    const s = slinFromBytes(await download(name, 'slin', server.url));
    assert.ok(s.length >= 8000 * 0.9, `${s.length / 8000} s kept`);
    assertTone(s, 440, 8000, 'stopped by SIGTERM');
  } finally {
    await stopChild(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('crash (SIGKILL) during a recording: after restart it is a stored recording with a valid WAV header and the audio written before the kill', async () => {
  const dataDir = tempDir('rec-kill');
  let server: ChildServer | undefined;
  try {
    const first = await childWithCall(dataDir, 'rk', 'kill-1');
    server = first.server;
    const name = 'crash/two';
    assert.is((await record('kill-1', { name, format: 'wav' }, server.http)).status, 201);
    await first.ev.waitFor(isRec('RecordingStarted', name));
    const file = recPath(name, 'wav', dataDir);
    // Wait (lower bound only) until at least 1.5 s of audio has reached the file.
    await waitUntil(() => existsSync(file) && statSync(file).size >= 44 + 16000 * 1.5, 'audio reaches the file while recording', WAIT_MS, 20);
    const onDisk = readFileSync(file);
    server.proc.kill('SIGKILL');
    assert.is(await server.exited, 'SIGKILL');
    await first.ev.close();
    // Before the restart the header still says "empty" (it is only rewritten at the end).
    assert.is(onDisk.readUInt32LE(40), 0, 'the live header has no size yet');

    server = await spawnServer({ DATA_DIR: dataDir, SIM_TIME_SCALE: '10' });
    assert.equal((await server.http('GET', '/ari/recordings/stored')).body, [{ name, format: 'wav' }]);
    assert.is((await server.http('GET', `/ari/recordings/live/${enc(name)}`)).status, 404);
    const buf = await download(name, 'wav', server.url);
    checkWavHeader(buf); // RIFF and data sizes match the file
    const w = parseWav(buf);
    assert.ok(buf.length >= onDisk.length, 'nothing written before the kill is lost');
    assert.ok(buf.subarray(44, onDisk.length).equals(onDisk.subarray(44)), 'the audio is what was written');
    near(w.samples.length / 8000, (buf.length - 44) / 16000, 'parsed length', 0.001);
    assertTone(w.samples, 440, 8000, 'after a crash');
    // The channel survived the crash and can record again under another name.
    const ev = await connectEvents(server.url, 'rk');
    const again = await record('kill-1', { name: 'crash/three', format: 'wav', maxDurationSeconds: 1 }, server.http);
    assert.is(again.status, 201, again.text);
    await ev.waitFor(isRec('RecordingFinished', 'crash/three'));
    await ev.close();
  } finally {
    await stopChild(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();
