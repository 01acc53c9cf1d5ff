import type { Clock, TimerHandle } from '../time/clock.js';
import { FRAME_MS } from './pcm.js';

/** Something that consumes one frame of audio per tick (a recording, an RTP sender, …). */
export interface FrameConsumer {
  /** Called once per 20 ms of simulated time, in tick order. */
  onFrame(tick: number): void;
}

/** Longest stretch of frame work before yielding to the event loop. */
const SLICE_MS = 3;

/**
 * The media clock: simulated time in 20 ms ticks. It runs only while
 * something consumes frames; when the event loop falls behind it catches up
 * tick by tick (frames are never skipped) up to a bound, past which it jumps
 * and counts the ticks as late. Work is done in slices of a few
 * milliseconds, yielding in between, so thousands of consumers never hold
 * up timers and I/O (playback and recording ends, event delivery) for a
 * whole tick's worth of work.
 */
export class MediaClock {
  private readonly consumers = new Set<FrameConsumer>();
  private timer: TimerHandle | null = null;
  private readonly epoch: number;
  private nextTick = 0;
  private due = -1;
  /** Consumers of the tick in progress still to be given their frame. */
  private batch: FrameConsumer[] | null = null;
  private batchIndex = 0;
  private slicing = false;
  /** Where the next whole tick starts after the clock fell too far behind (see run). */
  private skipTo = 0;
  /** Ticks dropped because the process could not keep up (a health figure for the benchmarks). */
  lateTicks = 0;

  constructor(private readonly clock: Clock, private readonly maxCatchUp = 50) {
    this.epoch = clock.now();
  }

  /** Current tick index (20 ms of simulated time since the media clock's epoch). */
  now(): number {
    return Math.floor(this.clock.simSince(this.epoch) / FRAME_MS);
  }

  /** The tick an instant falls in (before the epoch: a negative tick). */
  tickAt(instant: number): number {
    return Math.floor(this.clock.simSince(this.epoch, instant) / FRAME_MS);
  }

  /** The instant (on the engine's clock) a tick starts. */
  instantOf(tick: number): number {
    return this.clock.instantAfter(tick * FRAME_MS, this.epoch);
  }

  add(c: FrameConsumer): void {
    this.consumers.add(c);
    if (!this.timer) {
      this.nextTick = this.now();
      this.timer = this.clock.every(FRAME_MS, () => this.run());
    }
  }

  delete(c: FrameConsumer): void {
    this.consumers.delete(c);
    if (!this.consumers.size && this.timer) {
      this.clock.cancel(this.timer);
      this.timer = null;
    }
  }

  /** True while a tick's frames are handed out in slices: the rest follow on later turns. */
  get busy(): boolean {
    return this.slicing;
  }

  get active(): number {
    return this.consumers.size;
  }

  private run(): void {
    this.due = this.now();
    // A tick already given to some consumers is finished first: abandoning it would leave the rest
    // without a frame that the first ones already took (a WebSocket queue's frame, say).
    const next = this.batch ? this.nextTick + 1 : this.nextTick;
    const floor = this.due - this.maxCatchUp;
    if (floor > next) {
      this.lateTicks += floor - next;
      this.skipTo = floor;
    }
    if (!this.slicing) this.slice();
  }

  private slice(): void {
    this.slicing = false;
    // Wall-clock on purpose: this measures our own CPU work (the slice budget), not simulated time.
    const start = performance.now();
    while (this.nextTick <= this.due) {
      if (!this.batch) {
        if (this.skipTo > this.nextTick) this.nextTick = this.skipTo;
        this.batch = [...this.consumers];
        this.batchIndex = 0;
      }
      while (this.batchIndex < this.batch.length) {
        const c = this.batch[this.batchIndex++]!;
        if (this.consumers.has(c)) c.onFrame(this.nextTick);
        if (performance.now() - start > SLICE_MS /* CPU budget, wall-clock */ && (this.batchIndex < this.batch.length || this.nextTick < this.due)) {
          this.slicing = true;
          setImmediate(() => this.slice());
          return;
        }
      }
      this.batch = null;
      this.nextTick++;
    }
  }

  stop(): void {
    this.clock.cancel(this.timer);
    this.timer = null;
    this.consumers.clear();
    this.batch = null;
  }
}
