import { useCallback, useEffect, useState } from 'preact/hooks';
import { memo } from '../memo.js';
import { useObservable } from '../observable.js';
import { PlaceCall } from '../far-end/place-call.js';
import type { Session } from '../session.js';
import { ChannelRow } from './channel-row.js';
import { redrawDurations } from './duration.js';
import type { LiveFeed } from './live-feed.js';
import type { LiveStore } from './live-store.js';
import type { LiveChannel } from './models.js';
import { MediaAndDevices } from './media-and-devices.js';

/**
 * Channels by application: one table per application, and one for channels in none. Drawn again
 * when the list changes (a channel comes, goes or moves), not for each change of a channel.
 */
const ChannelsByApp = memo(({ session, store }: { session: Session; store: LiveStore }) => {
  useObservable(store.list);
  const [open, setOpen] = useState<string | undefined>();
  // One function for every row, so a row whose channel did not change is not drawn again.
  const toggle = useCallback((id: string) => setOpen((was) => (was === id ? undefined : id)), []);
  const groups = new Map<string, LiveChannel[]>();
  for (const c of store.channels.values()) {
    const key = c.app ?? '';
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  const apps = store.appNames();
  const sections = [...apps.map((a) => ({ key: a.name, title: a.name, listed: a.listed })), { key: '', title: 'Not in an application', listed: true }];
  return (
    <section class="panel" id="applications">
      <h2>Applications and channels</h2>
      {apps.length === 0 && <p class="hint">No application is registered. Connect one to /ari/events to follow its calls live.</p>}
      {sections.map((s) => {
        // ISO timestamps of one format sort as strings; a plain comparison is far cheaper than localeCompare.
        const channels = (groups.get(s.key) ?? []).sort((a, b) => (a.creationtime < b.creationtime ? -1 : a.creationtime > b.creationtime ? 1 : 0));
        if (s.key === '' && channels.length === 0) return null;
        return (
          <div class="app" key={s.key} data-app={s.key}>
            <h3>
              {s.title} {s.key && <span class={`badge ${s.listed ? 'ok' : 'off'}`}>{s.listed ? 'registered' : 'not connected'}</span>}{' '}
              <span class="count">{channels.length} channel{channels.length === 1 ? '' : 's'}</span>
            </h3>
            {channels.length > 0 && (
              // The rows are laid out as grids (console.css), so the table's roles are said outright.
              <table class="channels" role="table">
                <thead role="rowgroup">
                  <tr role="row">{['Channel', 'State', 'Caller', 'Connected', 'Dialplan', 'Duration', ''].map((h) => <th key={h} role="columnheader">{h}</th>)}</tr>
                </thead>
                <tbody role="rowgroup">
                  {channels.map((c) => (
                    <ChannelRow key={c.id} session={session} store={store} id={c.id} open={open === c.id} onToggle={toggle} />
                  ))}
                </tbody>
              </table>
            )}
          </div>
        );
      })}
    </section>
  );
});

/** Bridges and who is in them. */
function Bridges({ store }: { store: LiveStore }) {
  const name = (id: string) => store.channels.get(id)?.name ?? id;
  return (
    <section class="panel" id="bridges">
      <h2>Bridges</h2>
      {store.bridges.size === 0 ? <p class="hint">none</p> : (
        <ul>
          {[...store.bridges.values()].map((b) => (
            <li key={b.id} data-bridge={b.id}>
              <code>{b.id}</code> {b.name && <em>{b.name}</em>} <span class="muted">{b.bridge_type}/{b.technology}</span>: {b.channels.length ? b.channels.map(name).join(', ') : 'empty'}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The live call view: place a call, the channels by application, bridges, media in progress, endpoints and devices. */
export function CallsView({ session, store, feed }: { session: Session; store: LiveStore; feed: LiveFeed }) {
  useObservable(store);
  // The server's clock may have moved (a virtual advance): the durations in view follow at once.
  useEffect(redrawDurations);
  return (
    <div class="calls">
      <PlaceCall session={session} store={store} onPlaced={() => void feed.refresh().catch(() => undefined)} />
      <ChannelsByApp session={session} store={store} />
      <Bridges store={store} />
      <MediaAndDevices store={store} />
    </div>
  );
}
