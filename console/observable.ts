import { useEffect, useState } from 'preact/hooks';

/** Observables changed since the last draw, drawn together at the next one. */
const dirty = new Set<Observable>();
let frameAsked = false;
let lastDraw = -Infinity;

/**
 * The least time between two draws. A change after a quiet spell is drawn at the next frame;
 * under a flood of events the page is drawn about ten times a second rather than at every
 * frame, since each draw (layout, paint) costs the same whether one event or a hundred came.
 */
const DRAW_EVERY_MS = 100;

/** Tells every changed observable's views, once, just before the browser paints. */
function drawFrame(): void {
  frameAsked = false;
  lastDraw = performance.now();
  const now = [...dirty];
  dirty.clear();
  for (const o of now) o.notify();
}

/**
 * Something the views watch. State is applied at once (each event as it arrives), but `changed()`
 * only marks it: the views hear of it at an animation frame (at most one draw per frame, and at
 * most one per DRAW_EVERY_MS), however many events arrived since. A hidden page draws nothing
 * until it is shown.
 */
export class Observable {
  private readonly listeners = new Set<() => void>();
  version = 0;

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  changed(): void {
    this.version++;
    dirty.add(this);
    if (frameAsked) return;
    frameAsked = true;
    const wait = lastDraw + DRAW_EVERY_MS - performance.now();
    if (wait <= 0) requestAnimationFrame(drawFrame);
    else setTimeout(() => requestAnimationFrame(drawFrame), wait);
  }

  /** Whether any view watches this. */
  get watched(): boolean {
    return this.listeners.size > 0;
  }

  /** Runs the listeners now (the frame scheduler calls it). */
  notify(): void {
    for (const fn of [...this.listeners]) fn();
  }
}

/** Re-renders the calling component whenever `o` changes (at most once per frame). */
export function useObservable(o: Observable): number {
  const [, setVersion] = useState(o.version);
  useEffect(() => o.subscribe(() => setVersion(o.version)), [o]);
  return o.version;
}

/** Parses an ARI timestamp (`2025-01-01T00:00:00.000+0000`) to epoch ms; NaN when it does not parse. */
export function parseTimestamp(s: string | undefined): number {
  if (!s) return NaN;
  return Date.parse(s.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
}
