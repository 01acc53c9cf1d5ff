import { useEffect, useState } from 'preact/hooks';

/** How long a burst of changes is gathered before the views draw it. */
const DRAW_AFTER_MS = 30;

/**
 * Something the views watch: `changed()` tells them once per burst (events arriving
 * together are all applied first, and the page draws once after them, not once per event).
 */
export class Observable {
  private readonly listeners = new Set<() => void>();
  private scheduled = false;
  version = 0;

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  changed(): void {
    this.version++;
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      for (const fn of [...this.listeners]) fn();
    }, DRAW_AFTER_MS);
  }
}

/** Re-renders the calling component whenever `o` changes. */
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
