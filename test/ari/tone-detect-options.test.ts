import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp } from '../_helpers/ari.js';
import type { AriEvent } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

// TONE_DETECT's call-progress options (a: Special Information Tone, b: busy, c: dial tone, matched at
// once on Asterisk's US frequencies), its default direction, s, frequency 0 and the argument checks.
const test = suite('tone-detect-options');
const ctx = useServer(test);

const BUSY = '480+620/500,0/500';
const DIAL = '350+440';
const RING = '440+480/2000,0/4000';
// Repeated, so a media clock that had to jump ahead on a loaded machine still hears a whole one.
const SIT = '950/330,1400/330,1800/330,0/1000';

const setVar = (id: string, variable: string) => ctx.t.http('POST', `/ari/channels/${encodeURIComponent(id)}/variable`, { query: { variable, value: '' } });
const readVar = async (id: string, variable: string) => (await ctx.t.http('GET', `/ari/channels/${encodeURIComponent(id)}/variable`, { query: { variable } })).body;
const farTone = async (id: string, tone: string) => {
  const r = await ctx.t.http('POST', `/sim/channels/${encodeURIComponent(id)}/audio`, { query: { source: 'tone', tone } });
  assert.is(r.status, 204, r.text);
};
const detected = (id: string, nth = 1): Promise<AriEvent> => {
  let seen = 0;
  return ctx.ev.waitFor((e) => e.type === 'ChannelToneDetected' && e.channel?.id === id && ++seen === nth);
};
const detections = (id: string) => ctx.ev.of(id).filter((e) => e.type === 'ChannelToneDetected').length;
const hangup = async (id: string) => {
  await ctx.t.http('DELETE', `/ari/channels/${encodeURIComponent(id)}`);
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === id);
};

/**
 * Calls in one channel per detector; each hears `tone` (or its own) and gets its detector in order, so
 * the media clock serves them in that order: when the last one matches, the others have judged as many frames.
 */
async function listening(tone: string, detectors: Array<[string, string, string?]>): Promise<void> {
  for (const [id] of detectors) await callInApp(ctx.t, ctx.ev, { id, app: 'app1' });
  for (const [id, , own] of detectors) await farTone(id, own ?? tone);
  for (const [id, variable] of detectors) assert.is((await setVar(id, variable)).status, 204, variable);
}

test('b: a busy tone matches at once, once per burst, without counting a hit; a dial-tone detector (c) and a SIT one (a) stay quiet', async () => {
  await listening(BUSY, [['tdo-b-c', 'TONE_DETECT(0,,c)'], ['tdo-b-a', 'TONE_DETECT(0,,a)'], ['tdo-b', 'TONE_DETECT(0,,b)']]);
  const first = await detected('tdo-b');
  assert.equal(Object.keys(first).sort(), ['application', 'asterisk_id', 'channel', 'timestamp', 'type']);
  await detected('tdo-b', 2);
  assert.equal(await readVar('tdo-b', 'TONE_DETECT(rx)'), { value: '0' }, 'signals are not hits');
  assert.is(detections('tdo-b-c'), 0);
  assert.is(detections('tdo-b-a'), 0);
  for (const id of ['tdo-b-c', 'tdo-b-a', 'tdo-b']) await hangup(id);
});

test('c: a dial tone matches; a ringback tone (440+480) matches neither c nor b', async () => {
  await listening(RING, [['tdo-r-c', 'TONE_DETECT(0,,c)'], ['tdo-r-b', 'TONE_DETECT(0,,b)'], ['tdo-r', 'TONE_DETECT(440,300)', '440']]);
  await detected('tdo-r');
  assert.is(detections('tdo-r-c'), 0);
  assert.is(detections('tdo-r-b'), 0);
  await farTone('tdo-r-c', DIAL);
  const e = await detected('tdo-r-c');
  assert.is(e.channel!.id, 'tdo-r-c');
  assert.is(detections('tdo-r-c'), 1, 'a continuous dial tone is one match');
  for (const id of ['tdo-r-c', 'tdo-r-b', 'tdo-r']) await hangup(id);
});

