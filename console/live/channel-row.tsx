import { useState } from 'preact/hooks';
import { call, seg } from '../api.js';
import { FarEndControls } from '../far-end/far-end-controls.js';
import { memo } from '../memo.js';
import { useObservable } from '../observable.js';
import type { Session } from '../session.js';
import { Duration } from './duration.js';
import type { LiveStore } from './live-store.js';
import type { CallerId, LiveChannel } from './models.js';

const party = (p: CallerId | undefined) => (p ? [p.name && `"${p.name}"`, p.number].filter(Boolean).join(' ') : '');

/** A variable read on demand (GET /ari/channels/{id}/variable), besides those the channel's events carried. */
function Variables({ session, channel }: { session: Session; channel: LiveChannel }) {
  const [name, setName] = useState('');
  const [read, setRead] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  async function fetchVar(ev: Event) {
    ev.preventDefault();
    setError('');
    try {
      const v = await call<{ value: string }>(session, 'ari', 'GET', `/ari/channels/${seg(channel.id)}/variable`, { variable: name });
      setRead({ ...read, [name]: v.value });
    } catch (e) {
      setError((e as Error).message);
    }
  }
  const all = { ...channel.channelvars, ...read };
  return (
    <div class="variables">
      <h4>Variables</h4>
      {Object.keys(all).length > 0 && (
        <dl>{Object.entries(all).map(([k, v]) => [<dt key={`k${k}`}>{k}</dt>, <dd key={`v${k}`}>{v}</dd>])}</dl>
      )}
      <form class="inline" onSubmit={fetchVar}>
        <input name="variable" placeholder="variable name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit">Read</button>
        {error && <span class="error">{error}</span>}
      </form>
    </div>
  );
}

/**
 * One channel: its row in the table, and (opened) its variables and far-end controls. It watches
 * its own channel, so a change draws this row alone; the table draws it again only when opened
 * or closed.
 */
export const ChannelRow = memo((p: { session: Session; store: LiveStore; id: string; open: boolean; onToggle: (id: string) => void }) => {
  useObservable(p.store.rowOf(p.id));
  const c = p.store.channels.get(p.id);
  if (!c) return null;
  const dp = c.dialplan;
  const flags = [c.held && 'on hold', c.talking && 'talking'].filter(Boolean).join(', ');
  return (
    <>
      <tr class="channel" role="row" data-channel={c.id} data-state={c.state}>
        <td role="cell">
          <span class="name">{c.name}</span>
          <br />
          <code class="muted">{c.id}</code>
        </td>
        <td role="cell" class="state">
          <span class={`state-${c.state.toLowerCase().replace(/\s+/g, '-')}`}>{c.state}</span>
          {flags && <span class="muted"> ({flags})</span>}
        </td>
        <td role="cell" class="caller">{party(c.caller)}</td>
        <td role="cell" class="connected">{party(c.connected)}</td>
        <td role="cell" class="dialplan">
          {dp ? `${dp.context},${dp.exten},${dp.priority}` : ''}
          {dp?.app_name && <span class="muted"> {dp.app_name}({dp.app_data})</span>}
        </td>
        <td role="cell"><Duration store={p.store} since={c.creationtime} /></td>
        <td role="cell"><button type="button" class="details" onClick={() => p.onToggle(c.id)}>{p.open ? 'Close' : 'Far end…'}</button></td>
      </tr>
      {p.open && (
        <tr class="channel-detail" role="row" data-detail={c.id}>
          <td role="cell" colSpan={7}>
            <div class="detail-grid">
              <FarEndControls session={p.session} channel={c} />
              <Variables session={p.session} channel={c} />
            </div>
          </td>
        </tr>
      )}
    </>
  );
});
