import { createSocket } from 'node:dgram';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, type ChildServer } from '../_helpers/child.js';
import { connectEvents, sleep, type EventLog } from '../_helpers/events.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { pollUntil, WAIT_MS } from '../_helpers/wait.js';

// Kills the server at the moments that matter: right after an answer has left and before anything that
// follows it (the server's CRASH_AFTER test hook commits nothing after that answer, then SIGKILLs itself).
// After the restart every acknowledged channel must be where the answer said, in its application and
// controllable once the application reconnects.
const test = suite('reliability: crash points');
const SCALE = '10';
let dataDir = '';
let server: ChildServer | undefined;
const logs: EventLog[] = [];

test.before.each(() => {
  dataDir = tempDir('crashpoint');
});
test.after.each(async () => {
  for (const l of logs.splice(0)) await l.close();
  if (server && server.proc.exitCode === null && server.proc.signalCode === null) {
    server.proc.kill('SIGKILL');
    await server.exited;
  }
  server = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

const start = async (env: Record<string, string> = {}) => {
  server = await spawnServer({ DATA_DIR: dataDir, SIM_TIME_SCALE: SCALE, NODE_ENV: 'test', ...env });
  return server;
};
const events = async (apps: string | string[]) => {
  const l = await connectEvents(server!.url, apps);
  logs.push(l);
  return l;
};

/** Waits for the crash the hook promised; the answer before it must have arrived whole. */
async function crashed(s: ChildServer): Promise<void> {
  assert.is(await s.exited, 'SIGKILL', s.output());
  for (const l of logs.splice(0)) await l.close();
  const db = new Database(join(dataDir, 'trunkline.db'), { readonly: true });
  assert.is(db.pragma('integrity_check', { simple: true }), 'ok');
  db.close();
}

/** The app's connection comes back a little after the restart, as a real client's retry would. */
const reconnectLater = async (apps: string | string[]) => {
  await sleep(300);
  return events(apps);
};

test('channels/create in a loop, killed right after the 5th answer: all five are in the app after the restart', async () => {
  const s = await start({ CRASH_AFTER: 'create#5' });
  const ev = await events('crashy');
  for (let i = 1; i <= 5; i++) {
    const r = await s.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'crashy', channelId: `cr-${i}` } });
    assert.is(r.status, 200, r.text);
    assert.is(r.body.id, `cr-${i}`);
    if (i < 5) await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === `cr-${i}`);
  }
  await crashed(s);

  const s2 = await start();
  const ev2 = await reconnectLater('crashy');
  // The fifth never got its StasisStart before the kill: it comes once the app is back.
  const started = await ev2.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'cr-5');
  assert.is(started.channel!.state, 'Down');
  assert.equal(ev2.events.filter((e) => e.type === 'StasisStart').map((e) => e.channel!.id), ['cr-5']);
  for (let i = 1; i <= 5; i++) {
    const g = await s2.http('GET', `/ari/channels/cr-${i}`);
    assert.is(g.status, 200, `cr-${i}: ${g.text}`);
  }
  // Controllable: the restored channel dials and is answered.
  assert.is((await s2.http('POST', '/ari/channels/cr-5/dial')).status, 204);
  await ev2.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'cr-5' && e.dialstatus === 'ANSWER');
  assert.equal(ev2.of('cr-5').filter((e) => e.type === 'ChannelDestroyed'), []);
});

test('originate into an app, killed right after the answer: the call is placed and enters the app after the restart', async () => {
  const s = await start({ CRASH_AFTER: 'originate' });
  await events('orig');
  const r = await s.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/alice', app: 'orig', appArgs: 'a,b', channelId: 'or-1' } });
  assert.is(r.status, 200, r.text);
  await crashed(s);

  const s2 = await start();
  // Alice answers one simulated second after the dial starts (100 ms here); the app is slower to come back.
  const ev = await reconnectLater('orig');
  const started = await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'or-1');
  assert.equal(started.args, ['a', 'b']);
  assert.is(started.channel!.state, 'Up');
  assert.is((await s2.http('GET', '/ari/channels/or-1')).body.state, 'Up');
});

test('snoop, killed right after the answer: the snoop channel enters its app after the restart', async () => {
  const s = await start({ CRASH_AFTER: 'snoopChannel' });
  const ev = await events('spy');
  assert.is((await s.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'spy', channelId: 'target' } })).status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'target');
  const r = await s.http('POST', '/ari/channels/target/snoop', { query: { spy: 'both', app: 'spy', snoopId: 'sn-1' } });
  assert.is(r.status, 200, r.text);
  await crashed(s);

  const s2 = await start();
  const ev2 = await reconnectLater('spy');
  await ev2.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'sn-1');
  assert.is((await s2.http('GET', '/ari/channels/sn-1')).status, 200);
  assert.is((await s2.http('POST', '/ari/channels/sn-1/variable', { query: { variable: 'X', value: '1' } })).status, 204);
});

