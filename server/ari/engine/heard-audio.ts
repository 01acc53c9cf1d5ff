import { notFound } from '../../errors.js';
import type { FrameConsumer, MediaClock } from '../media/media-clock.js';
import { FRAME_SAMPLES, RATE, slinBytes } from '../media/pcm.js';
import { wavHeader } from '../media/wav.js';
import type { Clock } from '../time/clock.js';
import type { Channel } from './channel.js';

/** Ended channels whose captured audio stays in memory (the newest ones); older ones answer 404 for heard.wav. */
export const HEARD_AUDIO_ENDED_KEEP = 32;
/**
 * Frames kept across every channel (64 MiB of 8 kHz audio, about 70 minutes). Past it the
 * oldest ended channels' audio goes first; with none left, new frames are not kept (silence).
 */
export const HEARD_AUDIO_MAX_FRAMES = (64 * 1024 * 1024) / (FRAME_SAMPLES * 2);

/** Frames stored together (200 ms): audio is kept, counted and dropped a block at a time, not a small array per frame. */
export const HEARD_AUDIO_BLOCK_FRAMES = 10;
const BLOCK = HEARD_AUDIO_BLOCK_FRAMES;

/** Whether a frame is all zero (a plain loop: this runs for every frame of every audible channel). */
function silent(f: Int16Array): boolean {
  for (let i = 0; i < f.length; i++) if (f[i] !== 0) return false;
  return true;
}

/**
 * One channel's outbound audio within the newest maxSeconds: blocks of BLOCK frames by block
 * number (tick / BLOCK), made when one of their frames is not silent; the rest is silence.
 */
interface Capture {
  /** The tick the channel was created in: the WAV starts there unless the window cut it. */
  start: number;
  /** Ticks past the last one the WAV covers (set when the channel ends). */
  end: number | null;
  blocks: Map<number, Int16Array>;
  consumer: FrameConsumer | null;
}

/**
 * A bounded recording of what each channel sends to its far end. The
 * capture takes a frame per media tick only while something audible goes
 * out (the heard log says when): an idle channel keeps the media clock
 * still, and what was not captured is silence. Each channel keeps at most
 * maxSeconds of its newest audio (only frames that are not silent use
 * memory, a block of 200 ms at a time); ended channels keep theirs for the newest
 * HEARD_AUDIO_ENDED_KEEP of them, in memory only.
 */
export class HeardAudio {
  private readonly live = new Map<Channel, Capture>();
  private readonly ended = new Map<string, Capture>();
  private readonly maxTicks: number;
  /** Frames held by all captures' blocks, live and ended (bounded by maxFrames). */
  private held = 0;

  constructor(
    private readonly media: MediaClock,
    private readonly clock: Clock,
    /** What the channel's far end receives at a tick (the audio router's: its outbound frame, silent when lost on the way). */
    private readonly outbound: (ch: Channel, tick: number) => Int16Array,
    /** Whether something audible is sent to the channel's far end right now. */
    private readonly audible: (ch: Channel) => boolean,
    maxSeconds: number,
    /** Frames kept across every channel. */
    private readonly maxFrames = HEARD_AUDIO_MAX_FRAMES,
  ) {
    this.maxTicks = Math.floor((maxSeconds * RATE) / FRAME_SAMPLES);
  }

  private capture(ch: Channel): Capture {
    let cap = this.live.get(ch);
    if (!cap) {
      cap = { start: this.media.tickAt(ch.d.created), end: null, blocks: new Map(), consumer: null };
      this.live.set(ch, cap);
    }
    return cap;
  }

  /** Something audible started towards the channel's far end: capture its frames until nothing is. */
  wake(ch: Channel): void {
    if (this.maxTicks === 0 || ch.d.ended !== null) return;
    const cap = this.capture(ch);
    if (cap.consumer) return;
    const consumer: FrameConsumer = { onFrame: (tick) => this.frame(ch, cap, consumer, tick) };
    cap.consumer = consumer;
    this.media.add(consumer);
  }

  private frame(ch: Channel, cap: Capture, consumer: FrameConsumer, tick: number): void {
    if (ch.d.ended !== null || !this.audible(ch)) {
      this.media.delete(consumer);
      if (cap.consumer === consumer) cap.consumer = null;
      return;
    }
    const f = this.outbound(ch, tick);
    if (silent(f)) return;
    // Frames arrive in tick order, so the oldest blocks are first in the map; a block goes once its last tick left the window.
    for (const b of cap.blocks.keys()) {
      if ((b + 1) * BLOCK - 1 > tick - this.maxTicks) break;
      cap.blocks.delete(b);
      this.held -= BLOCK;
    }
    const b = Math.floor(tick / BLOCK);
    let block = cap.blocks.get(b);
    if (!block) {
      while (this.held + BLOCK > this.maxFrames) if (!this.evictEnded()) return;
      block = new Int16Array(BLOCK * FRAME_SAMPLES);
      cap.blocks.set(b, block);
      this.held += BLOCK;
    }
    block.set(f, (tick - b * BLOCK) * FRAME_SAMPLES);
  }

  /** Drops the oldest ended channel's audio to make room; false when there is none. */
  private evictEnded(): boolean {
    for (const [id, cap] of this.ended) {
      this.ended.delete(id);
      this.held -= cap.blocks.size * BLOCK;
      return true;
    }
    return false;
  }

  /** The channel ended: its capture stops and is kept, by id, among the newest ended ones. */
  end(ch: Channel): void {
    const cap = this.capture(ch);
    if (cap.consumer) this.media.delete(cap.consumer);
    cap.consumer = null;
    cap.end = this.frameEnd();
    this.live.delete(ch);
    const before = this.ended.get(ch.id);
    if (before && before !== cap) this.held -= before.blocks.size * BLOCK;
    this.ended.delete(ch.id);
    this.ended.set(ch.id, cap);
    while (this.ended.size > HEARD_AUDIO_ENDED_KEEP) this.evictEnded();
  }

  /** Ticks past the last frame begun by now: the frame now falls in counts, as it started before now. */
  private frameEnd(): number {
    return this.media.tickAt(this.clock.instantAfter(-1, this.clock.now())) + 1;
  }

  /** The WAV of a live channel (up to the current tick), or of an ended one by id while its audio is kept. */
  wav(live: Channel | undefined, endedId: string): { data: Uint8Array; contentType: string } {
    const cap = live ? this.capture(live) : this.ended.get(endedId);
    if (!cap) throw notFound('Channel not found, or its audio is no longer kept');
    const end = cap.end ?? this.frameEnd();
    // With capture off nothing is kept, so the file holds no audio (never hours of made-up silence).
    const from = this.maxTicks === 0 ? end : Math.max(cap.start, end - this.maxTicks);
    const pcm = new Int16Array(Math.max(0, end - from) * FRAME_SAMPLES);
    for (const [b, block] of cap.blocks) {
      // The part of the block inside [from, end).
      const lo = Math.max(from, b * BLOCK);
      const hi = Math.min(end, (b + 1) * BLOCK);
      if (lo < hi) pcm.set(block.subarray((lo - b * BLOCK) * FRAME_SAMPLES, (hi - b * BLOCK) * FRAME_SAMPLES), (lo - from) * FRAME_SAMPLES);
    }
    const body = slinBytes(pcm);
    return { data: Buffer.concat([wavHeader(body.length, RATE), body]), contentType: 'audio/wav' };
  }
}
