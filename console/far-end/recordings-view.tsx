import { useEffect, useState } from 'preact/hooks';
import { call, seg } from '../api.js';
import type { LiveStore } from '../live/live-store.js';
import { useObservable } from '../observable.js';
import type { Session } from '../session.js';
import { AudioPlayer } from './audio-player.js';

interface Stored {
  name: string;
  format: string;
}

/** Stored recordings (GET /ari/recordings/stored), each playable in the page; the list is read again as recordings finish. */
export function RecordingsView({ session, store }: { session: Session; store: LiveStore }) {
  useObservable(store);
  const [list, setList] = useState<Stored[] | undefined>();
  const [error, setError] = useState('');
  const inProgress = store.recordings.size;
  useEffect(() => {
    call<Stored[]>(session, 'ari', 'GET', '/ari/recordings/stored').then(setList, (e: Error) => setError(e.message));
  }, [session, inProgress]);
  return (
    <section class="panel" id="recordings">
      <h2>Stored recordings</h2>
      {error && <p class="error">{error}</p>}
      {list?.length === 0 && <p class="hint">none</p>}
      <table>
        <tbody>
          {list?.map((r) => (
            <tr key={r.name} data-recording={r.name}>
              <td><code>{r.name}</code></td>
              <td>{r.format}</td>
              <td><AudioPlayer session={session} path={`/ari/recordings/stored/${seg(r.name)}/file`} label="recording" id={r.name} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
