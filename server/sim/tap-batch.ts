/** Where a batch's frames go: the tap's socket. */
export interface FrameTarget {
  deliver(json: string): void;
}

/** A batch is sent early once it holds this much text, so one frame stays bounded. */
export const TAP_BATCH_MAX_CHARS = 1024 * 1024;

/**
 * The frames one turn of the event loop produces for a tap opened with `batch=true`,
 * sent together as one JSON array frame at the end of that turn, in the order they were
 * produced. A reader that draws what it receives (the console) then handles a burst of
 * a thousand events as a few messages instead of a thousand.
 */
export class TapBatch implements FrameTarget {
  private frames: string[] = [];
  private chars = 0;
  private scheduled = false;

  constructor(private readonly target: FrameTarget) {}

  deliver(json: string): void {
    this.frames.push(json);
    this.chars += json.length;
    if (this.chars >= TAP_BATCH_MAX_CHARS) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  /** Sends what is held (nothing when empty). */
  flush(): void {
    if (!this.frames.length) return;
    const text = `[${this.frames.join(',')}]`;
    this.frames = [];
    this.chars = 0;
    this.target.deliver(text);
  }
}
