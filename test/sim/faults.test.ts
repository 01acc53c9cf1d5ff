import ari from 'ari-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventSequence, originateInApp } from '../_helpers/ari.js';
import { connectEvents, WAIT_MS } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';
import { waitUntil } from '../_helpers/wait.js';

// Injected faults (POST /sim/faults), each seen from an application's side: a dropped event
// socket, requests failing with a chosen status, an unreachable endpoint; and the list itself.
// Delayed events and media loss are asserted on the virtual clock (faults-virtual.test.ts).
const test = suite('sim faults');
// A small ARI_MAX_STORED_OBJECTS, so the bound on faults in place is reached.
const ctx = useServer(test, { env: { ARI_MAX_STORED_OBJECTS: '3' } });

test.after.each(async () => {
  assert.is((await ctx.t.http('DELETE', '/sim/faults')).status, 204);
});

const addFault = (json: Record<string, unknown>) => ctx.t.http('POST', '/sim/faults', { json });

/** Resolves with the arguments of the next emission of `event` on `emitter`. */
function once<T extends unknown[]>(emitter: { once(e: string, f: (...a: any[]) => void): unknown }, event: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${event}`)), WAIT_MS);
    emitter.once(event, (...args: any[]) => {
      clearTimeout(timer);
      resolve(args as T);
    });
  });
}

test('list, delete one, delete all; Location names the fault', async () => {
  const a = await addFault({ kind: 'fail_requests', operation: 'answer', status: 503, count: 2 });
  assert.is(a.status, 201, a.text);
  assert.is(a.headers.get('location'), `/sim/faults/${a.body.id}`);
  assert.equal(a.body, { id: a.body.id, kind: 'fail_requests', operation: 'answer', status: 503, count: 2, remaining: 2 });
  const b = await addFault({ kind: 'endpoint_unreachable', endpoint: 'pjsip/bob' });
  assert.is(b.status, 201, b.text);
  assert.equal(b.body, { id: b.body.id, kind: 'endpoint_unreachable', endpoint: 'PJSIP/bob' });
  const c = await ctx.t.http('POST', '/sim/faults', { query: { kind: 'media_loss', endpoint: 'PJSIP/alice', percent: '10' } });
  assert.equal(c.body, { id: c.body.id, kind: 'media_loss', endpoint: 'PJSIP/alice', percent: 10 });

  assert.equal((await ctx.t.http('GET', '/sim/faults')).body, [a.body, b.body, c.body]);
  assert.is((await ctx.t.http('DELETE', `/sim/faults/${b.body.id}`)).status, 204);
  assert.equal((await ctx.t.http('GET', '/sim/faults')).body, [a.body, c.body]);
  const gone = await ctx.t.http('DELETE', `/sim/faults/${b.body.id}`);
  assert.is(gone.status, 404);
  assert.equal(gone.body, { message: 'Fault not found' });
  assert.is((await ctx.t.http('DELETE', '/sim/faults')).status, 204);
  assert.equal((await ctx.t.http('GET', '/sim/faults')).body, []);
});

test('faults in place are bounded by ARI_MAX_STORED_OBJECTS; one that acts at once is not counted', async () => {
  for (let i = 0; i < 3; i++) assert.is((await addFault({ kind: 'media_loss', endpoint: 'PJSIP/alice', percent: i })).status, 201);
  const over = await addFault({ kind: 'endpoint_unreachable', endpoint: 'PJSIP/bob' });
  assert.is(over.status, 400);
  assert.equal(over.body, { message: 'At most 3 faults may be in place at once (ARI_MAX_STORED_OBJECTS)' });
  const log = await connectEvents(ctx.t.url, 'bounded-drop');
  assert.is((await addFault({ kind: 'drop_socket', app: 'bounded-drop' })).status, 201);
  await waitUntil(async () => log.closed !== undefined, 'the socket closes');
  assert.is((await ctx.t.http('GET', '/sim/faults')).body.length, 3);
});

test('bad input: each kind\'s fields are checked, with a message that says what is wrong', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{}, 'Required parameter \'kind\' not provided'],
    [{ kind: 'explode' }, 'Invalid value for parameter \'kind\''],
    [{ kind: 'drop_socket' }, 'A drop_socket fault needs \'app\''],
    [{ kind: 'drop_socket', app: 'nobody-here' }, 'Application \'nobody-here\' has no event socket'],
    [{ kind: 'drop_socket', app: 'app1', count: 2 }, 'A drop_socket fault does not take \'count\''],
    [{ kind: 'delay_events', app: 'app1' }, 'A delay_events fault needs \'ms\''],
    [{ kind: 'delay_events', app: 'app1', ms: -1 }, 'Invalid value for parameter \'ms\''],
    [{ kind: 'fail_requests', operation: 'explode', status: 503, count: 1 }, 'No ARI operation is called \'explode\''],
    [{ kind: 'fail_requests', operation: 'originate', status: 200, count: 1 }, 'Invalid value for parameter \'status\''],
    [{ kind: 'fail_requests', operation: 'originate', status: 600, count: 1 }, 'Invalid value for parameter \'status\''],
    [{ kind: 'fail_requests', operation: 'originate', status: 503, count: 0 }, 'Invalid value for parameter \'count\''],
    [{ kind: 'fail_requests', operation: 'originate', status: 'x', count: 1 }, 'Parameter \'status\' must be an integer'],
    [{ kind: 'endpoint_unreachable', endpoint: 'PJSIP/nobody' }, 'Endpoint \'PJSIP/nobody\' not found'],
    [{ kind: 'media_loss', endpoint: 'PJSIP/alice', percent: 101 }, 'Invalid value for parameter \'percent\''],
    [{ kind: 'media_loss', endpoint: 'PJSIP/alice', percent: -1 }, 'Invalid value for parameter \'percent\''],
    [{ kind: 'media_loss', endpoint: 'PJSIP/alice' }, 'A media_loss fault needs \'percent\''],
  ];
  for (const [json, message] of cases) {
    const r = await addFault(json);
    assert.is(r.status, 400, JSON.stringify(json));
    assert.equal(r.body, { message }, JSON.stringify(json));
  }
  assert.equal((await ctx.t.http('GET', '/sim/faults')).body, []);
});

test('fail_requests: the next count requests to the operation answer the status in ARI\'s body, over HTTP and over the socket; then normal', async () => {
  const f = await addFault({ kind: 'fail_requests', operation: 'channels.get', status: 503, count: 2 });
  assert.is(f.status, 201);
  // Another resource's `get` is not this operation.
  assert.is((await ctx.t.http('GET', '/ari/bridges/nope')).status, 404);
  const first = await ctx.t.http('GET', '/ari/channels/nope');
  assert.is(first.status, 503);
  assert.equal(first.body, { message: 'Service Unavailable' });
  assert.equal((await ctx.t.http('GET', '/sim/faults')).body, [{ ...f.body, remaining: 1 }]);
  // A request sent over the event socket counts too.
  ctx.ev.ws.send(JSON.stringify({ type: 'RESTRequest', request_id: 'fr-1', method: 'GET', uri: 'channels/nope' }));
  const answer = await ctx.ev.waitFor((e) => e.type === 'RESTResponse' && e.request_id === 'fr-1');
  assert.is(answer.status_code, 503);
  assert.is(answer.message_body, '{"message":"Service Unavailable"}');
  // Spent: it leaves the list, and the operation answers as usual.
  assert.equal((await ctx.t.http('GET', '/sim/faults')).body, []);
  const after = await ctx.t.http('GET', '/ari/channels/nope');
  assert.is(after.status, 404);
  assert.equal(after.body, { message: 'Channel not found' });
});

test('fail_requests surfaces in ari-client as a rejected call for exactly count requests', async () => {
  const client = await ari.connect(ctx.t.url, 'asterisk', 'asterisk');
  assert.is((await addFault({ kind: 'fail_requests', operation: 'originate', status: 503, count: 2 })).status, 201);
  for (let i = 0; i < 2; i++) {
    try {
      await client.channels.originate({ endpoint: 'PJSIP/instant', app: 'app1' });
      assert.unreachable('the injected failure should reject');
    } catch (err) {
      assert.is((err as Error).message, '{"message":"Service Unavailable"}');
    }
  }
  const ch = await client.channels.originate({ endpoint: 'PJSIP/instant', app: 'app1' });
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === ch.id);
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${ch.id}`)).status, 204);
});

