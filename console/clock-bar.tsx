import { useState } from 'preact/hooks';
import { call } from './api.js';
import { useObservable } from './observable.js';
import type { LiveFeed } from './live/live-feed.js';
import type { LiveStore } from './live/live-store.js';
import type { Session } from './session.js';

const STEPS = [
  { label: '+20 ms', query: { ms: 20 } },
  { label: '+1 s', query: { ms: 1000 } },
  { label: '+10 s', query: { ms: 10_000 } },
  { label: '+1 min', query: { ms: 60_000 } },
  // Bounded, so channels with media flowing (their frame timers never run out) stop after ten simulated minutes.
  { label: 'until idle', query: { until: 'idle', max_ms: 600_000 } },
] as const;

/** With the virtual clock: the simulated instant, the timers pending, and buttons that move time on. */
export function ClockBar({ session, store, feed }: { session: Session; store: LiveStore; feed: LiveFeed }) {
  useObservable(store);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const clock = store.reading;

  if (!clock) return <span class="clock" />;
  if (clock.mode !== 'virtual') return <span class="clock" id="clock" data-mode={clock.mode}>real clock</span>;

  async function advance(query: Record<string, string | number>) {
    setBusy(true);
    setError('');
    try {
      await call(session, 'ari', 'POST', '/sim/clock/advance', query);
      await feed.readClock();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <span class="clock" id="clock" data-mode="virtual">
      <span title="simulated time">
        <span id="clock-now">{clock.now}</span> · <span id="clock-pending">{clock.pending}</span> pending
      </span>
      {STEPS.map((s) => (
        <button type="button" key={s.label} disabled={busy} data-advance={s.label} onClick={() => void advance(s.query)}>
          {s.label}
        </button>
      ))}
      {error && <span class="error">{error}</span>}
    </span>
  );
}
