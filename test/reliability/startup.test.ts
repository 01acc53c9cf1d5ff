import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../server/config.js';
import { DataDirLockError } from '../../server/db/data-dir-lock.js';
import { ListenError } from '../../server/http/early-server.js';
import { createLogger } from '../../server/log.js';
import { startServer } from '../../server/start.js';
import { runServerToExit, spawnServer, type ChildServer } from '../_helpers/child.js';
import { connectEvents, type EventLog } from '../_helpers/events.js';
import { ariHttp } from '../_helpers/http.js';
import { startTestServer } from '../_helpers/server.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { waitUntil, WAIT_MS } from '../_helpers/wait.js';

// Start-up order: the port first, then DATA_DIR's lock, then the database. A server that
// cannot have its port, or whose DATA_DIR another server owns, stops with one line on
// stderr before writing anything; one that starts holds requests until it is ready.
const test = suite('reliability: start-up');

const dirs: string[] = [];
const children: ChildServer[] = [];
const freshDir = () => {
  const d = tempDir('startup');
  dirs.push(d);
  return d;
};
const silent = (env: Record<string, string>) => {
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', FIXTURES_DIR: join(import.meta.dirname, '..', '..', 'fixtures'), LOG_LEVEL: 'silent', ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password-1', ...env });
  return startServer(config, createLogger('silent'));
};
/** The lines a refused start wrote to stderr. */
const stderrLines = (s: string) => s.split('\n').filter(Boolean);

test.after(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test('a second server on the same DATA_DIR is refused with one line naming the directory and the running pid', async () => {
  const dataDir = freshDir();
  const first = await spawnServer({ DATA_DIR: dataDir, SIM_TIME_SCALE: '10' });
  children.push(first);
  const ev = await connectEvents(first.url, 'owner');
  assert.is((await first.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'owner', channelId: 'live-1' } })).status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'live-1');

  const second = await runServerToExit({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  assert.is(second.code, 1, second.stdout + second.stderr);
  const lines = stderrLines(second.stderr);
  assert.is(lines.length, 1, second.stderr);
  assert.is(lines[0], `trunkline: DATA_DIR ${dataDir} is in use by another Trunkline server (pid ${first.proc.pid}); stop it or choose another DATA_DIR`);
  // It restored nothing and announced nothing: no log line, no listening line.
  assert.is(second.stdout, '');

  // The first server is untouched and still owns its channel.
  const list = await first.http('GET', '/ari/channels');
  assert.equal((list.body as Array<{ id: string }>).map((c) => c.id), ['live-1']);
  assert.is(readFileSync(join(dataDir, 'trunkline.pid'), 'utf8'), `${first.proc.pid}\n`);
  await ev.close();

  // SIGKILL: the kernel drops the lock with the process; the next server starts and restores.
  first.proc.kill('SIGKILL');
  assert.is(await first.exited, 'SIGKILL');
  const next = await spawnServer({ DATA_DIR: dataDir, SIM_TIME_SCALE: '10' });
  children.push(next);
  assert.equal(((await next.http('GET', '/ari/channels')).body as Array<{ id: string }>).map((c) => c.id), ['live-1']);
  assert.is(readFileSync(join(dataDir, 'trunkline.pid'), 'utf8'), `${next.proc.pid}\n`);
  next.proc.kill('SIGTERM');
  assert.is(await next.exited, 0);
  // A clean stop takes its pid away; the lock file itself stays (deleting it would race).
  assert.not.ok(existsSync(join(dataDir, 'trunkline.pid')));
  assert.ok(existsSync(join(dataDir, 'trunkline.lock')));
});

test('in-process servers take the lock too, and close() gives it back', async () => {
  const dataDir = freshDir();
  const t = await startTestServer({}, dataDir);
  try {
    // Another server in this same process is refused…
    try {
      const s = await silent({ DATA_DIR: dataDir });
      await s.close();
      assert.unreachable('a second in-process server started');
    } catch (err) {
      assert.instance(err, DataDirLockError);
      assert.is((err as Error).message, `DATA_DIR ${dataDir} is in use by another Trunkline server (pid ${process.pid}); stop it or choose another DATA_DIR`);
    }
    // …and so is a separate process, which names this one.
    const other = await runServerToExit({ DATA_DIR: dataDir });
    assert.is(other.code, 1, other.stdout + other.stderr);
    assert.equal(stderrLines(other.stderr), [`trunkline: DATA_DIR ${dataDir} is in use by another Trunkline server (pid ${process.pid}); stop it or choose another DATA_DIR`]);
    // The refused attempts left the holder working.
    assert.is((await t.http('GET', '/ari/asterisk/ping')).status, 200);
  } finally {
    await t.close({ keepData: true });
  }
  const again = await startTestServer({}, dataDir);
  assert.is((await again.http('GET', '/ari/asterisk/ping')).status, 200);
  await again.close({ keepData: true });
});

