import { useEffect, useMemo, useState } from 'preact/hooks';
import { BASE } from './api.js';
import { ClockBar } from './clock-bar.js';
import { CallsView } from './live/calls-view.js';
import { LiveFeed } from './live/live-feed.js';
import { LiveStore } from './live/live-store.js';
import { EventLogStore } from './log/event-log-store.js';
import { EventLogView } from './log/event-log-view.js';
import { useObservable } from './observable.js';
import { RecordingsView } from './far-end/recordings-view.js';
import { ReposView } from './repos/repos-view.js';
import type { Session } from './session.js';

const TABS = [
  { key: 'calls', label: 'Calls' },
  { key: 'events', label: 'Event log' },
  { key: 'recordings', label: 'Recordings' },
  { key: 'repos', label: 'Repositories' },
] as const;
type Tab = (typeof TABS)[number]['key'];

/** Where the tap stands, in a word and a sentence. */
function TapStatus({ store }: { store: LiveStore }) {
  useObservable(store);
  const t = store.tap;
  const text = t.state === 'open' ? `live: ${t.apps.join(', ')}` : t.apps.length === 0 ? 'no applications to follow' : t.message ?? 'connecting';
  return <span class={`tap tap-${t.state}`} id="tap-status" data-state={t.state}>{text}</span>;
}

/** The signed-in console: header, tabs, and the view of the chosen tab. */
export function ConsoleView({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const store = useMemo(() => new LiveStore(), [session]);
  const log = useMemo(() => new EventLogStore(), [session]);
  const feed = useMemo(() => new LiveFeed(session, store, log), [session, store, log]);
  const [tab, setTab] = useState<Tab>('calls');
  const [problem, setProblem] = useState('');

  useEffect(() => {
    feed.start().catch((e: Error) => setProblem(`Could not load the calls: ${e.message}`));
    return () => feed.stop();
  }, [feed]);

  return (
    <div class="console">
      <header class="bar">
        <strong class="title">Trunkline</strong>
        <nav class="tabs">
          {TABS.map((t) => (
            <button type="button" key={t.key} id={`tab-${t.key}`} class={tab === t.key ? 'active' : ''} onClick={() => setTab(t.key)}>
              {t.label}
            </button>
          ))}
        </nav>
        <ClockBar session={session} store={store} feed={feed} />
        <TapStatus store={store} />
        <nav class="refs">
          API: <a href={`${BASE}/api/swagger?doc=ari`}>ARI</a> <a href={`${BASE}/api/swagger?doc=sim`}>Simulation</a>{' '}
          <a href={`${BASE}/api/swagger?doc=gitea`}>Gitea</a>
        </nav>
        <span class="user">
          {session.ari.user} <button type="button" id="sign-out" onClick={onSignOut}>Sign out</button>
        </span>
      </header>
      {problem && <p class="error" role="alert">{problem}</p>}
      <main class="content">
        {tab === 'calls' && <CallsView session={session} store={store} feed={feed} />}
        {tab === 'events' && <EventLogView log={log} />}
        {tab === 'recordings' && <RecordingsView session={session} store={store} />}
        {tab === 'repos' && <ReposView session={session} />}
      </main>
    </div>
  );
}