test('a: the three rising tones of a Special Information Tone match on the third; the third tone alone does not', async () => {
  await listening('1800/1000,0/1000', [['tdo-s-alone', 'TONE_DETECT(0,,a)'], ['tdo-s-1800', 'TONE_DETECT(1800,500)']]);
  await detected('tdo-s-1800');
  assert.is(detections('tdo-s-alone'), 0);
  await farTone('tdo-s-alone', SIT);
  await detected('tdo-s-alone');
  for (const id of ['tdo-s-alone', 'tdo-s-1800']) await hangup(id);
});

test('b with g: a busy tone sends the channel to the dialplan location (StasisEnd after the detection)', async () => {
  const { id } = await callInApp(ctx.t, ctx.ev, { id: 'tdo-goto', app: 'app1' });
  assert.is((await setVar(id, 'TONE_DETECT(0,,bg(default,after-stasis,next))')).status, 204);
  await farTone(id, BUSY);
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === id);
  assert.equal(ctx.ev.of(id).slice(-2).map((e) => e.type), ['ChannelToneDetected', 'StasisEnd']);
  await ctx.t.http('DELETE', `/ari/channels/${id}`);
});

test('direction: without options only received audio is heard; with options but neither r nor t both are; r wins over t', async () => {
  const cases: Array<[string, string, boolean]> = [
    ['tdo-d-none', 'TONE_DETECT(1400,100)', false],
    ['tdo-d-rt', 'TONE_DETECT(1400,100,rt)', false],
    ['tdo-d-both', 'TONE_DETECT(1400,100,d(16))', true],
    ['tdo-d-t', 'TONE_DETECT(1400,100,t)', true],
  ];
  for (const [id, variable] of cases) {
    await callInApp(ctx.t, ctx.ev, { id, app: 'app1' });
    assert.is((await setVar(id, variable)).status, 204, variable);
  }
  // The tone is sent to each channel (its tx); the last detector to be set that hears it fires last.
  for (const [id] of cases) assert.is((await ctx.t.http('POST', `/ari/channels/${id}/play`, { query: { media: 'tone:1400' } })).status, 201);
  await detected('tdo-d-t');
  await detected('tdo-d-both');
  for (const [id, variable, hears] of cases) {
    assert.equal(await readVar(id, 'TONE_DETECT(tx)'), { value: hears ? '1' : '0' }, variable);
  }
  for (const [id] of cases) await hangup(id);
});

test('s is accepted (the audio is not changed); hit counts carry over when the detector is rewritten; frequency 0 alone listens for nothing', async () => {
  // A steady tone is one hit; a rewritten detector starts listening afresh and counts it again.
  await listening('2600', [['tdo-zero', 'TONE_DETECT(0)'], ['tdo-sq', 'TONE_DETECT(2600,100,s)']]);
  await detected('tdo-sq');
  assert.equal(await readVar('tdo-sq', 'TONE_DETECT(rx)'), { value: '1' });
  assert.is((await setVar('tdo-sq', 'TONE_DETECT(2600,100)')).status, 204);
  await detected('tdo-sq', 2);
  assert.equal(await readVar('tdo-sq', 'TONE_DETECT(rx)'), { value: '2' });
  assert.is(detections('tdo-zero'), 0);
  assert.equal(await readVar('tdo-zero', 'TONE_DETECT(rx)'), { value: '0' });
  for (const id of ['tdo-zero', 'tdo-sq']) await hangup(id);
});

test('bad arguments are refused: a fractional or negative frequency, a threshold below 1, zero hits, x with no detector', async () => {
  const { id } = await callInApp(ctx.t, ctx.ev, { id: 'tdo-bad', app: 'app1' });
  for (const variable of ['TONE_DETECT(2600.5)', 'TONE_DETECT(-1)', 'TONE_DETECT(2600,100,d(0))', 'TONE_DETECT(2600,100,n(0))', 'TONE_DETECT(2600,0)', 'TONE_DETECT(0,,x)']) {
    const r = await setVar(id, variable);
    assert.is(r.status, 400, variable);
    assert.equal(r.body, { message: 'Failed to execute function' }, variable);
  }
  await hangup(id);
});

test.run();