test('drop_socket: ari-client\'s socket is cut, it reconnects and gets events again', async () => {
  const client = await ari.connect(ctx.t.url, 'asterisk', 'asterisk');
  await client.start('drop-app');
  await waitUntil(async () => (await ctx.t.http('GET', '/ari/applications/drop-app')).status === 200, 'drop-app is registered');
  const reconnecting = once<[Error | undefined]>(client, 'WebSocketReconnecting');
  const f = await addFault({ kind: 'drop_socket', app: 'drop-app' });
  assert.is(f.status, 201, f.text);
  assert.equal(f.body, { id: f.body.id, kind: 'drop_socket', app: 'drop-app' });
  // It acts once and is not kept; the app has no socket by the time the fault is answered.
  assert.equal((await ctx.t.http('GET', '/sim/faults')).body, []);
  const [err] = await reconnecting;
  assert.ok(err === undefined || err instanceof Error);
  await once(client, 'WebSocketConnected');
  const started = once<[any, any]>(client, 'StasisStart');
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'drop-app' } });
  assert.is(r.status, 200);
  const [event] = await started;
  assert.is(event.channel.id, r.body.id);
  assert.is(event.application, 'drop-app');
  client.stop();
  await ctx.t.http('DELETE', `/ari/channels/${r.body.id}`);
});

test('drop_socket: a plain socket sees its connection end without a close frame', async () => {
  const log = await connectEvents(ctx.t.url, 'drop-plain');
  assert.is((await addFault({ kind: 'drop_socket', app: 'drop-plain' })).status, 201);
  await waitUntil(async () => log.closed !== undefined, 'the socket closes');
  assert.equal(log.closed, { code: 1006, reason: '' });
  assert.is((await ctx.t.http('GET', '/ari/applications/drop-plain')).status, 404);
});

test('endpoint_unreachable: an originate fails at once with cause 20 and Dial CHANUNAVAIL; calls from it do not get through', async () => {
  assert.is((await addFault({ kind: 'endpoint_unreachable', endpoint: 'PJSIP/alice' })).status, 201);
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/alice', app: 'app1' } });
  assert.is(r.status, 200);
  const id = r.body.id as string;
  const destroyed = await ctx.ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
  assert.is(destroyed.cause, 20);
  assert.is(destroyed.cause_txt, 'Subscriber absent');
  assert.equal(eventSequence(ctx.ev, id), ['Dial:', 'Dial:CHANUNAVAIL', 'ChannelDestroyed']);
  const inbound = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: '1000' } });
  assert.is(inbound.status, 409);
  assert.equal(inbound.body, { message: 'Endpoint PJSIP/alice is unreachable: its calls do not get through' });
  // Another endpoint is not affected, and once the fault goes alice answers again.
  await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'unreach-instant' });
  await ctx.t.http('DELETE', '/ari/channels/unreach-instant');
  assert.is((await ctx.t.http('DELETE', '/sim/faults')).status, 204);
  await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'reach-alice', endpoint: 'PJSIP/alice' });
  await ctx.t.http('DELETE', '/ari/channels/reach-alice');
});

test.run();
