import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLfsClient, lfsEndpointGiven, lfsEndpointOf } from '../../server/gitea/mirrors/lfs-client.js';
import { checkHop, OutboundError, send, type HopPolicy } from '../../server/gitea/mirrors/outbound-http.js';
import type { MirrorUrlPolicy } from '../../server/gitea/mirrors/url-policy.js';
import { lfsSourceOf } from '../../server/gitea/services/lfs-mirror.js';

// The LFS client's pieces without a Gitea server: endpoints, who gets credentials, the per-hop
// address policy (including DNS answers that change), and batch answers that are not what they claim.
const test = suite('mirror LFS client');

const OPEN: MirrorUrlPolicy = { allowLocalNetworks: false, allowedDomains: [], blockedDomains: [] };
const LOCAL: MirrorUrlPolicy = { ...OPEN, allowLocalNetworks: true };
const OID = 'a'.repeat(64);

let server: http.Server;
let base = '';
const seen: { url: string; auth: string | undefined }[] = [];
let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_q, res) => res.writeHead(404).end();

test.before(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url!, auth: req.headers.authorization });
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
test.before.each(() => void (seen.length = 0));

test('lfsEndpointOf: <url>.git/info/lfs, credentials and query dropped, git:// as https (port kept); local paths and ssh give none', () => {
  assert.is(lfsEndpointOf('https://u:p@git.example.com/o/r.git?x=1#f'), 'https://git.example.com/o/r.git/info/lfs');
  assert.is(lfsEndpointOf('http://git.example.com/o/r/'), 'http://git.example.com/o/r.git/info/lfs');
  assert.is(lfsEndpointOf('git://git.example.com:9418/o/r'), 'https://git.example.com:9418/o/r.git/info/lfs');
  assert.is(lfsEndpointOf('file:///srv/r.git'), null);
  assert.is(lfsEndpointOf('ssh://git@git.example.com/o/r.git'), null);
  assert.is(lfsEndpointGiven('https://lfs.example.com/x/'), 'https://lfs.example.com/x');
  assert.is(lfsEndpointGiven('git://lfs.example.com/x'), 'https://lfs.example.com/x');
  assert.is(lfsEndpointGiven('ftp://lfs.example.com/x'), null);
});

test('lfsSourceOf: migrate credentials go to the derived endpoint and a same-origin lfs_endpoint only; an lfs_endpoint\'s own userinfo wins', () => {
  const creds = { username: 'u', password: 'secret' };
  const remote = 'https://git.example.com/o/r.git';
  assert.equal(lfsSourceOf(remote, creds), { endpoint: 'https://git.example.com/o/r.git/info/lfs', ...creds });
  assert.equal(lfsSourceOf(remote, creds, { endpoint: 'https://git.example.com/lfs/r', username: '', password: '' }), { endpoint: 'https://git.example.com/lfs/r', ...creds });
  assert.equal(lfsSourceOf(remote, creds, { endpoint: 'https://lfs.example.net/r', username: '', password: '' }), { endpoint: 'https://lfs.example.net/r', username: '', password: '' });
  assert.equal(lfsSourceOf(remote, creds, { endpoint: 'https://git.example.com:8443/r', username: '', password: '' }), { endpoint: 'https://git.example.com:8443/r', username: '', password: '' });
  assert.equal(lfsSourceOf(remote, creds, { endpoint: 'https://lfs.example.net/r', username: 'l', password: 'p' }), { endpoint: 'https://lfs.example.net/r', username: 'l', password: 'p' });
  assert.is(lfsSourceOf('file:///srv/r.git', creds), null);
});

test('checkHop: the local-network allowance covers the trusted origin only; other schemes and userinfo are refused', async () => {
  const hop: HopPolicy = { policy: LOCAL, trustedOrigin: base };
  await checkHop(new URL(`${base}/x`), hop);
  const refused = async (url: string, h: HopPolicy = hop) => {
    try {
      await checkHop(new URL(url), h);
    } catch (err) {
      assert.instance(err, OutboundError);
      return (err as Error).message;
    }
    return 'allowed';
  };
  assert.is(await refused('http://127.0.0.1:1/x'), 'refused by the mirror address policy');
  assert.is(await refused(`${base.replace('http:', 'https:')}/x`), 'refused by the mirror address policy');
  assert.is(await refused('http://169.254.169.254/x', { policy: LOCAL, trustedOrigin: 'http://169.254.169.254' }), 'refused by the mirror address policy');
  assert.is(await refused('ftp://example.com/x'), 'not an http or https address');
  assert.is(await refused(`http://u:p@${base.slice(7)}/x`), 'an address carrying credentials');
  // A public address on another origin passes (resolved by the injected DNS).
  assert.is(await refused('https://cdn.example.com/x', { ...hop, resolve: async () => ['93.184.216.34'] }), 'allowed');
  assert.is(await refused('https://cdn.example.com/x', { ...hop, resolve: async () => ['10.0.0.1'] }), 'refused by the mirror address policy');
});

