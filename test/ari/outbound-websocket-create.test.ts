import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventLabel } from '../_helpers/ari.js';
import { connectEvents, type AriEvent, type EventLog } from '../_helpers/events.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { socketClosed } from '../_helpers/socket-closed.js';
import { startWsPeer, type PeerConnection, type WsPeer } from '../_helpers/ws-peer.js';

// POST /channels/create into an application served by a per_call_config outbound connection. Asterisk's
// create runs the Stasis() application on the new channel, so, as for originate and the dialplan, a
// connection is opened for that channel and it enters `<app>:<channel name>` (still Down) once it is up.

const test = suite('outbound-websocket-create');

const started: Array<TestServer | WsPeer | EventLog> = [];
test.after.each(async () => {
  for (const x of started.splice(0).reverse()) {
    if ('assertNoViolations' in x) x.assertNoViolations();
    await x.close();
  }
});

async function server(uri: string, extra: Record<string, unknown> = {}): Promise<{ t: TestServer; all: EventLog }> {
  const t = await startTestServer({
    ARI_OUTBOUND_WEBSOCKETS: JSON.stringify({ pc: { uri, connection_type: 'per_call_config', apps: 'pcapp', local_ari_user: 'asterisk', reconnect_interval: 20, ...extra } }),
    WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS: 'true',
  });
  started.push(t);
  const all = await connectEvents(t.url, 'watch', { subscribeAll: true });
  started.push(all);
  return { t, all };
}

let seq = 0;
function rest(c: PeerConnection, method: string, uri: string, query: Record<string, string> = {}): Promise<AriEvent> {
  const request_id = `cr-${++seq}`;
  c.ws.send(JSON.stringify({ type: 'RESTRequest', request_id, method, uri, query_strings: Object.entries(query).map(([name, value]) => ({ name, value })) }));
  return c.log.waitFor((e) => e.type === 'RESTResponse' && e.request_id === request_id);
}

test('create into a per-call app: 200 Down, then a connection for the channel, which enters <app>:<channel name> Down and is dialed and hung up over it', async () => {
  const p = await startWsPeer();
  started.push(p);
  const { t } = await server(p.url('/per-call'));
  const r = await t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'pcapp', appArgs: 'a,b', channelId: 'pc-create' } });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.state, 'Down');
  const c = await p.connection(0);
  assert.is(c.req.url, '/per-call');
  const start = await c.log.waitFor('StasisStart');
  const instance = `pcapp:${r.body.name}`;
  assert.equal(c.log.events.map((e) => `${e.type}:${e.application}`), [`ApplicationRegistered:${instance}`, `StasisStart:${instance}`]);
  assert.equal(start.args, ['a', 'b']);
  assert.is(start.channel!.state, 'Down');
  assert.equal(start.channel!.dialplan, { context: 'default', exten: 's', priority: 1, app_name: 'Stasis', app_data: 'pcapp,a,b' });

  // The application dials it over its own connection and sees the call come up there.
  const dial = await rest(c, 'POST', 'channels/pc-create/dial');
  assert.is(dial.status_code, 204, dial.message_body);
  await c.log.waitFor((e) => e.type === 'Dial' && e.dialstatus === 'ANSWER');
  const closed = socketClosed(c.ws);
  assert.is((await rest(c, 'DELETE', 'channels/pc-create')).status_code, 204);
  assert.equal((await closed).code, 1000);
  assert.equal(c.log.events.filter((e) => e.type !== 'RESTResponse').map(eventLabel), [
    'ApplicationRegistered', 'StasisStart', 'Dial:', 'State:Ringing', 'Dial:RINGING', 'State:Up', 'Dial:ANSWER', 'ChannelHangupRequest', 'StasisEnd',
  ]);
  assert.is(p.connections.length, 1);
});

test('create into a per-call app whose every attempt fails: the channel is hung up (Normal Clearing) without entering any app', async () => {
  const gone = await startWsPeer();
  const url = gone.url();
  await gone.close();
  const { t, all } = await server(url, { reconnect_attempts: 2, reconnect_interval: 10 });
  const r = await t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'pcapp', channelId: 'pc-create-fail' } });
  assert.is(r.status, 200, r.text);
  const destroyed = await all.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'pc-create-fail');
  assert.equal([destroyed.cause, destroyed.cause_txt], [16, 'Normal Clearing']);
  assert.not.ok(all.of('pc-create-fail').some((e) => e.type === 'StasisStart'));
  assert.is(t.logs.filter((l) => l.includes('outbound websocket connection failed')).length, 2);
  assert.is((await t.http('GET', '/ari/channels/pc-create-fail')).status, 404);
});

test.run();
