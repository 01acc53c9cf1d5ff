import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { createInApp, hangupAndWait } from '../_helpers/ari.js';
import { connectEvents, type EventLog } from '../_helpers/events.js';
import { refusedUpgrade } from '../_helpers/refused-upgrade.js';
import { useServer } from '../_helpers/suite.js';
import { pollUntil } from '../_helpers/wait.js';

// A read-only ARI user (ARI_USERS=viewer:…:ro) opening /ari/events?app=demo used to replace the
// read-write owner's socket (ApplicationReplaced) and swallow its calls. Read-only sockets now only
// watch: they get the app's events beside its owner, and never register, serve or replace an app.

const test = suite('app-takeover');
const ctx = useServer(test, { events: { owner: 'demo' } });
const VIEWER = 'viewer:secret-viewer';
const open: EventLog[] = [];

async function viewer(apps: string | string[]): Promise<EventLog> {
  const log = await connectEvents(ctx.t.url, apps, { auth: VIEWER });
  open.push(log);
  return log;
}

test.after.each(async () => {
  for (const log of open.splice(0)) await log.close();
});

test('a read-only socket for a served app does not displace the owner: no ApplicationReplaced, the owner keeps its calls', async () => {
  const before = await createInApp(ctx.t, ctx.owner, { app: 'demo', id: 'take-1' });
  const watch = await viewer('demo');
  // The owner still serves demo: a call made now reaches it, and so do events of the call made before.
  const after = await createInApp(ctx.t, ctx.owner, { app: 'demo', id: 'take-2' });
  assert.is((await ctx.t.http('POST', `/ari/channels/${before.id}/variable`, { query: { variable: 'SEEN', value: '1' } })).status, 204);
  await ctx.owner.waitFor((e) => e.type === 'ChannelVarset' && e.channel?.id === before.id && e.variable === 'SEEN');
  await hangupAndWait(ctx.t, ctx.owner, after.id);
  await hangupAndWait(ctx.t, ctx.owner, before.id);
  assert.not.ok(ctx.owner.events.some((e) => e.type === 'ApplicationReplaced'), 'the owner was not replaced');
  assert.is(ctx.owner.closed, undefined);
  // The viewer watched: the same events for the call made after it connected.
  assert.equal(watch.types('take-2'), ctx.owner.types('take-2'));
  assert.ok(watch.types('take-2').includes('StasisStart'));
  assert.ok(watch.events.some((e) => e.type === 'ChannelVarset' && e.channel?.id === before.id));
  assert.ok(watch.events.every((e) => e.application === 'demo'));
});

test('a read-only socket registers nothing: an app only it names stays unknown until a read-write socket serves it', async () => {
  const watch = await viewer('unserved');
  assert.is((await ctx.t.http('GET', '/ari/applications/unserved')).status, 404);
  assert.not.ok((await ctx.t.http('GET', '/ari/applications')).body.some((a: { name: string }) => a.name === 'unserved'));
  // A channel sent there finds no application, as when nobody is connected.
  const c = await ctx.t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'unserved', channelId: 'take-nobody' } });
  assert.is(c.status, 200);
  await pollUntil(async () => (await ctx.t.http('GET', '/ari/channels/take-nobody')).status !== 200);
  assert.is((await ctx.t.http('GET', '/ari/channels/take-nobody')).status, 404, 'hung up for want of its application');
  assert.not.ok(watch.events.some((e) => e.type === 'StasisStart'));
  // A read-write socket then serves it; the viewer is not told ApplicationReplaced and watches its calls.
  const owner = await connectEvents(ctx.t.url, 'unserved');
  open.push(owner);
  assert.is((await ctx.t.http('GET', '/ari/applications/unserved')).status, 200);
  await createInApp(ctx.t, owner, { app: 'unserved', id: 'take-3' });
  await watch.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'take-3');
  await hangupAndWait(ctx.t, owner, 'take-3');
  assert.not.ok([...watch.events, ...owner.events].some((e) => e.type === 'ApplicationReplaced'));
  // The owner leaving ends the app even though the viewer still watches.
  await owner.close();
  await pollUntil(async () => (await ctx.t.http('GET', '/ari/applications/unserved')).status !== 200);
  assert.is((await ctx.t.http('GET', '/ari/applications/unserved')).status, 404);
  assert.is(watch.ws.readyState, WebSocket.OPEN);
});

test('a read-only socket asking for subscribeAll is refused before the upgrade: 403 Write access denied', async () => {
  const url = `${ctx.t.url.replace(/^http/, 'ws')}/ari/events?app=demo&subscribeAll=true&api_key=${VIEWER}`;
  const r = await refusedUpgrade(url);
  assert.is(r.status, 403);
  assert.equal(r.body, { message: 'Write access denied' });
  // The owner is untouched.
  await createInApp(ctx.t, ctx.owner, { app: 'demo', id: 'take-4' });
  await hangupAndWait(ctx.t, ctx.owner, 'take-4');
  assert.not.ok(ctx.owner.events.some((e) => e.type === 'ApplicationReplaced'));
});

test('REST requests a read-only socket sends are refused as over HTTP (403) and change nothing', async () => {
  const { id } = await createInApp(ctx.t, ctx.owner, { app: 'demo', id: 'take-5' });
  const watch = await viewer('demo');
  for (const frame of [
    { type: 'RESTRequest', request_id: '1', method: 'DELETE', uri: `channels/${id}` },
    { type: 'RESTRequest', request_id: '2', method: 'POST', uri: 'asterisk/variable?variable=RO_WS&value=1' },
  ]) watch.ws.send(JSON.stringify(frame));
  const answers = await watch.waitForCount('RESTResponse', 2);
  assert.equal(answers.map((e) => [e.request_id, e.status_code, e.message_body]), [['1', 403, '{"message":"Write access denied"}'], ['2', 403, '{"message":"Write access denied"}']]);
  // A marker request after the frames: anything they did would be done by now.
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/variable`, { query: { variable: 'MARK', value: '1' } })).status, 204);
  await watch.waitFor((e) => e.type === 'ChannelVarset' && e.variable === 'MARK');
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).status, 200);
  assert.is((await ctx.t.http('GET', '/ari/asterisk/variable', { query: { variable: 'RO_WS' } })).body?.value ?? '', '');
  await hangupAndWait(ctx.t, ctx.owner, id);
});

test.run();
