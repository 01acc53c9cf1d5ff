import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Channel } from '../../server/ari/engine/channel.js';
import { HEARD_AUDIO_BLOCK_FRAMES, HeardAudio } from '../../server/ari/engine/heard-audio.js';
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

test('all captures together stay within the frame budget: ended audio goes first, then new blocks are not kept', () => {
  // Two blocks of room (a block is HEARD_AUDIO_BLOCK_FRAMES frames, counted whole).
  const { heard, tick } = rig(60, 2 * HEARD_AUDIO_BLOCK_FRAMES);
  const a = chan('a');
  heard.wake(a);
  tick(6);
  a.d.ended = 120;
  heard.end(a);
  assert.is(loudSamples(heard.wav(undefined, 'a').data), 6 * FRAME_SAMPLES);
  const b = chan('b');
  heard.wake(b);
  tick(6);
  // b's frames at ticks 6..9 fit beside a's block; tick 10 opened b's second block, which needed a's room.
  assert.throws(() => heard.wav(undefined, 'a'), /no longer kept/);
  assert.is(loudSamples(heard.wav(b, 'b').data), 6 * FRAME_SAMPLES);
  tick(10);
  // Two blocks at most: b keeps ticks 6..19 and tick 20 on (a third block) reads as silence.
  assert.is(loudSamples(heard.wav(b, 'b').data), 14 * FRAME_SAMPLES);
});

test('a capture keeps its newest maxSeconds: whole blocks leave once all their frames are older', () => {
  // One second of window (50 frames), and room for just the six blocks a window can touch: a block
  // kept a tick too long, or never dropped, leaves no room for new frames, and one dropped early loses audio.
  const { heard, tick } = rig(1, 6 * HEARD_AUDIO_BLOCK_FRAMES);
  const a = chan('a');
  heard.wake(a);
  tick(205);
  // The window is the newest 50 ticks (155..204), all loud.
  const wav = heard.wav(a, 'a').data;
  assert.is(wav.length, 44 + 50 * FRAME_SAMPLES * 2);
  assert.is(loudSamples(wav), 50 * FRAME_SAMPLES);
});

test('with capture off (0 seconds) a channel alive for hours still gives an empty WAV', () => {
  const { heard, tick } = rig(0, 10);
  const a = chan('a');
  heard.wake(a);
  tick(100);
  assert.is(heard.wav(a, 'a').data.length, 44);
});

test.run();