test('send connects to the addresses the policy checked: a name resolved once, never looked up again', async () => {
  answer = (_q, res) => res.writeHead(200).end('ok');
  let lookups = 0;
  const port = new URL(base).port;
  // `rebind.invalid` exists only in this resolver; a second, real lookup would fail.
  const hop = { policy: LOCAL, trustedOrigin: `http://rebind.invalid:${port}`, resolve: async () => (lookups++, ['127.0.0.1']) };
  const a = await send({ method: 'GET', url: new URL(`http://rebind.invalid:${port}/p`), headers: {}, hop, idleMs: 5000, signal: new AbortController().signal });
  a.body.resume();
  assert.is(a.status, 200);
  assert.is(lookups, 1);
  assert.equal(seen, [{ url: '/p', auth: undefined }]);
});

test('batch: per-object 404 is missing, other codes errors, left-out objects absent, other oids ignored; Authorization only on the endpoint', async () => {
  const other = 'b'.repeat(64);
  const third = 'c'.repeat(64);
  answer = (_q, res) =>
    res.writeHead(200, { 'content-type': 'application/vnd.git-lfs+json' }).end(
      JSON.stringify({
        transfer: 'basic',
        objects: [
          { oid: OID, size: 3, actions: { download: { href: `${base}/o`, header: { Authorization: 'Bearer t', Cookie: 'c' } } } },
          { oid: other, size: 1, error: { code: 404, message: 'remote words' } },
          { oid: 'd'.repeat(64), size: 1, actions: { download: { href: 'http://elsewhere.example/' } } },
        ],
      }),
    );
  const client = createLfsClient({ endpoint: `${base}/lfs`, username: 'u', password: 'p', policy: LOCAL });
  const out = await client.batch('download', [
    { oid: OID, size: 3 },
    { oid: other, size: 1 },
    { oid: third, size: 1 },
  ]);
  assert.equal([...out.keys()], [OID, other, third]);
  const first = out.get(OID)!;
  assert.is(first.kind, 'actions');
  assert.equal(first.kind === 'actions' && first.download && { href: first.download.href.href, header: first.download.header }, { href: `${base}/o`, header: { Authorization: 'Bearer t' } });
  assert.equal(out.get(other), { kind: 'missing' });
  assert.equal(out.get(third), { kind: 'absent' });
  assert.equal(seen, [{ url: '/lfs/objects/batch', auth: `Basic ${Buffer.from('u:p').toString('base64')}` }]);
  // Too many objects for one request is our bug, not the remote's.
  try {
    await client.batch('download', Array.from({ length: 21 }, (_, i) => ({ oid: i.toString(16).padStart(64, '0'), size: 1 })));
    assert.unreachable();
  } catch (err) {
    assert.not.instance(err, OutboundError);
  }
});

test('batch: an answer past 1 MiB, an unusable href or another transfer adapter are refused in our words', async () => {
  const client = createLfsClient({ endpoint: `${base}/lfs`, username: '', password: '', policy: LOCAL });
  const failure = async () => {
    try {
      await client.batch('download', [{ oid: OID, size: 3 }]);
    } catch (err) {
      assert.instance(err, OutboundError);
      return (err as Error).message;
    }
    return 'no error';
  };
  answer = (_q, res) => res.writeHead(200).end(Buffer.alloc(1024 * 1024 + 1, 32));
  assert.is(await failure(), 'LFS batch request: the answer is too large');
  answer = (_q, res) => res.writeHead(200).end(JSON.stringify({ objects: [{ oid: OID, size: 3, actions: { download: { href: 'not a url' } } }] }));
  assert.is(await failure(), `LFS object ${OID}: the batch answer holds an unusable href`);
  answer = (_q, res) => res.writeHead(200).end(JSON.stringify({ transfer: 'tus', objects: [] }));
  assert.is(await failure(), 'LFS batch request: the remote chose a transfer adapter other than basic');
  answer = (_q, res) => res.writeHead(307, { location: 'http://elsewhere.example/' }).end();
  assert.is(await failure(), 'LFS batch request: HTTP 307');
  assert.equal(
    seen.map((s) => s.auth),
    [undefined, undefined, undefined, undefined],
  );
});

test.run();
