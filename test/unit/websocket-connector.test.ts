import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkTarget, connectWebSocket, type WebSocketClientPolicy } from '../../server/ari/websocket-connector.js';
import { requireTool } from '../_helpers/skip.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { startWsPeer, type WsPeer } from '../_helpers/ws-peer.js';

// The one connector every WebSocket the server opens goes through (outbound ARI, media clients): the
// address policy over every resolved address, the connection to exactly the checked address with the
// URI's own Host and TLS server name, and no redirect followed. Names resolve through a table.
const test = suite('websocket connector');

const DNS = new Map<string, string[]>([
  ['bot.example.com', ['93.184.216.34', '2606:4700::7']],
  ['intranet.example.com', ['10.1.2.3']],
  ['mixed.example.com', ['93.184.216.34', '192.168.1.10']],
  ['metadata.example.com', ['169.254.169.254']],
  ['nat64-metadata.example.com', ['64:ff9b::a9fe:a9fe']],
  ['empty.example.com', []],
  ['peer.test', ['127.0.0.1']],
]);
const resolve = async (host: string) => {
  const found = DNS.get(host);
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found;
};
const policy = (allowLocalNetworks: boolean, narrow?: WebSocketClientPolicy['narrow']): WebSocketClientPolicy => ({ allowLocalNetworks, resolve, narrow });
const check = (uri: string, local = false) => checkTarget(uri, policy(local));

const peers: WsPeer[] = [];
test.after.each(async () => {
  for (const p of peers.splice(0)) await p.close();
});
async function peer(...args: Parameters<typeof startWsPeer>): Promise<WsPeer> {
  const p = await startWsPeer(...args);
  peers.push(p);
  return p;
}
const connect = (uri: string, p: WebSocketClientPolicy, extra: Partial<Parameters<typeof connectWebSocket>[1]> = {}) =>
  connectWebSocket(uri, { policy: p, protocols: 'ari', timeoutMs: 5000, maxPayload: 65536, ...extra });

test('a public host passes with every address it resolves to; IP literals are not looked up', async () => {
  assert.equal(await check('wss://bot.example.com/ari'), { ok: true, addresses: ['93.184.216.34', '2606:4700::7'] });
  assert.equal(await check('ws://93.184.216.34:8765/'), { ok: true, addresses: ['93.184.216.34'] });
  assert.equal(await check('ws://[2606:4700::7]:8765/'), { ok: true, addresses: ['2606:4700::7'] });
});

test('loopback and private addresses only with local networks allowed; one local address refuses the name', async () => {
  const cases: Array<[string, string]> = [
    ['ws://127.0.0.1:8765', '127.0.0.1 is a loopback address'], ['ws://[::1]:8765', '::1 is a loopback address'],
    ['ws://intranet.example.com', '10.1.2.3 is a local network address'], ['ws://mixed.example.com', '192.168.1.10 is a local network address'],
    ['ws://192.168.0.5', '192.168.0.5 is a local network address'], ['ws://[fd12::1]', 'fd12::1 is a local network address'],
  ];
  for (const [uri, why] of cases) {
    assert.equal(await check(uri), { ok: false, reason: 'refused', detail: `${why} (WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS is off)` }, uri);
    assert.is((await check(uri, true)).ok, true, uri);
  }
});

test('never means never: link-local, cloud metadata (also through NAT64), unspecified and multicast stay refused', async () => {
  for (const uri of ['ws://169.254.169.254', 'ws://metadata.example.com', 'ws://nat64-metadata.example.com', 'ws://0.0.0.0:80', 'ws://[fe80::1]', 'ws://224.0.0.1', 'ws://[::]:80']) {
    const r = await check(uri, true);
    assert.is(r.ok || r.reason, 'refused', uri);
    assert.match(r.ok ? '' : r.reason === 'refused' ? r.detail : '', / is never connected to$/, uri);
  }
});

test('a caller may narrow the policy; a name that does not resolve, or resolves to nothing, is not connected to', async () => {
  const narrowed = policy(true, (a) => (a === '10.1.2.3' ? '10.1.2.3 is outside the media networks' : undefined));
  assert.equal(await checkTarget('ws://intranet.example.com', narrowed), { ok: false, reason: 'refused', detail: '10.1.2.3 is outside the media networks' });
  assert.is((await checkTarget('ws://192.168.0.5', narrowed)).ok, true);
  assert.equal(await check('ws://nowhere.example.com', true), { ok: false, reason: 'unresolved' });
  assert.equal(await check('ws://empty.example.com', true), { ok: false, reason: 'unresolved' });
});

test('connect: the socket goes to the checked address while the upgrade keeps the name in Host', async () => {
  const p = await peer();
  const r = await connect(`ws://peer.test:${p.port}/app?x=1`, policy(true), { headers: { authorization: 'Basic eDp5' } });
  assert.ok(r.ok, JSON.stringify(r));
  const c = await p.connection(0);
  assert.is(c.req.headers.host, `peer.test:${p.port}`);
  assert.is(c.req.url, '/app?x=1');
  assert.is(c.req.headers['sec-websocket-protocol'], 'ari');
  assert.is(c.req.headers.authorization, 'Basic eDp5');
  if (r.ok) r.ws.terminate();
});

test('connect: a refused address is never dialed; the result names it', async () => {
  const p = await peer();
  const r = await connect(`ws://peer.test:${p.port}/`, policy(false));
  assert.equal(r, { ok: false, reason: 'refused by the outbound address policy', refused: '127.0.0.1 is a loopback address (WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS is off)' });
  const narrowed = await connect(p.url('/'), policy(true, () => 'not for media'));
  assert.equal(narrowed, { ok: false, reason: 'refused by the outbound address policy', refused: 'not for media' });
  assert.is(p.upgrades.length, 0);
});

test('connect: a redirect is a failed attempt, never followed', async () => {
  const elsewhere = await peer();
  const p = await peer(() => `HTTP/1.1 301 Moved Permanently\r\nLocation: ${elsewhere.url('/')}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  assert.equal(await connect(p.url('/'), policy(true)), { ok: false, reason: 'upgrade answered with status 301' });
  assert.is(p.upgrades.length, 1);
  assert.is(elsewhere.upgrades.length, 0);
});

test('connect: wss:// sends the name as TLS server name to the checked address', async (ctx) => {
  if (!requireTool(ctx.__test__, 'openssl', 'openssl', ['version'])) return;
  const dir = tempDir('connector-sni');
  try {
    const certFile = join(dir, 'c.pem');
    const keyFile = join(dir, 'c.key');
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=peer.test', '-addext', 'subjectAltName=DNS:peer.test'], { stdio: 'pipe' });
    assert.is(made.status, 0, made.stderr?.toString());
    const cert = readFileSync(certFile, 'utf8');
    const p = await peer(undefined, { cert, key: readFileSync(keyFile, 'utf8') });
    // The certificate holds only the name: verification passes only because the name went out as SNI and is checked against it.
    const r = await connect(`wss://peer.test:${p.port}/`, policy(true), { tls: { ca: [cert] } });
    assert.ok(r.ok, JSON.stringify(r));
    const c = await p.connection(0);
    assert.is((c.req.socket as TLSSocket).servername, 'peer.test');
    assert.is(c.req.headers.host, `peer.test:${p.port}`);
    if (r.ok) r.ws.terminate();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
