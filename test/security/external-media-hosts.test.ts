import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createExternalHostPolicy } from '../../server/ari/media/external-host-policy.js';
import { useServer } from '../_helpers/suite.js';

// externalMedia makes the server send RTP to, or open a TCP connection to, the address a client names.
// Addresses that are never a media peer are refused whatever the settings; EXTERNAL_MEDIA_ALLOWED_NETWORKS
// narrows the rest (here: loopback only).
const test = suite('security: external media hosts');
const ctx = useServer(test, { env: { EXTERNAL_MEDIA_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128' }, events: { ev: 'em' } });

const create = (host: string, id: string) => ctx.t.http('POST', '/ari/channels/externalMedia', { query: { app: 'em', external_host: host, format: 'ulaw', channelId: id } });

test('never: metadata, link-local, unspecified, multicast and broadcast addresses', async () => {
  const cases = ['169.254.169.254:80', '169.254.1.1:4000', '0.0.0.0:4000', '224.0.0.1:4000', '255.255.255.255:4000', '[fe80::1]:4000', '[fd00:ec2::254]:80', '[::]:4000', '[ff02::1]:4000'];
  for (const [i, host] of cases.entries()) {
    const r = await create(host, `never-${i}`);
    assert.is(r.status, 400, host);
    assert.match(r.body.message, /not an address media can be sent to/, host);
    assert.is((await ctx.t.http('GET', `/ari/channels/never-${i}`)).status, 404);
  }
});

test('outside EXTERNAL_MEDIA_ALLOWED_NETWORKS: refused; inside: a channel', async () => {
  const r = await create('10.1.2.3:4000', 'outside');
  assert.is(r.status, 400);
  assert.equal(r.body, { message: 'external_host 10.1.2.3 is outside EXTERNAL_MEDIA_ALLOWED_NETWORKS' });
  const ok = await create('127.0.0.1:4000', 'inside');
  assert.is(ok.status, 200, ok.text);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'inside');
  assert.is((await ctx.t.http('DELETE', '/ari/channels/inside')).status, 204);
});

test('the default allows every unicast address, public and private, and still never the rest', () => {
  const p = createExternalHostPolicy(['0.0.0.0/0', '::/0']);
  for (const ok of ['127.0.0.1', '10.0.0.5', '192.168.1.2', '8.8.8.8', '::1', '2001:db8::1']) assert.is(p.refusal(ok), undefined, ok);
  for (const bad of ['169.254.169.254', '0.0.0.0', '224.1.1.1', 'fe80::1', 'fd00:ec2::254', '::ffff:169.254.169.254']) assert.ok(p.refusal(bad), bad);
});

test.run();
