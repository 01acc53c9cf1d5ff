/** What the queue orders by, and where it keeps each entry's place (-1 when not queued). */
export interface QueuedTimer {
  instant: number;
  seq: number;
  index: number;
}

const before = (a: QueuedTimer, b: QueuedTimer) => a.instant < b.instant || (a.instant === b.instant && a.seq < b.seq);

/**
 * A binary min-heap of timers by (instant, sequence). Each entry knows its
 * own position, so a cancelled timer leaves the heap at once instead of
 * lingering until its instant (engine timers are re-armed often).
 */
export class TimerQueue<T extends QueuedTimer> {
  private readonly heap: T[] = [];

  get size(): number {
    return this.heap.length;
  }

  peek(): T | undefined {
    return this.heap[0];
  }

  push(t: T): void {
    if (t.index >= 0) return;
    t.index = this.heap.length;
    this.heap.push(t);
    this.up(t.index);
  }

  /** Takes a timer out; one not in the queue is left alone. */
  remove(t: T): void {
    const i = t.index;
    if (i < 0 || this.heap[i] !== t) return;
    t.index = -1;
    const last = this.heap.pop()!;
    if (last === t) return;
    this.heap[i] = last;
    last.index = i;
    this.down(i);
    this.up(last.index);
  }

  /** How many timers are due strictly after `instant`. */
  countAfter(instant: number): number {
    let n = 0;
    for (const t of this.heap) if (t.instant > instant) n++;
    return n;
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i]!, h[p]!)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && before(h[l]!, h[m]!)) m = l;
      if (r < h.length && before(h[r]!, h[m]!)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    const h = this.heap;
    const x = h[a]!;
    const y = h[b]!;
    h[a] = y;
    h[b] = x;
    x.index = b;
    y.index = a;
  }
}
