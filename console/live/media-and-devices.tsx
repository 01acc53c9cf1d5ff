import type { LiveStore } from './live-store.js';

/** Playbacks and recordings in progress (from events: ARI cannot list them), endpoints and device states. */
export function MediaAndDevices({ store }: { store: LiveStore }) {
  const playbacks = [...store.playbacks.values()];
  const recordings = [...store.recordings.values()];
  const endpoints = [...store.endpoints.values()].sort((a, b) => `${a.technology}/${a.resource}`.localeCompare(`${b.technology}/${b.resource}`));
  const devices = [...store.deviceStates.values()];
  return (
    <div class="columns">
      <section class="panel" id="media">
        <h2>Playbacks and recordings in progress</h2>
        {playbacks.length + recordings.length === 0 && <p class="hint">none</p>}
        <ul>
          {playbacks.map((p) => (
            <li key={p.id} data-playback={p.id}>
              ▶ <code>{p.media_uri}</code> on {p.target_uri} <span class="muted">{p.state}</span>
            </li>
          ))}
          {recordings.map((r) => (
            <li key={r.name} data-recording={r.name}>
              ● <code>{r.name}</code>.{r.format} from {r.target_uri} <span class="muted">{r.state}</span>
            </li>
          ))}
        </ul>
      </section>
      <section class="panel" id="endpoints">
        <h2>Endpoints</h2>
        <table>
          <tbody>
            {endpoints.map((e) => (
              <tr key={`${e.technology}/${e.resource}`} data-endpoint={`${e.technology}/${e.resource}`}>
                <td>{e.technology}/{e.resource}</td>
                <td>{e.state ?? ''}</td>
                <td class="muted">{e.channel_ids.length ? `${e.channel_ids.length} channel(s)` : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section class="panel" id="device-states">
        <h2>Device states</h2>
        {devices.length === 0 ? <p class="hint">none</p> : (
          <table>
            <tbody>
              {devices.map((d) => (
                <tr key={d.name}><td>{d.name}</td><td>{d.state}</td></tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
