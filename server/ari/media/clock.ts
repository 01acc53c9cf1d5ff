import { FRAME_MS } from './pcm.js';

/** Something that consumes one frame of audio per tick (a recording, an RTP sender, …). */
export interface FrameConsumer {
  /** Called once per 20 ms of simulated time, in tick order. */
  onFrame(tick: number): void;
}

/**
 * The media clock: simulated time in 20 ms ticks. It runs only while
 * something consumes frames; when the event loop falls behind it catches up
 * tick by tick (frames are never skipped) up to a bound, past which it jumps
 * and counts the ticks as late.
 */
export class MediaClock {
  private readonly consumers = new Set<FrameConsumer>();
  private timer: NodeJS.Timeout | null = null;
  private readonly epoch = Date.now();
  private nextTick = 0;
  /** Ticks dropped because the process could not keep up (a health figure for the benchmarks). */
  lateTicks = 0;

  constructor(private readonly scale: number, private readonly maxCatchUp = 50) {}

  /** Current tick index (20 ms of simulated time since the clock's epoch). */
  now(): number {
    return Math.floor(((Date.now() - this.epoch) * this.scale) / FRAME_MS);
  }

  /** Wall-clock ms of the start of a tick. */
  wallOf(tick: number): number {
    return this.epoch + (tick * FRAME_MS) / this.scale;
  }

  add(c: FrameConsumer): void {
    this.consumers.add(c);
    if (!this.timer) {
      this.nextTick = this.now();
      const every = Math.max(1, Math.floor(FRAME_MS / this.scale));
      this.timer = setInterval(() => this.run(), every);
    }
  }

  delete(c: FrameConsumer): void {
    this.consumers.delete(c);
    if (!this.consumers.size && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  get active(): number {
    return this.consumers.size;
  }

  private run(): void {
    const due = this.now();
    if (due - this.nextTick > this.maxCatchUp) {
      this.lateTicks += due - this.nextTick - this.maxCatchUp;
      this.nextTick = due - this.maxCatchUp;
    }
    for (; this.nextTick <= due; this.nextTick++) {
      for (const c of [...this.consumers]) c.onFrame(this.nextTick);
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.consumers.clear();
  }
}
