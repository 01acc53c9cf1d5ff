import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useServer } from '../_helpers/suite.js';

// REFER outside calls (Asterisk 18.20 / 20.5 and later): refer (to any destination) and
// referToEndpoint reach the far end of one of our endpoints, which keeps what it was asked.
const test = suite('endpoint-refer');
const ctx = useServer(test, { events: { ev: 'refer-app' } });

const refers = async (resource: string) => {
  const r = await ctx.t.http('GET', `/sim/endpoints/PJSIP/${resource}`);
  assert.is(r.status, 200);
  return (r.body.refers as Array<Record<string, unknown>>).map(({ received, ...rest }) => {
    assert.match(String(received), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/);
    return rest;
  });
};

test('refer to pjsip:alice, to_self, with a display name: 202 with no body; the far end has it; no event', async () => {
  const r = await ctx.t.http('POST', '/ari/endpoints/refer', {
    query: { to: 'pjsip:alice', from: 'sip:pbx@example.com', refer_to: 'pjsip:bob', to_self: 'true' },
    json: { variables: { display_name: 'Bob at the desk', 'X-Reason': 'transfer' } },
  });
  assert.is(r.status, 202);
  assert.is(r.text, '');
  assert.is(r.headers.get('content-type'), null);
  assert.equal(await refers('alice'), [
    { from: 'sip:pbx@example.com', to: 'pjsip:alice', refer_to: 'pjsip:bob', to_self: true, variables: { display_name: 'Bob at the desk', 'X-Reason': 'transfer' } },
  ]);
  // The messages are kept apart from the REFERs.
  assert.equal((await ctx.t.http('GET', '/sim/endpoints/PJSIP/alice')).body.messages, []);
  assert.equal(ctx.ev.events, []);
});

test('referToEndpoint: to is pjsip:<resource>; to_self defaults to false; any SIP URI may be referred to', async () => {
  const r = await ctx.t.http('POST', '/ari/endpoints/PJSIP/bob/refer', { query: { from: 'sip:pbx@example.com', refer_to: 'sip:carol@example.com' } });
  assert.is(r.status, 202);
  assert.is(r.text, '');
  const r2 = await ctx.t.http('POST', '/ari/endpoints/pjsip/bob/refer', { query: { from: 'sip:pbx@example.com', refer_to: 'pjsip:alice', to_self: 'no' } });
  assert.is(r2.status, 202);
  assert.equal(await refers('bob'), [
    { from: 'sip:pbx@example.com', to: 'pjsip:bob', refer_to: 'sip:carol@example.com', to_self: false, variables: {} },
    { from: 'sip:pbx@example.com', to: 'pjsip:bob', refer_to: 'pjsip:alice', to_self: false, variables: {} },
  ]);
});

test('destinations written as for sendMessage: endpoint/URI and a SIP URI naming the endpoint', async () => {
  for (const to of ['pjsip:carol/sip:carol@192.0.2.30', 'pjsip:sip:carol@example.com']) {
    const r = await ctx.t.http('POST', '/ari/endpoints/refer', { query: { to, from: 'sip:pbx@example.com', refer_to: 'sip:desk@example.com' } });
    assert.is(r.status, 202, to);
  }
  assert.equal((await refers('carol')).map((x) => x.to), ['pjsip:carol/sip:carol@192.0.2.30', 'pjsip:sip:carol@example.com']);
});

test('404 Endpoint not found: unknown or offline endpoints, other technologies', async () => {
  for (const to of ['pjsip:nobody', 'pjsip:offline', 'PJSIP:alice', 'sip:alice@example.com', 'alice']) {
    const r = await ctx.t.http('POST', '/ari/endpoints/refer', { query: { to, from: 'sip:pbx@example.com', refer_to: 'pjsip:bob' } });
    assert.is(r.status, 404, to);
    assert.equal(r.body, { message: 'Endpoint not found' }, to);
  }
  for (const path of ['/ari/endpoints/PJSIP/nobody/refer', '/ari/endpoints/PJSIP/offline/refer', '/ari/endpoints/IAX2/alice/refer']) {
    const r = await ctx.t.http('POST', path, { query: { from: 'sip:pbx@example.com', refer_to: 'pjsip:bob' } });
    assert.is(r.status, 404, path);
    assert.equal(r.body, { message: 'Endpoint not found' }, path);
  }
});

test('400: no (or an empty) destination, sender or refer_to, a to_self that is not a boolean, headers that are not strings', async () => {
  const cases: Array<[Record<string, string>, unknown, string]> = [
    [{ from: 'sip:pbx@example.com', refer_to: 'pjsip:bob' }, undefined, 'To must be specified'],
    [{ to: 'pjsip:alice', refer_to: 'pjsip:bob' }, undefined, 'Required parameter \'from\' not provided'],
    [{ to: 'pjsip:alice', from: 'sip:pbx@example.com' }, undefined, 'Required parameter \'refer_to\' not provided'],
    [{ to: 'pjsip:alice', from: 'sip:pbx@example.com', refer_to: 'pjsip:bob', to_self: 'maybe' }, undefined, 'Parameter \'to_self\' must be true or false'],
    [{ to: 'pjsip:alice', from: 'sip:pbx@example.com', refer_to: 'pjsip:bob' }, { variables: { display_name: 5 } }, 'Only string values in the \'variables\' object allowed'],
    [{ to: 'pjsip:alice', from: 'sip:pbx@example.com', refer_to: 'pjsip:bob' }, { variables: null }, 'Only string values in the \'variables\' object allowed'],
    [{ to: '', from: 'sip:pbx@example.com', refer_to: 'pjsip:bob' }, undefined, 'To must be specified'],
    [{ to: 'pjsip:alice', from: '', refer_to: 'pjsip:bob' }, undefined, 'From must be specified'],
    [{ to: 'pjsip:alice', from: 'sip:pbx@example.com', refer_to: '' }, undefined, 'Refer-To must be specified'],
  ];
  for (const [query, json, message] of cases) {
    const r = await ctx.t.http('POST', '/ari/endpoints/refer', { query, ...(json !== undefined ? { json } : {}) });
    assert.is(r.status, 400, message);
    assert.equal(r.body, { message }, message);
  }
  assert.is((await refers('alice')).length, 1);
});

test('the operations answer only their methods', async () => {
  const r = await ctx.t.http('GET', '/ari/endpoints/refer');
  assert.is(r.status, 405);
  assert.equal(r.body, { message: 'Invalid method' });
  const put = await ctx.t.http('POST', '/ari/endpoints/sendMessage', { query: { to: 'pjsip:alice', from: 'sip:x@y' } });
  assert.is(put.status, 405);
});

test.run();