test('external media, killed right after the answer: the channel enters its app after the restart', async () => {
  const rtp = createSocket('udp4');
  await new Promise<void>((r) => rtp.bind(0, '127.0.0.1', () => r()));
  try {
    const s = await start({ CRASH_AFTER: 'externalMedia' });
    await events('media');
    const r = await s.http('POST', '/ari/channels/externalMedia', {
      query: { app: 'media', external_host: `127.0.0.1:${rtp.address().port}`, format: 'ulaw', channelId: 'em-1' },
    });
    assert.is(r.status, 200, r.text);
    await crashed(s);

    const s2 = await start();
    const ev = await reconnectLater('media');
    await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'em-1');
    assert.is((await s2.http('GET', '/ari/channels/em-1')).body.state, 'Up');
  } finally {
    rtp.close();
  }
});

/** A channel in `app` whose control queue is held by DTMF being sent for about a second of wall time. */
async function busyChannel(s: ChildServer, ev: EventLog, app: string, id: string): Promise<void> {
  assert.is((await s.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app, channelId: id } })).status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
  // 4 digits of 2 s each (simulated): the queue is busy for 8+ simulated seconds.
  assert.is((await s.http('POST', `/ari/channels/${id}/dtmf`, { query: { dtmf: '1234', duration: 2000 } })).status, 204);
}

test('move queued behind DTMF, killed right after its 204: the move still happens after the restart', async () => {
  const s = await start({ CRASH_AFTER: 'move' });
  const ev = await events(['from', 'to']);
  await busyChannel(s, ev, 'from', 'mv-1');
  assert.is((await s.http('POST', '/ari/channels/mv-1/move', { query: { app: 'to', appArgs: 'x' } })).status, 204);
  await crashed(s);

  const s2 = await start();
  const ev2 = await reconnectLater(['from', 'to']);
  const moved = await ev2.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'mv-1' && e.application === 'to', 10_000);
  assert.equal(moved.args, ['x']);
  assert.equal(ev2.of('mv-1').map((e) => `${e.type}@${e.application}`).filter((x) => x.startsWith('Stasis')), ['StasisEnd@from', 'StasisStart@to']);
  // The move waited for the DTMF that held the queue: every digit reached the far end first.
  const far = await s2.http('GET', '/sim/channels/mv-1');
  assert.equal(far.body.far_end.dtmf_received.map((d: { digit: string }) => d.digit).join(''), '1234');
});

test('continue queued behind DTMF, killed right after its 204: the channel still returns to the dialplan', async () => {
  const s = await start({ CRASH_AFTER: 'continueInDialplan' });
  const ev = await events('cont');
  await busyChannel(s, ev, 'cont', 'ct-1');
  assert.is((await s.http('POST', '/ari/channels/ct-1/continue', { query: { context: 'default', extension: 'ring', priority: 1 } })).status, 204);
  await crashed(s);

  const s2 = await start();
  const ev2 = await reconnectLater('cont');
  await ev2.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === 'ct-1', 10_000);
  const g = await s2.http('GET', '/ari/channels/ct-1');
  assert.is(g.status, 200);
  assert.is(g.body.dialplan.exten, 'ring');
});

test('dial of a created channel, killed right after its 204: the call proceeds after the restart', async () => {
  const s = await start({ CRASH_AFTER: 'dial' });
  const ev = await events('dialer');
  assert.is((await s.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'dialer', channelId: 'dl-1' } })).status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'dl-1');
  assert.is((await s.http('POST', '/ari/channels/dl-1/dial', { query: { timeout: 30 } })).status, 204);
  await crashed(s);

  const s2 = await start();
  const ev2 = await reconnectLater('dialer');
  await ev2.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'dl-1' && e.dialstatus === 'ANSWER');
  assert.is((await s2.http('GET', '/ari/channels/dl-1')).body.state, 'Up');
});

test('an app that never comes back: restored channels wait out the grace, then go on as without it', async () => {
  const s = await start({ CRASH_AFTER: 'create' });
  await events('gone');
  assert.is((await s.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'gone', channelId: 'gn-1' } })).status, 200);
  await crashed(s);

  const s2 = await start({ APP_RECONNECT_GRACE_MS: '400' });
  // Within the grace the channel is kept for its app.
  assert.is((await s2.http('GET', '/ari/channels/gn-1')).status, 200);
  // Past it, Stasis fails for an app without a socket, as it does without a restart: the channel ends.
  await pollUntil(async () => (await s2.http('GET', '/ari/channels/gn-1')).status !== 200, WAIT_MS, 20);
  assert.is((await s2.http('GET', '/ari/channels/gn-1')).status, 404);
  const hist = await s2.http('GET', '/sim/history', { query: { limit: 5 } });
  assert.is(hist.body.find((h: { id: string }) => h.id === 'gn-1')?.cause, 16);
});

test.run();
