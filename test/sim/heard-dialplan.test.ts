import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseWav, wavToSlin } from '../../server/ari/media/wav.js';
import { useServer } from '../_helpers/suite.js';
import { advance, alignToFrame, stamp, VIRTUAL_START as START } from '../_helpers/virtual-clock.js';

// What the far end hears of the dialplan's Playback(): the sounds are listed and sent as an ARI
// playback's are, while no application hears of them (no Playback events); on the virtual clock,
// so instants and durations are exact.
const test = suite('sim heard: dialplan Playback()');
const ctx = useServer(test, { env: { SIM_CLOCK: 'virtual' }, events: { all: { apps: 'watch', subscribeAll: true }, dp: 'dp' } });

const sound = (id: string) => wavToSlin(readFileSync(new URL(`../../fixtures/ari/sounds/en/${id}.wav`, import.meta.url)), 8000);
const ms = (samples: Int16Array) => (samples.length * 1000) / 8000;
const HELLO = sound('hello-world');
const WELCOME = sound('welcome');
const PRESS1 = sound('press-1');

async function heard(id: string): Promise<unknown[]> {
  const r = await ctx.t.http('GET', `/sim/channels/${id}/heard`);
  assert.is(r.status, 200, r.text);
  return r.body.items;
}

async function call(query: Record<string, string>, variables?: Record<string, string>): Promise<void> {
  const r = await ctx.t.http('POST', '/sim/calls', { query, ...(variables ? { json: { variables } } : {}) });
  assert.is(r.status, 200, r.text);
}

const playbackEvents = (id: string) => ctx.all.of(id).filter((e) => e.type.startsWith('Playback'));

test('extension 2000: Playback(hello-world) is listed, played out, and its audio is what the far end was sent', async () => {
  const t0 = await alignToFrame(ctx.t);
  await call({ endpoint: 'PJSIP/alice', extension: '2000', channelId: 'dph-2000' });
  await advance(ctx.t, 400);
  assert.equal(await heard('dph-2000'), [{ at: stamp(t0), kind: 'playback', media: 'sound:hello-world', lang: 'en' }], 'listed while it plays');
  // The prompt (797 ms), Wait(1), Hangup().
  await advance(ctx.t, 2000);
  await ctx.all.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'dph-2000');
  assert.equal(await heard('dph-2000'), [{ at: stamp(t0), kind: 'playback', media: 'sound:hello-world', lang: 'en', duration_ms: 797, completed: true }]);
  const wav = await ctx.t.http('GET', '/sim/channels/dph-2000/heard.wav');
  assert.is(wav.status, 200);
  const pcm = parseWav(wav.bytes).samples;
  const from = ((t0 - START) % 20) * 8;
  assert.equal(Array.from(pcm.subarray(from, from + HELLO.length)), Array.from(HELLO), 'the prompt, sample for sample');
  assert.ok(pcm.subarray(from + HELLO.length).every((s) => s === 0), 'silence during Wait(1)');
  assert.equal(playbackEvents('dph-2000'), [], 'no application hears of a dialplan Playback()');
});

test('the far end hangs up part way: the prompt is listed as not completed, with the time it played', async () => {
  const t0 = await alignToFrame(ctx.t);
  await call({ endpoint: 'PJSIP/alice', extension: '2000', channelId: 'dph-cut' });
  await advance(ctx.t, 300);
  assert.is((await ctx.t.http('POST', '/sim/channels/dph-cut/hangup')).status, 204);
  await ctx.all.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'dph-cut');
  assert.equal(await heard('dph-cut'), [{ at: stamp(t0), kind: 'playback', media: 'sound:hello-world', lang: 'en', duration_ms: 300, completed: false }]);
});

test('Playback(welcome&press-1) then Stasis(): both prompts back to back, then the application takes the call', async () => {
  const t0 = await alignToFrame(ctx.t);
  await call({ endpoint: 'PJSIP/alice', context: 'ivr', extension: 's', channelId: 'dph-ivr' }, { STASIS_APP: 'dp' });
  const t1 = t0 + ms(WELCOME);
  await advance(ctx.t, Math.ceil(ms(WELCOME) + ms(PRESS1)) + 20);
  const start = await ctx.dp.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'dph-ivr');
  assert.is(start.timestamp, stamp(t1 + ms(PRESS1)));
  assert.equal(await heard('dph-ivr'), [
    { at: stamp(t0), kind: 'playback', media: 'sound:welcome', lang: 'en', duration_ms: Math.round(ms(WELCOME)), completed: true },
    { at: stamp(t1), kind: 'playback', media: 'sound:press-1', lang: 'en', duration_ms: Math.round(ms(PRESS1)), completed: true },
  ]);
  assert.equal(playbackEvents('dph-ivr'), []);
  assert.is((await ctx.t.http('DELETE', '/ari/channels/dph-ivr')).status, 204);
});

test.run();
