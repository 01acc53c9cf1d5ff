import { useState } from 'preact/hooks';
import { call, seg } from '../api.js';
import type { Session } from '../session.js';
import { AudioPlayer } from './audio-player.js';

interface HeardItem {
  at: string;
  kind: string;
  media?: string;
  digit?: string;
  class?: string;
  peers?: string[];
  duration_ms?: number;
  completed?: boolean;
}

const what = (i: HeardItem) => i.media ?? (i.digit !== undefined ? `digit ${i.digit}` : i.class ? `class ${i.class}` : i.peers ? `with ${i.peers.join(', ') || 'nobody'}` : '');

/** What the far end was sent: the list (GET /sim/channels/{id}/heard) and the audio (heard.wav). */
export function Heard({ session, channelId }: { session: Session; channelId: string }) {
  const [items, setItems] = useState<HeardItem[] | undefined>();
  const [error, setError] = useState('');
  const path = `/sim/channels/${seg(channelId)}/heard`;
  async function load() {
    try {
      setItems((await call<{ items: HeardItem[] }>(session, 'ari', 'GET', path)).items);
      setError('');
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return (
    <div class="heard">
      <h4>Heard</h4>
      <button type="button" data-action="heard" onClick={() => void load()}>{items ? 'Refresh list' : 'Show list'}</button>{' '}
      <AudioPlayer session={session} path={`${path}.wav`} label="heard.wav" />
      {error && <span class="error">{error}</span>}
      {items && (
        <table class="heard-items">
          <tbody>
            {items.length === 0 && <tr><td class="hint">nothing yet</td></tr>}
            {items.map((i, n) => (
              <tr key={n}>
                <td class="muted">{i.at}</td><td>{i.kind}</td><td>{what(i)}</td>
                <td class="muted">{i.duration_ms !== undefined ? `${i.duration_ms} ms` : 'ongoing'}{i.completed === false ? ', cut short' : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
