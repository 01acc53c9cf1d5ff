import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { restartableServer, type RestartableServer } from '../_helpers/child.js';
import { connectEvents, type EventLog } from '../_helpers/events.js';
import { socketClosed } from '../_helpers/socket-closed.js';
import { waitUntil } from '../_helpers/wait.js';
import { startWsPeer, type WsPeer } from '../_helpers/ws-peer.js';

// A per-call originate killed (SIGKILL) while its connection attempt is pending: the known point is the
// peer holding the server's upgrade unanswered. The wait was stored before the attempt went out, so after
// the restart the channel asks for its connection again: it enters its per-call application when the
// connection comes, and is hung up (Normal Clearing, as a failed Stasis of an originate is) when it does
// not. It is never left waiting with nothing to end it.
const test = suite('reliability: per-call outbound connection interrupted by a kill');

let server: RestartableServer | undefined;
let peer: WsPeer | undefined;
const logs: EventLog[] = [];
test.after.each(async () => {
  for (const l of logs.splice(0)) await l.close();
  await server?.cleanup();
  await peer?.close();
  server = undefined;
  peer = undefined;
});

/** A peer that leaves upgrades unanswered until `accept()`; a server whose per-call app `pcapp` connects to it. */
async function world(): Promise<{ accept: () => void }> {
  let accepting = false;
  peer = await startWsPeer(() => (accepting ? undefined : null));
  server = restartableServer('percall-crash', {
    NODE_ENV: 'test',
    SIM_TIME_SCALE: '10',
    WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS: 'true',
    ARI_OUTBOUND_WEBSOCKETS: JSON.stringify({ pc: { uri: peer.url('/per-call'), connection_type: 'per_call_config', apps: 'pcapp', local_ari_user: 'asterisk', connection_timeout: 600_000, reconnect_attempts: 1 } }),
  });
  return { accept: () => (accepting = true) };
}

/** Originates into the per-call app and kills the server once its connection attempt reaches the peer. */
async function originateAndKill(id: string): Promise<void> {
  const s = await server!.start();
  const r = await s.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'pcapp', channelId: id } });
  assert.is(r.status, 200, r.text);
  await waitUntil(() => peer!.upgrades.length === 1, 'the connection attempt reaches the peer');
  s.assertNoViolations();
  await server!.kill();
}

test('the connection comes after the restart: the channel enters <app>:<channel name> and is controlled over it', async () => {
  const { accept } = await world();
  await originateAndKill('pc-crash');
  accept();
  const s = await server!.start();
  const c = await peer!.connection(0);
  const start = await c.log.waitFor('StasisStart');
  assert.is(start.channel!.id, 'pc-crash');
  assert.is(start.channel!.state, 'Up');
  assert.equal(start.args, []);
  assert.equal(c.log.events.map((e) => `${e.type}:${e.application}`), [`ApplicationRegistered:pcapp:${start.channel!.name}`, `StasisStart:pcapp:${start.channel!.name}`]);
  const closed = socketClosed(c.ws);
  assert.is((await s.http('DELETE', '/ari/channels/pc-crash')).status, 204);
  assert.is((await closed).code, 1000);
  s.assertNoViolations();
});

test('no connection comes after the restart: the channel is hung up with Normal Clearing instead of waiting forever', async () => {
  await world();
  await originateAndKill('pc-crash-2');
  const s = await server!.start();
  const all = await connectEvents(s.url, 'watch', { subscribeAll: true });
  logs.push(all);
  assert.is((await s.http('GET', '/ari/channels/pc-crash-2')).body.state, 'Up');
  // The restarted server's attempt reaches the peer; the peer goes away, so that attempt (the only one allowed) fails.
  await waitUntil(() => peer!.upgrades.length === 2, 'the restarted server asks for the connection again');
  await peer!.close();
  const destroyed = await all.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'pc-crash-2');
  assert.equal([destroyed.cause, destroyed.cause_txt], [16, 'Normal Clearing']);
  assert.not.ok(all.of('pc-crash-2').some((e) => e.type === 'StasisStart'));
  assert.is((await s.http('GET', '/ari/channels/pc-crash-2')).status, 404);
  s.assertNoViolations();
});

test.run();
