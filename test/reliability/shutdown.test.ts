import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { get as httpGet, request as httpRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, type ChildServer } from '../_helpers/child.js';
import { openEventLog } from '../_helpers/events.js';
import { basicAuth, request } from '../_helpers/request.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { pollUntil, sleep } from '../_helpers/wait.js';

// Graceful shutdown (SIGTERM) of the real process: it stops accepting connections at once,
// finishes the requests in flight (a large download a slow client is still reading), closes
// both event WebSockets with 1001, flushes, and exits 0 with a sound database.
const test = suite('reliability: graceful shutdown');

const ADMIN = { ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password-1' };
const basic = basicAuth('root:root-password-1');
let dataDir = '';
let server: ChildServer | undefined;

test.before(() => {
  dataDir = tempDir('shutdown');
});

test.after(() => {
  if (server && server.proc.exitCode === null && server.proc.signalCode === null) server.proc.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function json(url: string, method: string, body?: unknown, auth = basic): Promise<any> {
  const r = await request(url, method, '', { json: body, headers: { authorization: auth, 'content-type': 'application/json' } });
  if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${r.text}`);
  return r.body;
}

test('SIGTERM: no new connections, the in-flight download completes, both event sockets get 1001, exit 0', async () => {
  server = await spawnServer({ DATA_DIR: dataDir, ...ADMIN, NODE_ENV: 'test' });
  const url = server.url;
  // A 6 MiB file in a repository, to be downloaded slowly.
  const token = (await json(`${url}/api/v1/users/root/tokens`, 'POST', { name: 'shutdown', scopes: ['all'] })).sha1 as string;
  await json(`${url}/api/v1/user/repos`, 'POST', { name: 'big', auto_init: true }, `token ${token}`);
  const big = Buffer.alloc(6 * 1024 * 1024, 'x');
  await json(`${url}/api/v1/repos/root/big/contents/big.bin`, 'POST', { content: big.toString('base64') }, `token ${token}`);

  const ari = await openEventLog(`${url.replace('http', 'ws')}/ari/events?app=shutdown&api_key=asterisk:asterisk`);
  const repoEvents = await openEventLog(`${url.replace('http', 'ws')}/api/v1/events`, { headers: { authorization: `token ${token}` } });

  // Start the download and stop reading after the first chunk: the response is in flight.
  const res = await new Promise<IncomingMessage>((resolve, reject) => httpGet(`${url}/api/v1/repos/root/big/raw/big.bin`, { headers: { authorization: `token ${token}` } }, resolve).on('error', reject));
  assert.is(res.statusCode, 200);
  const chunks: Buffer[] = [];
  res.pause();


  server.proc.kill('SIGTERM');
  // New connections are refused at once.
  let refused = false;
  for (let i = 0; i < 50 && !refused; i++) {
    refused = await new Promise<boolean>((resolve) => {
      const req = httpRequest(`${url}/api/v1/version`, { agent: false }, (r) => {
        r.resume();
        resolve(false);
      });
      req.on('error', () => resolve(true));
      req.end();
    });
    if (!refused) await sleep(20);
  }
  assert.ok(refused, 'new connections are refused after SIGTERM');

  // The slow reader still gets every byte.
  res.on('data', (c: Buffer) => chunks.push(c));
  await new Promise((resolve) => {
    res.on('end', resolve);
    res.on('close', resolve); // cut short: the length check below says so
    res.resume();
  });
  assert.is(Buffer.concat(chunks).length, big.length);

  assert.is(await server.exited, 0);
  await pollUntil(() => ari.closed !== undefined && repoEvents.closed !== undefined);
  assert.is(ari.closed?.code, 1001);
  assert.is(repoEvents.closed?.code, 1001);

  const db = new Database(join(dataDir, 'trunkline.db'), { readonly: true });
  try {
    assert.is(db.pragma('integrity_check', { simple: true }), 'ok');
  } finally {
    db.close();
  }
});

test.run();
