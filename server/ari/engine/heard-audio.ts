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

/** Whether a frame is all zero (a plain loop: this runs for every frame of every audible channel). */
function silent(f: Int16Array): boolean {
  for (let i = 0; i < f.length; i++) if (f[i] !== 0) return false;
  return true;
}

/** One channel's outbound audio: the non-silent frames by media tick, within the newest maxSeconds. */
interface Capture {
  /** The tick the channel was created in: the WAV starts there unless the window cut it. */
  start: number;
  /** Ticks past the last one the WAV covers (set when the channel ends). */
  end: number | null;
  frames: Map<number, Int16Array>;
  consumer: FrameConsumer | null;
}

/**
 * A bounded recording of what each channel sends to its far end. The
 * capture takes a frame per media tick only while something audible goes
 * out (the heard log says when): an idle channel keeps the media clock
 * still, and what was not captured is silence. Each channel keeps at most
 * maxSeconds of its newest audio (only frames that are not silent use
 * memory: 16 KB a second); ended channels keep theirs for the newest
 * HEARD_AUDIO_ENDED_KEEP of them, in memory only.
 */
export class HeardAudio {
  private readonly live = new Map<Channel, Capture>();
  private readonly ended = new Map<string, Capture>();
  private readonly maxTicks: number;
  /** Frames held by all captures, live and ended (bounded by maxFrames). */
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
      cap = { start: this.media.tickAt(ch.d.created), end: null, frames: new Map(), consumer: null };
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
    // Frames arrive in tick order, so the oldest are first in the map.
    for (const t of cap.frames.keys()) {
      if (t > tick - this.maxTicks) break;
      cap.frames.delete(t);
      this.held--;
    }
    if (this.held >= this.maxFrames && !this.evictEnded()) return;
    cap.frames.set(tick, f.slice());
    this.held++;
  }

  /** Drops the oldest ended channel's audio to make room; false when there is none. */
  private evictEnded(): boolean {
    for (const [id, cap] of this.ended) {
      this.ended.delete(id);
      this.held -= cap.frames.size;
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
    if (before && before !== cap) this.held -= before.frames.size;
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
    for (const [tick, f] of cap.frames) if (tick >= from && tick < end) pcm.set(f, (tick - from) * FRAME_SAMPLES);
    const body = slinBytes(pcm);
    return { data: Buffer.concat([wavHeader(body.length, RATE), body]), contentType: 'audio/wav' };
  }
}
