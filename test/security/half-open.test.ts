import { readdirSync, rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, type ChildServer } from '../_helpers/child.js';
import { rawSocket, type RawSocket } from '../_helpers/raw-socket.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { waitUntil } from '../_helpers/wait.js';

// Connections that send part of their headers and go silent, or that are refused before an upgrade,
// get their answer and are then closed by the server, even when the client never closes its side.
// Before, the server only end()ed them: each stayed half-open, holding a descriptor, for as long as
// the client kept it.
const test = suite('security: half-open connections');
let dataDir = '';
let server: ChildServer | undefined;

test.before(async () => {
  dataDir = tempDir('halfopen');
  server = await spawnServer({ DATA_DIR: dataDir, HEADERS_TIMEOUT_MS: '400' });
});
test.after(async () => {
  server?.proc.kill('SIGKILL');
  await server?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

const fds = () => readdirSync(`/proc/${server!.proc.pid}/fd`).length;

/** Opens `n` sockets that each send `payload` and never close; resolves with them and what each received. */
function clients(n: number, payload: string): Promise<RawSocket[]> {
  // allowHalfOpen: our side stays open after the server's FIN, as a careless or hostile client's would.
  return Promise.all(Array.from({ length: n }, () => rawSocket(server!.url, payload, { allowHalfOpen: true })));
}

const until = (what: string, pred: () => boolean) => waitUntil(pred, what, 15_000, 25);

test('half-sent headers: 408 after HEADERS_TIMEOUT_MS, then the server lets go of the socket', async () => {
  await until('the server to settle', () => fds() > 0);
  const before = fds();
  const cs = await clients(20, 'GET /ari/asterisk/ping HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
  await until('20 more descriptors', () => fds() >= before + 20);
  // The status line and the body may arrive in separate reads on a busy machine: wait for whole answers.
  await until('every 408 with its body', () => cs.every((c) => c.got().endsWith('{"message":"Request Timeout"}')));
  assert.ok(cs.every((c) => c.got().startsWith('HTTP/1.1 408 Request Timeout')));
  // The clients still hold their sides open; the server's descriptors must go regardless.
  await until('the server to close the sockets', () => fds() <= before);
  assert.ok(cs.every((c) => c.closed() || !c.socket.destroyed));
  for (const c of cs) c.socket.destroy();
});

test('refused WebSocket upgrades are closed too, whoever keeps the other side', async () => {
  const before = fds();
  const upgrade = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;
  const cs = [
    ...(await clients(10, upgrade('/ari/events?app=x'))), // no credentials: 401
    ...(await clients(10, upgrade('/nowhere'))), // not a WebSocket of ours: 404
  ];
  await until('every refusal', () => cs.every((c) => / (401|404) /.test(c.got().split('\r\n')[0] ?? '')));
  await until('the server to close the sockets', () => fds() <= before);
  for (const c of cs) c.socket.destroy();
});

test.run();
