import { useEffect, useState } from 'preact/hooks';
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

/** A channel's age in the server's time, redrawn every second. */
export function Duration({ store, since }: { store: LiveStore; since: string }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, []);
  return <span class="duration">{formatDuration(store.serverNow() - parseTimestamp(since))}</span>;
}
