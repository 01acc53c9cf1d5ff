import * as assert from 'uvu/assert';
import type { AriEvent, EventLog } from './events.js';
import type { TestServer } from './server.js';

/** A channel put in an application: its id, the HTTP answer's channel snapshot and its StasisStart. */
export interface InApp {
  id: string;
  body: any;
  start: AriEvent;
}

const stasisStart = (log: EventLog, id: string) => log.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);

/** POST /ari/channels/create into `app` (PJSIP/alice unless `endpoint`; the server picks the id unless `id`), assert 200, wait on `log` for its StasisStart: in the app, still Down. */
export async function createInApp(t: TestServer, log: EventLog, opts: { app: string; id?: string; endpoint?: string }): Promise<InApp> {
  const r = await t.http('POST', '/ari/channels/create', { query: { endpoint: opts.endpoint ?? 'PJSIP/alice', app: opts.app, channelId: opts.id } });
  assert.is(r.status, 200, r.text);
  const id: string = opts.id ?? r.body.id;
  return { id, body: r.body, start: await stasisStart(log, id) };
}

/** POST /ari/channels (originate into `app`; PJSIP/instant, which answers at once, unless `endpoint`), assert 200, wait on `log` for the StasisStart that follows the answer. */
export async function originateInApp(t: TestServer, log: EventLog, opts: { app: string; id: string; endpoint?: string }): Promise<InApp> {
  const r = await t.http('POST', '/ari/channels', { query: { endpoint: opts.endpoint ?? 'PJSIP/instant', app: opts.app, channelId: opts.id } });
  assert.is(r.status, 200, r.text);
  return { id: opts.id, body: r.body, start: await stasisStart(log, opts.id) };
}

/** POST /sim/calls (inbound from PJSIP/alice to 1000 unless `endpoint`/`extension`/`context`; `app` is sent as the STASIS_APP call variable), assert 200, wait on `log` for the StasisStart the dialplan leads to. */
export async function callInApp(
  t: TestServer,
  log: EventLog,
  opts: { id: string; app?: string; endpoint?: string; extension?: string; context?: string; variables?: Record<string, string> },
): Promise<InApp> {
  const variables = opts.app === undefined ? opts.variables : { STASIS_APP: opts.app, ...opts.variables };
  const query = { endpoint: opts.endpoint ?? 'PJSIP/alice', extension: opts.extension ?? '1000', context: opts.context, channelId: opts.id };
  const r = await t.http('POST', '/sim/calls', { query, ...(variables ? { json: { variables } } : {}) });
  assert.is(r.status, 200, r.text);
  return { id: opts.id, body: r.body, start: await stasisStart(log, opts.id) };
}

/** DELETE /ari/channels/{id} (the status is not checked) and wait on `log` for the channel's ChannelDestroyed, which it returns. */
export async function hangupAndWait(t: TestServer, log: EventLog, id: string): Promise<AriEvent> {
  await t.http('DELETE', `/ari/channels/${encodeURIComponent(id)}`);
  return log.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
}

/** One label per event: `Dial:<dialstatus>`, `State:<state>` for a ChannelStateChange, else the event type. */
export const eventLabel = (e: AriEvent): string =>
  e.type === 'Dial' ? `Dial:${e.dialstatus}` : e.type === 'ChannelStateChange' ? `State:${e.channel!.state}` : e.type;

/** The labels (`eventLabel` unless `label`) of every event `log` holds about channel `id`, in order. */
export const eventSequence = (log: EventLog, id: string, label: (e: AriEvent) => string = eventLabel): string[] => log.of(id).map(label);
