import { useState } from 'preact/hooks';
import { call } from '../api.js';
import type { LiveStore } from '../live/live-store.js';
import type { Session } from '../session.js';

/** POST /sim/calls: an endpoint's far end calls in to an extension (optionally naming the Stasis app the dialplan enters). */
export function PlaceCall({ session, store, onPlaced }: { session: Session; store: LiveStore; onPlaced: () => void }) {
  const [endpoint, setEndpoint] = useState('PJSIP/alice');
  const [extension, setExtension] = useState('1000');
  const [context, setContext] = useState('');
  const [app, setApp] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();
  const endpoints = [...store.endpoints.keys()].sort();

  async function place(ev: Event) {
    ev.preventDefault();
    setResult(undefined);
    try {
      const body = app ? { variables: { STASIS_APP: app } } : undefined;
      const ch = await call<{ id: string; name: string }>(session, 'ari', 'POST', '/sim/calls', { endpoint, extension, context: context || undefined }, body);
      setResult({ ok: true, text: `${ch.name} (${ch.id}) is calling ${extension}` });
      onPlaced();
    } catch (e) {
      setResult({ ok: false, text: (e as Error).message });
    }
  }

  return (
    <section class="panel" id="place-call">
      <h2>Place an inbound call</h2>
      <form class="inline" onSubmit={place}>
        <label>From
          <select name="endpoint" value={endpoint} onChange={(e) => setEndpoint(e.currentTarget.value)}>
            {(endpoints.includes(endpoint) ? endpoints : [endpoint, ...endpoints]).map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </label>
        <label>Extension <input name="extension" required size={8} value={extension} onInput={(e) => setExtension(e.currentTarget.value)} /></label>
        <label>Context <input name="context" size={10} placeholder="default" value={context} onInput={(e) => setContext(e.currentTarget.value)} /></label>
        <label>App (STASIS_APP) <input name="app" size={10} placeholder="as the dialplan says" value={app} onInput={(e) => setApp(e.currentTarget.value)} /></label>
        <button type="submit">Call</button>
      </form>
      {result && <p class={result.ok ? 'ok' : 'error'} id="place-call-result">{result.text}</p>}
    </section>
  );
}
