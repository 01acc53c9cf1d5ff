import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectEvents, type AriEvent } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

// Text messages outside calls: sendMessage (to any destination, or to one endpoint) reaches the far
// end of one of our endpoints, which keeps it for the simulation API; a message the far end sends
// becomes TextMessageReceived for the applications subscribed to the endpoint.
const test = suite('endpoint-messages');
/** ev: subscribes to PJSIP/alice; other: to PJSIP/bob. */
const ctx = useServer(test, { events: { ev: 'msg-app', other: 'msg-other' } });

const send = (query: Record<string, string>, json?: unknown) => ctx.t.http('PUT', '/ari/endpoints/sendMessage', { query, ...(json !== undefined ? { json } : {}) });
const received = async (resource: string) => {
  const r = await ctx.t.http('GET', `/sim/endpoints/PJSIP/${resource}`);
  assert.is(r.status, 200);
  return r.body.messages as Array<Record<string, unknown>>;
};
/** Messages without their reception time, after checking it is an ARI timestamp. */
const withoutTime = (list: Array<Record<string, unknown>>) =>
  list.map(({ received: at, ...rest }) => {
    assert.match(String(at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/);
    return rest;
  });
const farSend = (resource: string, query: Record<string, string>, json?: unknown) =>
  ctx.t.http('POST', `/sim/endpoints/PJSIP/${resource}/messages`, { query, ...(json !== undefined ? { json } : {}) });
const isText = (e: AriEvent) => e.type === 'TextMessageReceived';

test('the far end sends a message nobody is subscribed to: 404, and no event', async () => {
  const r = await farSend('alice', { to: 'sip:1000@pbx.example.com', body: 'anyone?' });
  assert.is(r.status, 404);
  assert.equal(r.body, { message: 'No application receives messages from this endpoint' });
  assert.equal(ctx.ev.events.filter(isText), []);
});

test('sendMessage to pjsip:alice: 202 with no body; the far end has it, with its headers', async () => {
  const r = await send({ to: 'pjsip:alice', from: 'sip:pbx@example.com', body: 'Hello Alice' }, { variables: { 'X-Ticket': '42', 'X-Empty': '' } });
  assert.is(r.status, 202);
  assert.is(r.text, '');
  assert.is(r.headers.get('content-type'), null);
  assert.equal(withoutTime(await received('alice')), [
    { from: 'sip:pbx@example.com', to: 'pjsip:alice', body: 'Hello Alice', variables: { 'X-Ticket': '42', 'X-Empty': '' } },
  ]);
});

test('destinations PJSIP takes: endpoint/URI, a SIP URI (with or without a display name) naming the endpoint; no body is an empty one', async () => {
  const tos = ['pjsip:bob/sip:bob@192.0.2.20:5060', 'pjsip:sip:bob@example.com', 'pjsip:"Bob B" <sip:bob@example.com;transport=tcp>', 'pjsip:bob@example.com', 'pjsip:BOB'];
  for (const to of tos) assert.is((await send({ to, from: 'sip:pbx@example.com' })).status, 202, to);
  assert.equal(withoutTime(await received('bob')), tos.map((to) => ({ from: 'sip:pbx@example.com', to, body: '', variables: {} })));
  // Parameters may come in the JSON body too.
  assert.is((await ctx.t.http('PUT', '/ari/endpoints/sendMessage', { json: { to: 'pjsip:carol', from: 'sip:x@y', body: 'json' } })).status, 202);
  assert.equal(withoutTime(await received('carol')), [{ from: 'sip:x@y', to: 'pjsip:carol', body: 'json', variables: {} }]);
});

test('destinations that reach no endpoint of ours, or an offline one: 404 Endpoint not found', async () => {
  for (const to of ['pjsip:nobody', 'PJSIP:alice', 'sip:alice@example.com', 'xmpp:alice@example.com', 'alice', 'pjsip:', 'pjsip:offline', 'pjsip:sip:nobody@example.com']) {
    const r = await send({ to, from: 'sip:pbx@example.com', body: 'x' });
    assert.is(r.status, 404, to);
    assert.equal(r.body, { message: 'Endpoint not found' }, to);
  }
});

test('bad input: no destination, no sender, headers that are not strings', async () => {
  const noTo = await send({ from: 'sip:pbx@example.com' });
  assert.is(noTo.status, 400);
  assert.equal(noTo.body, { message: 'To must be specified' });
  const noFrom = await send({ to: 'pjsip:alice' });
  assert.is(noFrom.status, 400);
  assert.equal(noFrom.body, { message: 'Required parameter \'from\' not provided' });
  const emptyTo = await send({ to: '', from: 'sip:pbx@example.com' });
  assert.is(emptyTo.status, 400);
  assert.equal(emptyTo.body, { message: 'To must be specified' });
  const emptyFrom = await send({ to: 'pjsip:alice', from: '' });
  assert.is(emptyFrom.status, 400);
  assert.equal(emptyFrom.body, { message: 'From must be specified' });
  for (const variables of [{ 'X-Num': 42 }, { 'X-Obj': { value: 'v' } }, ['X-A'], 'X-A', null]) {
    const r = await send({ to: 'pjsip:alice', from: 'sip:pbx@example.com' }, { variables });
    assert.is(r.status, 400, JSON.stringify(variables));
    assert.equal(r.body, { message: 'Only string values in the \'variables\' object allowed' });
  }
  // Nothing of the refused messages reached alice.
  assert.is((await received('alice')).length, 1);
});

test('sendMessage to one endpoint: the destination is pjsip:<resource>; an unknown endpoint is 404 before its body is read', async () => {
  const r = await ctx.t.http('PUT', '/ari/endpoints/PJSIP/dave/sendMessage', { query: { from: 'sip:pbx@example.com', body: 'hi' } });
  assert.is(r.status, 404);
  assert.equal(r.body, { message: 'Endpoint not found' });
  const unknown = await ctx.t.http('PUT', '/ari/endpoints/PJSIP/nobody/sendMessage', { query: { from: 'sip:pbx@example.com' }, json: { variables: { 'X-Num': 1 } } });
  assert.is(unknown.status, 404);
  const ok = await ctx.t.http('PUT', '/ari/endpoints/pjsip/trunk/sendMessage', { query: { from: 'sip:pbx@example.com', body: 'to the trunk' }, json: { variables: { 'X-A': 'b' } } });
  assert.is(ok.status, 202);
  assert.is(ok.text, '');
  assert.equal(withoutTime(await received('trunk')), [{ from: 'sip:pbx@example.com', to: 'pjsip:trunk', body: 'to the trunk', variables: { 'X-A': 'b' } }]);
  const offline = await ctx.t.http('PUT', '/ari/endpoints/PJSIP/offline/sendMessage', { query: { from: 'sip:pbx@example.com' } });
  assert.is(offline.status, 404);
  assert.equal(offline.body, { message: 'Endpoint not found' });
});

test('the far end of alice sends a message: TextMessageReceived to alice\'s subscriber, with the message and the endpoint; not to bob\'s', async () => {
  assert.is((await ctx.t.http('POST', '/ari/applications/msg-app/subscription', { query: { eventSource: 'endpoint:PJSIP/alice' } })).status, 200);
  assert.is((await ctx.t.http('POST', '/ari/applications/msg-other/subscription', { query: { eventSource: 'endpoint:PJSIP/bob' } })).status, 200);
  const r = await farSend('alice', { to: 'sip:1000@pbx.example.com', from: '"Alice" <sip:alice@192.0.2.10>', body: 'Are you there?' }, { variables: { 'X-Priority': 'high', 'User-Agent': 'softphone' } });
  assert.is(r.status, 202);
  assert.is(r.text, '');
  const e = await ctx.ev.waitFor(isText);
  assert.equal(Object.keys(e), ['type', 'timestamp', 'message', 'endpoint', 'asterisk_id', 'application']);
  assert.equal({ ...e, timestamp: '', asterisk_id: '' }, {
    type: 'TextMessageReceived', timestamp: '',
    message: { from: '"Alice" <sip:alice@192.0.2.10>', to: 'sip:1000@pbx.example.com', body: 'Are you there?', variables: [{ 'X-Priority': 'high' }, { 'User-Agent': 'softphone' }] },
    endpoint: { technology: 'PJSIP', resource: 'alice', state: 'online', channel_ids: [] },
    asterisk_id: '', application: 'msg-app',
  });
  // Defaults: the sender is the endpoint's own address, the body empty, no headers.
  assert.is((await farSend('alice', { to: 'sip:1000@pbx.example.com' })).status, 202);
  const [, second] = await ctx.ev.waitForCount(isText, 2);
  assert.equal(second!.message, { from: 'sip:alice@sim.invalid', to: 'sip:1000@pbx.example.com', body: '', variables: [] });
  assert.equal(ctx.other.events.filter(isText), []);
  // A message from bob reaches bob's subscriber only.
  assert.is((await farSend('bob', { to: 'sip:1000@pbx.example.com', body: 'bob here' })).status, 202);
  const fromBob = await ctx.other.waitFor(isText);
  assert.is(fromBob.endpoint.resource, 'bob');
  assert.is(ctx.ev.events.filter(isText).length, 2);
});

test('subscribers by technology and to everything hear every endpoint; an event filter can hold the type back', async () => {
  const all = await connectEvents(ctx.t.url, 'msg-all', { subscribeAll: true });
  try {
    assert.is((await ctx.t.http('POST', '/ari/applications/msg-other/subscription', { query: { eventSource: 'endpoint:PJSIP' } })).status, 200);
    assert.is((await farSend('carol', { to: 'sip:1000@pbx', body: 'from carol' })).status, 202);
    assert.is((await all.waitFor(isText)).endpoint.resource, 'carol');
    assert.is((await ctx.other.waitFor((e) => isText(e) && e.endpoint.resource === 'carol')).application, 'msg-other');
    const filter = await ctx.t.http('PUT', '/ari/applications/msg-all/eventFilter', { json: { disallowed: [{ type: 'TextMessageReceived' }] } });
    assert.is(filter.status, 200);
    assert.is((await farSend('carol', { to: 'sip:1000@pbx', body: 'again' })).status, 202);
    await ctx.other.waitForCount((e) => isText(e) && e.endpoint.resource === 'carol', 2);
    assert.is(all.events.filter(isText).length, 1);
  } finally {
    await all.close();
  }
});

test('bad input from the far end: unknown endpoint, headers that are not strings', async () => {
  const unknown = await farSend('nobody', { to: 'sip:1000@pbx' });
  assert.is(unknown.status, 404);
  assert.equal(unknown.body, { message: 'Endpoint not found' });
  const bad = await farSend('alice', { to: 'sip:1000@pbx' }, { variables: { 'X-Num': 7 } });
  assert.is(bad.status, 400);
  assert.equal(bad.body, { message: 'Only string values in the \'variables\' object allowed' });
  const noTo = await farSend('alice', {});
  assert.is(noTo.status, 400);
});

test.run();
