import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Channel } from '../../server/ari/engine/channel.js';
import { HeardAudio } from '../../server/ari/engine/heard-audio.js';
import type { FrameConsumer, MediaClock } from '../../server/ari/media/media-clock.js';
import { FRAME_SAMPLES } from '../../server/ari/media/pcm.js';
import type { Clock } from '../../server/ari/time/clock.js';

/** Media ticks driven by hand: instant = tick × 20 ms. */
function rig(maxSeconds: number, maxFrames: number) {
  const consumers = new Set<FrameConsumer>();
  let now = 0;
  const media = { add: (c: FrameConsumer) => consumers.add(c), delete: (c: FrameConsumer) => consumers.delete(c), tickAt: (i: number) => Math.floor(i / 20) } as unknown as MediaClock;
  const clock = { now: () => now, instantAfter: (ms: number, from = now) => from + ms } as unknown as Clock;
  const loud = new Int16Array(FRAME_SAMPLES).fill(1000);
  const heard = new HeardAudio(media, clock, () => loud, () => true, maxSeconds, maxFrames);
  const tick = (n: number) => {
    for (let i = 0; i < n; i++) {
      const t = now / 20;
      for (const c of [...consumers]) c.onFrame(t);
      now += 20;
    }
  };
  return { heard, tick };
}

const chan = (id: string) => ({ id, d: { created: 0, ended: null as number | null } }) as unknown as Channel;
/** Samples of the WAV that are not silent. */
const loudSamples = (wav: Uint8Array) => {
  const b = Buffer.from(wav);
  let n = 0;
  for (let i = 44; i + 1 < b.length; i += 2) if (b.readInt16LE(i) !== 0) n++;
  return n;
};

test('all captures together stay within the frame budget: ended audio goes first, then new frames are not kept', () => {
  const { heard, tick } = rig(60, 10);
  const a = chan('a');
  heard.wake(a);
  tick(6);
  a.d.ended = 120;
  heard.end(a);
  assert.is(loudSamples(heard.wav(undefined, 'a').data), 6 * FRAME_SAMPLES);
  const b = chan('b');
  heard.wake(b);
  tick(6);
  // b's fifth frame needed room: a's ended audio was dropped for it.
  assert.throws(() => heard.wav(undefined, 'a'), /no longer kept/);
  assert.is(loudSamples(heard.wav(b, 'b').data), 6 * FRAME_SAMPLES);
  tick(10);
  // Ten frames at most: b keeps its first ten and the rest read as silence.
  assert.is(loudSamples(heard.wav(b, 'b').data), 10 * FRAME_SAMPLES);
});

test('with capture off (0 seconds) a channel alive for hours still gives an empty WAV', () => {
  const { heard, tick } = rig(0, 10);
  const a = chan('a');
  heard.wake(a);
  tick(100);
  assert.is(heard.wav(a, 'a').data.length, 44);
});

test.run();