async function occupiedPort(): Promise<{ port: number; blocker: Server }> {
  const blocker = createServer((s) => s.destroy());
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
  return { port: (blocker.address() as { port: number }).port, blocker };
}

test('a port in use stops the start with one line naming it, before anything is written to DATA_DIR', async () => {
  const { port, blocker } = await occupiedPort();
  try {
    // No ADMIN_PASSWORD: a start that got as far as the database would print a password.
    const dataDir = freshDir();
    const r = await runServerToExit({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', ADMIN_USERNAME: '', ADMIN_PASSWORD: '' });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.equal(stderrLines(r.stderr), [`trunkline: port ${port} on 127.0.0.1 is already in use by another program; set PORT to a free port (0 picks one)`]);
    assert.is(r.stdout, '');
    assert.equal(readdirSync(dataDir), []);
    // A DATA_DIR that did not exist is not created either.
    const missing = join(freshDir(), 'not-yet');
    const r2 = await runServerToExit({ DATA_DIR: missing, PORT: String(port) });
    assert.is(r2.code, 1, r2.stdout + r2.stderr);
    assert.is(stderrLines(r2.stderr).length, 1, r2.stderr);
    assert.not.ok(existsSync(missing));
    // In-process: the same refusal, as a ListenError.
    try {
      const s = await silent({ DATA_DIR: dataDir, PORT: String(port) });
      await s.close();
      assert.unreachable('started on a port in use');
    } catch (err) {
      assert.instance(err, ListenError);
      assert.is((err as ListenError).code, 'EADDRINUSE');
    }
    assert.equal(readdirSync(dataDir), []);
  } finally {
    blocker.close();
  }
});

test('requests and event sockets that arrive before the app is ready are held, then answered by it', async () => {
  const dataDir = freshDir();
  const auth = { authorization: `Basic ${Buffer.from('asterisk:asterisk').toString('base64')}` };
  let early: { ping: Promise<Response>; version: Promise<Response>; ev: Promise<EventLog> } | undefined;
  let dataDirWhileHeld: string[] | undefined;
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, FIXTURES_DIR: join(import.meta.dirname, '..', '..', 'fixtures'), LOG_LEVEL: 'silent', ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password-1', SIM_TIME_SCALE: '20', CHECK_RESPONSES: 'true' });
  const server = await startServer(config, createLogger('silent'), {
    async beforeReady({ url, held }) {
      early = {
        ping: fetch(`${url}/ari/asterisk/ping`, { headers: auth }),
        version: fetch(`${url}/api/v1/version`),
        ev: connectEvents(url, 'early'),
      };
      // Start-up goes on only once all three are waiting in the server.
      await waitUntil(() => held() >= 3, 'the three early requests are held', WAIT_MS, 5);
      dataDirWhileHeld = readdirSync(dataDir);
    },
  });
  try {
    assert.ok(early, 'beforeReady ran');
    assert.equal(dataDirWhileHeld, [], 'DATA_DIR untouched while the port was already bound');
    const ping = await early!.ping;
    assert.is(ping.status, 200);
    assert.is(((await ping.json()) as { ping: string }).ping, 'pong');
    const version = await early!.version;
    assert.is(version.status, 200);
    assert.match(((await version.json()) as { version: string }).version, /\+trunkline$/);
    // The held event socket is a real subscription of the ready app.
    const ev = await early!.ev;
    const http = ariHttp(server.url);
    assert.is((await http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'early', channelId: 'held-ws' } })).status, 200);
    await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'held-ws');
    await ev.close();
    assert.equal(server.violations, []);
  } finally {
    await server.close();
  }
});

test.run();
