import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, type ChildServer } from '../_helpers/child.js';
import { connectEvents } from '../_helpers/events.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { pollUntil } from '../_helpers/wait.js';

// Restart and crash safety: the server runs as a child process so it can be killed.
const test = suite('restart');
let dataDir: string;
let server: ChildServer | undefined;
const SCALE = '10';

test.before(() => {
  dataDir = tempDir('restart');
});
test.after(async () => {
  if (server && server.proc.exitCode === null) {
    server.proc.kill('SIGKILL');
    await server.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const start = () => spawnServer({ DATA_DIR: dataDir, SIM_TIME_SCALE: SCALE });

test('SIGKILL then restart: live channels, variables, app membership and pending timers survive', async () => {
  server = await start();
  const http = server.http;
  let ev = await connectEvents(server.url, 'r1');

  // An answered channel in r1 with a reported variable.
  const a = await http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'r1', channelId: 'keep-a' } });
  assert.is(a.status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'keep-a');
  assert.is((await http('POST', '/ari/channels/keep-a/variable', { query: { variable: 'ORDER', value: '42', report_events: true } })).status, 204);
  // A created (Down) channel waiting in r1.
  assert.is((await http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'r1', channelId: 'keep-b' } })).status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'keep-b');
  // A ringing originate with 20 simulated seconds of timeout left (2 s of wall time at scale 10).
  assert.is((await http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/noanswer', app: 'r1', channelId: 'keep-c', timeout: 20 } })).status, 200);
  await ev.waitFor((e) => e.type === 'ChannelStateChange' && e.channel?.id === 'keep-c' && e.channel.state === 'Ringing');
  // An inbound call parked in a dialplan Wait(600).
  const w = await http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/bob', extension: 'ring', channelId: 'keep-d' } });
  assert.is(w.status, 200);
  // A channel that ended before the crash is history.
  await http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/busy', app: 'r1', channelId: 'gone-e' } });
  await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'gone-e');

  const before = (await http('GET', '/ari/channels')).body as Array<{ id: string }>;
  assert.equal(before.map((c) => c.id).sort(), ['keep-a', 'keep-b', 'keep-c', 'keep-d']);
  const killedAt = Date.now();
  server.proc.kill('SIGKILL');
  assert.is(await server.exited, 'SIGKILL');
  await ev.close();

  // The file is consistent after the kill.
  const db = new Database(join(dataDir, 'trunkline.db'), { readonly: true });
  assert.is(db.pragma('integrity_check', { simple: true }), 'ok');
  db.close();

  server = await start();
  const http2 = server.http;
  const after = (await http2('GET', '/ari/channels')).body as Array<{ id: string; state: string; channelvars?: Record<string, string> }>;
  assert.equal(after.map((c) => c.id).sort(), ['keep-a', 'keep-b', 'keep-c', 'keep-d']);
  const byId = Object.fromEntries(after.map((c) => [c.id, c]));
  assert.is(byId['keep-a']!.state, 'Up');
  assert.equal(byId['keep-a']!.channelvars, { ORDER: '42' });
  assert.is(byId['keep-b']!.state, 'Down');
  assert.is(byId['keep-c']!.state, 'Ringing');
  // An inbound call whose dialplan indicates ringing stays in Ring (Ringing() indicates, it does not change state).
  assert.is(byId['keep-d']!.state, 'Ring');
  assert.equal((await http2('GET', '/ari/channels/keep-a/variable', { query: { variable: 'ORDER' } })).body, { value: '42' });

  // The app reconnects and controls its channels again.
  ev = await connectEvents(server.url, 'r1');
  assert.is((await http2('POST', '/ari/channels/keep-a/variable', { query: { variable: 'AFTER', value: 'restart' } })).status, 204);
  const varset = await ev.waitFor((e) => e.type === 'ChannelVarset' && e.variable === 'AFTER');
  assert.equal(varset.channel!.channelvars, { ORDER: '42' });
  assert.is((await http2('POST', '/ari/channels/keep-b/dial')).status, 204);
  await ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'keep-b' && e.dialstatus === 'ANSWER', 5000);

  // The dial timeout armed before the kill still fires, at its original time.
  const timedOut = await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'keep-c', 10_000);
  assert.is(timedOut.cause, 19);
  assert.ok(Date.now() - killedAt >= 1500, 'the timeout kept its deadline (2 s wall from originate)');

  await http2('DELETE', '/ari/channels/keep-a');
  const end = await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'keep-a');
  assert.equal(ev.of('keep-a').filter((e) => e.type !== 'ChannelVarset').map((e) => e.type), ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
  assert.is(end.cause, 16);

  // History kept what ended before the crash.
  const hist = await http2('GET', '/sim/history', { query: { limit: 10 } });
  const gone = (hist.body as Array<{ id: string; cause: number }>).find((h) => h.id === 'gone-e');
  assert.ok(gone, 'history has the channel that ended before the kill');
  assert.is(gone!.cause, 17);

  // Ids and names keep increasing across restarts (no reuse of a sequence).
  const fresh = await http2('POST', '/ari/channels', { query: { endpoint: 'PJSIP/alice', app: 'r1' } });
  assert.not.equal(fresh.body.name, a.body.name);
  const names = after.map((c) => (c as unknown as { name: string }).name);
  assert.not.ok(names.includes(fresh.body.name));
  await ev.close();
});

test('acknowledged writes survive a kill right after the answer', async () => {
  if (server && server.proc.exitCode === null) {
    server.proc.kill('SIGKILL');
    await server.exited;
  }
  server = await start();
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) {
    const r = await server.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'nobody-listens', channelId: `ack-${i}` } });
    if (r.status === 200) ids.push(`ack-${i}`);
  }
  // Stasis fails for an app without a socket, so these channels end shortly; each end is acknowledged by nothing,
  // but every creation answered 200 must be on disk (live or in the history).
  server.proc.kill('SIGKILL');
  await server.exited;
  const db = new Database(join(dataDir, 'trunkline.db'), { readonly: true });
  const rows = db.prepare("SELECT id FROM channels WHERE id LIKE 'ack-%'").all() as Array<{ id: string }>;
  db.close();
  assert.equal(rows.map((r) => r.id).sort(), ids.sort());
  server = await start();
});

test('SIGTERM: event sockets get 1001, the process exits 0', async () => {
  if (!server || server.proc.exitCode !== null || server.proc.signalCode !== null) server = await start();
  const ev = await connectEvents(server.url, 'r2');
  server.proc.kill('SIGTERM');
  assert.is(await server.exited, 0);
  await pollUntil(() => ev.closed !== undefined);
  assert.is(ev.closed?.code, 1001);
});

test('a bad configuration value stops the server with one line naming it', async () => {
  for (const [key, val] of [['PORT', 'eighty'], ['HOST', '0.0.0.0:8088'], ['SIM_TIME_SCALE', '0'], ['LOG_LEVEL', 'loud'], ['ARI_USERS', 'nopassword']]) {
    const err = await spawnServer({ DATA_DIR: dataDir, [key!]: val! }, 15_000).then(
      (s) => {
        s.proc.kill('SIGKILL');
        return undefined;
      },
      (e: Error) => e.message,
    );
    assert.ok(err, `${key}=${val} must be refused`);
    const lines = err!.split('\n').filter((l) => l.startsWith('trunkline:'));
    assert.is(lines.length, 1, err);
    assert.match(lines[0]!, new RegExp(`invalid ${key}`));
    if (key === 'ARI_USERS') assert.not.match(err!, /nopassword/);
  }
});

test.run();
