import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { restartableServer } from '../_helpers/child.js';
import { useServer } from '../_helpers/suite.js';

// ARI's mailboxes resource: message-waiting counts applications keep, persisted; Asterisk has no
// event and no `mailbox:` event source for them.
const test = suite('mailboxes');
const ctx = useServer(test, { events: { all: { apps: 'mb-all', subscribeAll: true } } });

const box = (name: string) => `/ari/mailboxes/${encodeURIComponent(name)}`;
const put = (name: string, query: Record<string, string | undefined>) => ctx.t.http('PUT', box(name), { query });

test('nothing yet: an empty list; GET and DELETE of a missing mailbox are 404 with Asterisk\'s words', async () => {
  const list = await ctx.t.http('GET', '/ari/mailboxes');
  assert.is(list.status, 200);
  assert.equal(list.body, []);
  const get = await ctx.t.http('GET', box('1000@default'));
  assert.is(get.status, 404);
  assert.equal(get.body, { message: 'Mailbox is does not exist' });
  const del = await ctx.t.http('DELETE', box('1000@default'));
  assert.is(del.status, 404);
  assert.equal(del.body, { message: 'Mailbox does not exist' });
});

test('PUT creates then updates (204); GET reads it; the list is in name order (byte order)', async () => {
  assert.is((await put('1000@default', { oldMessages: '3', newMessages: '1' })).status, 204);
  assert.equal((await ctx.t.http('GET', box('1000@default'))).body, { name: '1000@default', old_messages: 3, new_messages: 1 });
  assert.is((await put('1000@default', { oldMessages: '0', newMessages: '7' })).status, 204);
  assert.equal((await ctx.t.http('GET', box('1000@default'))).body, { name: '1000@default', old_messages: 0, new_messages: 7 });
  // Counts may come as JSON body keys too; names may hold a slash (encoded) or any character.
  assert.is((await ctx.t.http('PUT', box('b/2'), { json: { oldMessages: 2, newMessages: 0 } })).status, 204);
  assert.is((await put('Bob', { oldMessages: '1', newMessages: '1' })).status, 204);
  assert.is((await put('été', { oldMessages: '0', newMessages: '0' })).status, 204);
  const list = await ctx.t.http('GET', '/ari/mailboxes');
  assert.equal(list.body, [
    { name: '1000@default', old_messages: 0, new_messages: 7 },
    { name: 'Bob', old_messages: 1, new_messages: 1 },
    { name: 'b/2', old_messages: 2, new_messages: 0 },
    { name: 'été', old_messages: 0, new_messages: 0 },
  ]);
  assert.equal((await ctx.t.http('GET', box('b/2'))).body, { name: 'b/2', old_messages: 2, new_messages: 0 });
  // Names are exact: another case is another mailbox.
  assert.is((await ctx.t.http('GET', box('bob'))).status, 404);
});

test('PUT refusals: a count missing, not an integer, negative or over 32 bits → 400; nothing written', async () => {
  const cases: Array<[Record<string, string | undefined>, string]> = [
    [{ newMessages: '1' }, 'Required parameter \'oldMessages\' not provided'],
    [{ oldMessages: '1' }, 'Required parameter \'newMessages\' not provided'],
    [{ oldMessages: '', newMessages: '1' }, 'Required parameter \'oldMessages\' not provided'],
    [{ oldMessages: 'two', newMessages: '1' }, 'Parameter \'oldMessages\' must be an integer'],
    [{ oldMessages: '1.5', newMessages: '1' }, 'Parameter \'oldMessages\' must be an integer'],
    [{ oldMessages: '1', newMessages: '-1' }, 'Invalid value for parameter \'newMessages\''],
    [{ oldMessages: '1', newMessages: '2147483648' }, 'Parameter \'newMessages\' is out of range'],
  ];
  for (const [query, message] of cases) {
    const r = await put('refused', query);
    assert.is(r.status, 400, JSON.stringify(query));
    assert.equal(r.body, { message }, JSON.stringify(query));
  }
  assert.is((await ctx.t.http('GET', box('refused'))).status, 404);
  assert.is((await ctx.t.http('PUT', box('refused'), { query: { oldMessages: '1', newMessages: '1' }, auth: 'viewer:secret-viewer' })).status, 403);
  assert.equal((await ctx.t.http('GET', box('1000@default'), { auth: 'viewer:secret-viewer' })).status, 200);
});

test('DELETE: 204, then GET and a second DELETE are 404; the rest stay', async () => {
  assert.is((await ctx.t.http('DELETE', box('Bob'))).status, 204);
  assert.is((await ctx.t.http('GET', box('Bob'))).status, 404);
  assert.is((await ctx.t.http('DELETE', box('Bob'))).status, 404);
  assert.equal((await ctx.t.http('GET', '/ari/mailboxes')).body.map((m: { name: string }) => m.name), ['1000@default', 'b/2', 'été']);
});

test('no events: mailbox: is not an event source (400), and changes send nothing, even to a subscribeAll app', async () => {
  for (const source of ['mailbox:1000@default', 'mailbox:']) {
    const r = await ctx.t.http('POST', '/ari/applications/mb-all/subscription', { query: { eventSource: source } });
    assert.is(r.status, 400, source);
    assert.equal(r.body, { message: 'Invalid event source URI scheme' });
  }
  const mark = ctx.all.events.length;
  assert.is((await put('1000@default', { oldMessages: '1', newMessages: '9' })).status, 204);
  assert.is((await ctx.t.http('DELETE', box('b/2'))).status, 204);
  // A device change afterwards marks the end: whatever the mailbox writes sent has arrived before it.
  assert.is((await ctx.t.http('PUT', '/ari/deviceStates/Stasis%3Amb-marker', { query: { deviceState: 'INUSE' } })).status, 204);
  await ctx.all.waitFor((e) => e.type === 'DeviceStateChanged' && e.device_state.name === 'Stasis:mb-marker');
  assert.equal(ctx.all.events.slice(mark).map((e) => e.type), ['DeviceStateChanged']);
});

test('restart: mailboxes survive SIGKILL right after their answers', async () => {
  const servers = restartableServer('mailbox-restart');
  try {
    let server = await servers.start();
    assert.is((await server.http('PUT', box('kept'), { query: { oldMessages: '4', newMessages: '2' } })).status, 204);
    assert.is((await server.http('PUT', box('dropped'), { query: { oldMessages: '0', newMessages: '1' } })).status, 204);
    assert.is((await server.http('DELETE', box('dropped'))).status, 204);
    await servers.kill();
    server = await servers.start();
    assert.equal((await server.http('GET', '/ari/mailboxes')).body, [{ name: 'kept', old_messages: 4, new_messages: 2 }]);
    assert.equal((await server.http('GET', box('kept'))).body, { name: 'kept', old_messages: 4, new_messages: 2 });
    server.assertNoViolations();
  } finally {
    await servers.cleanup();
  }
});

test.run();
