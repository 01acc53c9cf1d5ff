import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkOutboundTarget } from '../../server/ari/outbound/outbound-target.js';

// The address policy of ARI outbound WebSockets, without a network: names resolve through a table.
const test = suite('outbound websocket address policy');

const DNS = new Map<string, string[]>([
  ['bot.example.com', ['93.184.216.34', '2606:4700::7']],
  ['intranet.example.com', ['10.1.2.3']],
  ['mixed.example.com', ['93.184.216.34', '192.168.1.10']],
  ['metadata.example.com', ['169.254.169.254']],
  ['nat64-metadata.example.com', ['64:ff9b::a9fe:a9fe']],
  ['empty.example.com', []],
]);
const resolve = async (host: string) => {
  const found = DNS.get(host);
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found;
};
const check = (uri: string, local = false) => checkOutboundTarget(uri, local, resolve);

test('a public host passes with every address it resolves to; IP literals are not looked up', async () => {
  assert.equal(await check('wss://bot.example.com/ari'), { ok: true, addresses: ['93.184.216.34', '2606:4700::7'] });
  assert.equal(await check('ws://93.184.216.34:8765/'), { ok: true, addresses: ['93.184.216.34'] });
  assert.equal(await check('ws://[2606:4700::7]:8765/'), { ok: true, addresses: ['2606:4700::7'] });
});

test('loopback and private addresses only with local networks allowed; one private address refuses the name', async () => {
  for (const uri of ['ws://127.0.0.1:8765', 'ws://[::1]:8765', 'ws://intranet.example.com', 'ws://mixed.example.com', 'ws://192.168.0.5', 'ws://[fd12::1]']) {
    assert.equal(await check(uri), { ok: false, reason: 'refused' }, uri);
    assert.is((await check(uri, true)).ok, true, uri);
  }
});

test('never means never: link-local, cloud metadata (also through NAT64), unspecified and multicast stay refused', async () => {
  for (const uri of ['ws://169.254.169.254', 'ws://metadata.example.com', 'ws://nat64-metadata.example.com', 'ws://0.0.0.0:80', 'ws://[fe80::1]', 'ws://224.0.0.1', 'ws://[::]:80']) {
    assert.equal(await check(uri, true), { ok: false, reason: 'refused' }, uri);
  }
});

test('a name that does not resolve, or resolves to nothing, is not connected to', async () => {
  assert.equal(await check('ws://nowhere.example.com', true), { ok: false, reason: 'unresolved' });
  assert.equal(await check('ws://empty.example.com', true), { ok: false, reason: 'unresolved' });
});

test.run();
