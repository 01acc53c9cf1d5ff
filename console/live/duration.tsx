import { useLayoutEffect, useRef } from 'preact/hooks';
import { parseTimestamp } from '../observable.js';
import type { LiveStore } from './live-store.js';

/** `h:mm:ss` (or `m:ss`) of a span in ms. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0:00';
  const s = Math.floor(ms / 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  return h ? `${h}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/** What a duration on the page reads: the store with the server's clock, and the instant it counts from (epoch ms). */
interface Shown {
  store: LiveStore;
  since: number;
}

/**
 * One clock for every duration on the page: once a second it rewrites those in view (an
 * IntersectionObserver says which), and one coming into view is written at once. With a
 * thousand channels listed that is a few dozen text changes a second, not a thousand renders.
 */
const shown = new Map<HTMLElement, Shown>();
const inView = new Set<HTMLElement>();
let ticker: ReturnType<typeof setInterval> | undefined;
let watcher: IntersectionObserver | undefined;

function write(el: HTMLElement): void {
  const d = shown.get(el);
  if (!d) return;
  const text = formatDuration(d.store.serverNow() - d.since);
  if (el.textContent !== text) el.textContent = text;
}

function watch(el: HTMLElement, d: Shown): void {
  shown.set(el, d);
  write(el);
  watcher ??= new IntersectionObserver((seen) => {
    for (const s of seen) {
      const el = s.target as HTMLElement;
      if (s.isIntersecting) {
        inView.add(el);
        write(el);
      } else inView.delete(el);
    }
  });
  watcher.observe(el);
  ticker ??= setInterval(redrawDurations, 1000);
}

/** Rewrites the durations in view now (after the server's clock moved, e.g. a virtual advance). */
export function redrawDurations(): void {
  for (const el of inView) write(el);
}

function unwatch(el: HTMLElement): void {
  shown.delete(el);
  inView.delete(el);
  watcher?.unobserve(el);
  if (shown.size === 0) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

/** A channel's age in the server's time, kept current while it is in view. */
export function Duration({ store, since }: { store: LiveStore; since: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  // Before the first paint, so the span is never seen empty.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    watch(el, { store, since: parseTimestamp(since) });
    return () => unwatch(el);
  }, [store, since]);
  // The text is the clock's to write (not a render's): rendering leaves the span's children alone.
  return <span class="duration" ref={ref} />;
}
