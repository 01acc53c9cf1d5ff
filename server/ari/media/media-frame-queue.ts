import { QUEUE_MAX, QUEUE_XOFF, QUEUE_XON } from './ws-media-protocol.js';

/** What one tick takes from the queue: the frame to play (none: silence) and the notices due now, in order. */
export interface Dequeued {
  frame: Buffer | undefined;
  notices: Array<'MEDIA_XON' | 'QUEUE_DRAINED' | { text: string }>;
}

type Item = { frame: Buffer } | { notice: string };

/**
 * The audio an application sent over a media WebSocket, cut into frames of
 * `frameSize` bytes and played one per tick. It is bounded: at QUEUE_XOFF
 * frames the application is told MEDIA_XOFF, at QUEUE_MAX a whole message
 * is refused, and once the backlog falls below QUEUE_XON it is told
 * MEDIA_XON. Outside buffering mode a message's tail that does not fill a
 * frame is dropped; in buffering mode it waits for the next message, and
 * ending the mode queues what is left as a short frame (the reader pads it
 * with silence). Marks (text to send when playback reaches them) sit
 * between frames without counting as frames; at most QUEUE_MAX of them wait
 * at once (text frames cost the application nothing to send). In passthrough
 * mode every message is one frame as it came.
 */
export class MediaFrameQueue {
  private items: Item[] = [];
  private head = 0;
  /** Frames queued (marks do not count). */
  length = 0;
  /** Marks queued. */
  private marks = 0;
  full = false;
  bulk = false;
  paused = false;
  reportDrained = false;
  private leftover = Buffer.alloc(0);

  constructor(
    readonly frameSize: number,
    readonly passthrough: boolean,
  ) {}

  private enqueue(frame: Buffer): boolean {
    this.items.push({ frame });
    this.length++;
    if (!this.full && this.length >= QUEUE_XOFF) {
      this.full = true;
      return true;
    }
    return false;
  }

  /** Takes one binary message; true when it crossed the XOFF level (the caller sends MEDIA_XOFF). A message arriving at a full queue is dropped whole. */
  push(payload: Buffer): boolean {
    if (this.length >= QUEUE_MAX) return false;
    let xoff = false;
    if (this.passthrough) return this.enqueue(Buffer.from(payload));
    let data = payload;
    if (this.bulk && this.leftover.length > 0) {
      const need = this.frameSize - this.leftover.length;
      const take = Math.min(need, data.length);
      this.leftover = Buffer.concat([this.leftover, data.subarray(0, take)]);
      data = data.subarray(take);
      if (this.leftover.length < this.frameSize) return false;
      xoff = this.enqueue(this.leftover) || xoff;
      this.leftover = Buffer.alloc(0);
    }
    if (!this.bulk) this.leftover = Buffer.alloc(0);
    let at = 0;
    for (; at + this.frameSize <= data.length; at += this.frameSize) xoff = this.enqueue(Buffer.from(data.subarray(at, at + this.frameSize))) || xoff;
    if (this.bulk && at < data.length) this.leftover = Buffer.from(data.subarray(at));
    return xoff;
  }

  /** STOP_MEDIA_BUFFERING: what is left becomes a last short frame, then `notice` is sent when playback gets there. True when that crossed XOFF. */
  stopBuffering(notice: string): boolean {
    this.bulk = false;
    const xoff = this.leftover.length > 0 ? this.enqueue(this.leftover) : false;
    this.leftover = Buffer.alloc(0);
    this.mark(notice);
    return xoff;
  }

  /** MARK_MEDIA: `notice` is sent when playback reaches this point. False (nothing queued) when QUEUE_MAX marks are waiting. */
  mark(notice: string): boolean {
    if (this.marks >= QUEUE_MAX) return false;
    this.items.push({ notice });
    this.marks++;
    return true;
  }

  /**
   * FLUSH_MEDIA: drops everything queued (marks included), ends buffering
   * and forgets a partial frame. As in chan_websocket's code, the paused
   * state and the XOFF state are left as they are; MEDIA_XON follows at the
   * next tick that is not paused.
   */
  flush(): void {
    this.items = [];
    this.head = 0;
    this.length = 0;
    this.marks = 0;
    this.bulk = false;
    this.leftover = Buffer.alloc(0);
  }

  private shift(): Item | undefined {
    if (this.head >= this.items.length) return undefined;
    const it = this.items[this.head++]!;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return it;
  }

  /** One tick's worth: nothing while paused; else MEDIA_XON when due, the marks reached, and the next frame. */
  next(): Dequeued {
    const out: Dequeued = { frame: undefined, notices: [] };
    if (this.paused) return out;
    if (this.full && this.length < QUEUE_XON) {
      this.full = false;
      out.notices.push('MEDIA_XON');
    }
    let it = this.shift();
    if (!it) {
      if (this.reportDrained) {
        this.reportDrained = false;
        out.notices.push('QUEUE_DRAINED');
      }
      return out;
    }
    while (it && 'notice' in it) {
      this.marks--;
      out.notices.push({ text: it.notice });
      it = this.shift();
    }
    if (!it) return out;
    this.length--;
    out.frame = it.frame;
    return out;
  }
}
