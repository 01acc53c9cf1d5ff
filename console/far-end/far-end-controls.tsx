import { useState } from 'preact/hooks';
import { call, seg } from '../api.js';
import type { LiveChannel } from '../live/models.js';
import type { Session } from '../session.js';
import { Heard } from './heard.js';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'];
/** Q.850 causes a far end commonly hangs up with. */
const CAUSES = [
  { cause: 16, label: '16 normal clearing' },
  { cause: 17, label: '17 user busy' },
  { cause: 19, label: '19 no answer' },
  { cause: 21, label: '21 call rejected' },
  { cause: 34, label: '34 no circuit (congestion)' },
];

/** What the far end of one channel can do: answer, press keys, hold, talk, hang up; and what it heard. */
export function FarEndControls({ session, channel }: { session: Session; channel: LiveChannel }) {
  const [cause, setCause] = useState(16);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | undefined>();
  const [talking, setTalking] = useState(false);
  const base = `/sim/channels/${seg(channel.id)}`;

  async function act(label: string, method: string, suffix: string, query: Record<string, string | number> = {}) {
    try {
      await call(session, 'ari', method, `${base}${suffix}`, query);
      setStatus({ ok: true, text: label });
      return true;
    } catch (e) {
      setStatus({ ok: false, text: `${label}: ${(e as Error).message}` });
      return false;
    }
  }

  return (
    <div class="far-end" data-far-end={channel.id}>
      <div class="far-end-actions">
        <h4>Far end of {channel.name}</h4>
        <div class="controls">
          <button type="button" data-action="answer" onClick={() => void act('answered', 'POST', '/answer')}>Answer</button>
          <button type="button" data-action="hold" onClick={() => void act(channel.held ? 'off hold' : 'on hold', channel.held ? 'DELETE' : 'POST', '/hold')}>
            {channel.held ? 'Unhold' : 'Hold'}
          </button>
          <button type="button" data-action="talk" onClick={() => void act(talking ? 'stopped talking' : 'talking', talking ? 'DELETE' : 'POST', '/talk').then((ok) => ok && setTalking(!talking))}>
            {talking ? 'Stop talking' : 'Talk'}
          </button>
          <label>Cause
            <select name="cause" value={cause} onChange={(e) => setCause(Number(e.currentTarget.value))}>
              {CAUSES.map((c) => <option key={c.cause} value={c.cause}>{c.label}</option>)}
            </select>
          </label>
          <button type="button" data-action="hangup" class="danger" onClick={() => void act(`hung up (cause ${cause})`, 'POST', '/hangup', { cause })}>Hang up</button>
        </div>
        <div class="keypad" role="group" aria-label="keypad">
          {KEYS.map((k) => (
            <button type="button" key={k} data-key={k} onClick={() => void act(`pressed ${k}`, 'POST', '/dtmf', { dtmf: k })}>{k}</button>
          ))}
        </div>
        {status && <p class={status.ok ? 'ok' : 'error'} data-far-end-status>{status.text}</p>}
      </div>
      <Heard session={session} channelId={channel.id} />
    </div>
  );
}
