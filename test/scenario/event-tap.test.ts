import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { TAP_SLOW_CLOSE_CODE } from '../../protocol/sim/tap.js';
import { callInApp } from '../_helpers/ari.js';
import { connectEvents, EventLog, openEventLog, type AriEvent, type JsonEvent } from '../_helpers/events.js';
import { BACKLOG_ENV, BACKLOG_EVENTS, readAgain, setBigVariables, stopReading } from '../_helpers/backlog.js';
import { refusedUpgrade } from '../_helpers/refused-upgrade.js';
import { basicAuth, request } from '../_helpers/request.js';
import { startTestServer } from '../_helpers/server.js';
import { socketClosed } from '../_helpers/socket-closed.js';
import { useServer } from '../_helpers/suite.js';
import { advance, stamp, VIRTUAL_START } from '../_helpers/virtual-clock.js';
import { waitUntil } from '../_helpers/wait.js';

// GET /sim/events: a read-only copy of what applications' event sockets are sent, for test
// harnesses (the scenario runner). The tap sees each frame byte for byte, in order, when the app
// does, and changes nothing about the app: it registers nothing and is no socket of it.
const test = suite('sim event tap');
const ctx = useServer(test, { env: { SIM_CLOCK: 'virtual' }, events: { ev: 'app1' } });

interface Tapped extends JsonEvent {
  app: string;
  event: AriEvent;
}

const tapUrl = (base: string, query: string) => `${base.replace(/^http/, 'ws')}/sim/events${query}`;
const openTap = (base: string, apps: string, auth = 'asterisk:asterisk') =>
  openEventLog<Tapped>(tapUrl(base, `?app=${apps}&api_key=${auth}`));
/** What the log holds about one channel, as the app's socket received it. */
const framesOf = (log: EventLog<Tapped>, id: string) => log.events.filter((f) => f.event.channel?.id === id);

/** Opens `app`'s own event socket and a tap of it, runs `fn`, and closes both. */
async function withAppAndTap(name: string, fn: (app: EventLog, tap: EventLog<Tapped>) => Promise<void>): Promise<void> {
  const app = await connectEvents(ctx.t.url, name);
  const tap = await openTap(ctx.t.url, name);
  try {
    await fn(app, tap);
  } finally {
    await tap.close();
    await app.close();
  }
}

test.after.each(async () => {
  assert.is((await ctx.t.http('DELETE', '/sim/faults')).status, 204);
});

test('a call into the app: the tap gets every frame the app\'s socket got, identical and in the same order, tagged with the app', async () => {
  const tap = await openTap(ctx.t.url, 'app1');
  try {
    // The tap's frames are matched by their raw text, not only their parsed form.
    const raw: string[] = [];
    ctx.ev.ws.on('message', (d) => raw.push(d.toString()));
    const rawTap: string[] = [];
    tap.ws.on('message', (d) => rawTap.push(d.toString()));
    await callInApp(ctx.t, ctx.ev, { id: 'tap-1', app: 'app1' });
    assert.is((await ctx.t.http('POST', '/sim/channels/tap-1/hangup', { query: { cause: '16' } })).status, 204);
    await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === 'tap-1');
    await tap.waitFor((f) => f.event.type === 'StasisEnd' && f.event.channel?.id === 'tap-1');
    const mine = ctx.ev.of('tap-1');
    // An inbound call leaves the app at StasisEnd (its destruction goes to no app that has let go of it).
    assert.equal(mine.map((e) => e.type), ['StasisStart', 'ChannelHangupRequest', 'StasisEnd']);
    assert.equal(mine.map((e) => e.timestamp), [stamp(VIRTUAL_START), stamp(VIRTUAL_START), stamp(VIRTUAL_START)]);
    const copied = framesOf(tap, 'tap-1');
    assert.equal(copied.map((f) => f.app), ['app1', 'app1', 'app1']);
    assert.equal(copied.map((f) => f.event), mine);
    // Byte for byte: each tap frame is {"app":…,"event":<the app's frame>}.
    const appFrames = raw.filter((s) => s.includes('"tap-1"'));
    assert.equal(rawTap.filter((s) => s.includes('"tap-1"')), appFrames.map((s) => `{"app":"app1","event":${s}}`));
    // Nothing else went to either.
    assert.is(tap.events.length, ctx.ev.events.length);
  } finally {
    await tap.close();
  }
});

test('batch=true: the same frames as a plain tap, in the same order, gathered into one array per turn of the event loop', async () => {
  const plain = await openTap(ctx.t.url, 'app1');
  const batches: string[] = [];
  const batched = new WebSocket(tapUrl(ctx.t.url, '?app=app1&batch=true&api_key=asterisk:asterisk'), 'ari');
  batched.on('message', (d) => batches.push(d.toString()));
  await new Promise((resolve, reject) => batched.once('open', resolve).once('error', reject));
  try {
    const rawPlain: string[] = [];
    plain.ws.on('message', (d) => rawPlain.push(d.toString()));
    await callInApp(ctx.t, ctx.ev, { id: 'tap-b', app: 'app1' });
    // Variables set by requests in flight together, then a hangup: events from several turns.
    await Promise.all(Array.from({ length: 10 }, (_, i) => ctx.t.http('POST', '/ari/channels/tap-b/variable', { query: { variable: `V${i}`, value: String(i) } })));
    assert.is((await ctx.t.http('POST', '/sim/channels/tap-b/hangup', { query: { cause: '16' } })).status, 204);
    await plain.waitFor((f) => f.event.type === 'StasisEnd' && f.event.channel?.id === 'tap-b');
    await waitUntil(() => batches.some((b) => b.includes('"StasisEnd"')), 'the batched tap got StasisEnd');
    // Every frame is an array; laid end to end they are the plain tap's frames, byte for byte.
    const parsed = batches.map((b) => JSON.parse(b) as Tapped[]);
    for (const b of parsed) assert.ok(Array.isArray(b) && b.length > 0, 'a non-empty array');
    assert.is(batches.map((b) => b.slice(1, -1)).join(','), rawPlain.join(','));
    assert.is(parsed.flat().filter((f) => f.event.type === 'ChannelVarset').length, 10);
    // The hangup's two events come from one turn, so they share a frame.
    const last = parsed.find((b) => b.some((f) => f.event.type === 'StasisEnd'))!;
    assert.equal(last.map((f) => f.event.type), ['ChannelHangupRequest', 'StasisEnd']);
  } finally {
    batched.close();
    await plain.close();
  }
});

test('delay_events: the tap gets the held-back frames when the app does, not before', async () => {
  const tap = await openTap(ctx.t.url, 'app1,other');
  try {
    const f = await ctx.t.http('POST', '/sim/faults', { json: { kind: 'delay_events', app: 'app1', ms: 500 } });
    assert.is(f.status, 201, f.text);
    const start = await advance(ctx.t, 0);
    const r = await ctx.t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'app1', channelId: 'tap-late' } });
    assert.is(r.status, 200, r.text);
    await advance(ctx.t, 499);
    // A marker frame through the same tap socket: everything sent before it has arrived.
    const other = await connectEvents(ctx.t.url, 'other');
    try {
      assert.is((await ctx.t.http('POST', '/ari/events/user/marker', { query: { application: 'other' } })).status, 204);
      await tap.waitFor((x) => x.app === 'other' && x.event.eventname === 'marker');
      assert.equal(framesOf(tap, 'tap-late'), []);
      assert.equal(ctx.ev.of('tap-late'), []);
    } finally {
      await other.close();
    }
    await advance(ctx.t, 1);
    await tap.waitFor((x) => x.event.type === 'StasisStart' && x.event.channel?.id === 'tap-late');
    await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'tap-late');
    assert.equal(framesOf(tap, 'tap-late').map((x) => `${x.event.type}@${x.event.timestamp}`), [`ChannelDialplan@${stamp(start)}`, `StasisStart@${stamp(start)}`]);
    assert.equal(framesOf(tap, 'tap-late').map((x) => x.event), ctx.ev.of('tap-late'));
    assert.is((await ctx.t.http('DELETE', '/sim/faults')).status, 204);
    assert.is((await ctx.t.http('DELETE', '/ari/channels/tap-late')).status, 204);
    await tap.waitFor((x) => x.event.type === 'ChannelDestroyed' && x.event.channel?.id === 'tap-late');
  } finally {
    await tap.close();
  }
});

test('the app\'s event filter holds a type back from the tap as from the app', () =>
  withAppAndTap('filtered', async (app, tap) => {
    const f = await ctx.t.http('PUT', '/ari/applications/filtered/eventFilter', { json: { disallowed: [{ type: 'ChannelVarset' }] } });
    assert.is(f.status, 200, f.text);
    const r = await ctx.t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'filtered', channelId: 'filt-1' } });
    assert.is(r.status, 200, r.text);
    assert.is((await ctx.t.http('POST', '/ari/channels/filt-1/variable', { query: { variable: 'X', value: '1' } })).status, 204);
    assert.is((await ctx.t.http('DELETE', '/ari/channels/filt-1')).status, 204);
    await app.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'filt-1');
    await tap.waitFor((x) => x.event.type === 'ChannelDestroyed' && x.event.channel?.id === 'filt-1');
    assert.equal(app.types('filt-1'), ['ChannelDialplan', 'StasisStart', 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']);
    assert.equal(framesOf(tap, 'filt-1').map((x) => x.event), app.of('filt-1'));
  }));

test('a tap does not register its app: GET /ari/applications is 404, an originate into it is hung up as for any app without a socket, drop_socket is 400', async () => {
  const tap = await openTap(ctx.t.url, 'ghost');
  try {
    const app = await ctx.t.http('GET', '/ari/applications/ghost');
    assert.is(app.status, 404);
    assert.equal(app.body, { message: 'Application not found' });
    const names = (await ctx.t.http('GET', '/ari/applications')).body.map((a: { name: string }) => a.name);
    assert.not.ok(names.includes('ghost'));
    // PJSIP/instant answers at once; with no socket for ghost, Stasis fails and the channel is hung up.
    const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'ghost', channelId: 'ghost-1' } });
    assert.is(r.status, 200, r.text);
    await advance(ctx.t, 0);
    await waitUntil(async () => (await ctx.t.http('GET', '/ari/channels/ghost-1')).status === 404, 'the channel was hung up');
    const h = await ctx.t.http('GET', '/sim/history', { query: { limit: '10' } });
    const rec = h.body.find((c: { id: string }) => c.id === 'ghost-1');
    assert.is(rec?.cause, 16, JSON.stringify(h.body));
    // drop_socket counts only the app's own sockets: none.
    const drop = await ctx.t.http('POST', '/sim/faults', { json: { kind: 'drop_socket', app: 'ghost' } });
    assert.is(drop.status, 400, drop.text);
    // Events while the app has no socket are not sent anywhere, so the tap saw none.
    assert.equal(tap.events, []);
    assert.is(tap.closed, undefined);
  } finally {
    await tap.close();
  }
});

test('drop_socket cuts the app\'s socket but leaves the tap open', () =>
  withAppAndTap('dropme', async (app, tap) => {
    const drop = await ctx.t.http('POST', '/sim/faults', { json: { kind: 'drop_socket', app: 'dropme' } });
    assert.is(drop.status, 201, drop.text);
    await waitUntil(() => app.closed !== undefined, 'the app socket was cut');
    assert.is(tap.closed, undefined);
    assert.is(tap.ws.readyState, WebSocket.OPEN);
  }));

test('refusals before the upgrade: 401 without or with wrong credentials, 403 for a read-only user, 400 without app or for a plain GET', async () => {
  const none = await refusedUpgrade(tapUrl(ctx.t.url, '?app=app1'));
  assert.is(none.status, 401);
  assert.equal(none.body, { message: 'Authentication required' });
  assert.is(none.realm, 'Basic realm="Asterisk REST Interface"');
  const wrong = await refusedUpgrade(tapUrl(ctx.t.url, '?app=app1'), { authorization: basicAuth('asterisk:nope') });
  assert.is(wrong.status, 401);
  const ro = await refusedUpgrade(tapUrl(ctx.t.url, '?app=app1&api_key=viewer:secret-viewer'));
  assert.is(ro.status, 403);
  assert.equal(ro.body, { message: 'Write access denied' });
  const noApp = await refusedUpgrade(tapUrl(ctx.t.url, '?app=,&api_key=asterisk:asterisk'));
  assert.is(noApp.status, 400);
  assert.equal(noApp.body, { message: 'Missing param: app' });
  const long = await refusedUpgrade(tapUrl(ctx.t.url, `?app=${'a'.repeat(74)}&api_key=asterisk:asterisk`));
  assert.is(long.status, 400);
  assert.equal(long.body, { message: 'Application name longer than 73 characters' });
  const plain = await request(ctx.t.url, 'GET', '/sim/events?app=app1', { headers: { authorization: basicAuth('asterisk:asterisk') } });
  assert.is(plain.status, 400);
  assert.equal(plain.body, { message: 'Invalid request: expected a WebSocket upgrade' });
});

test('a tap that stops reading is closed with 1008 once WS_MAX_BUFFERED_BYTES wait for it; the app keeps receiving', async () => {
  const sc = await startTestServer(BACKLOG_ENV);
  try {
    const app = await connectEvents(sc.url, 'busy');
    const tap = await openTap(sc.url, 'busy');
    const closing = socketClosed(tap.ws);
    const r = await sc.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'busy', channelId: 'busy-1' } });
    assert.is(r.status, 200);
    stopReading(tap.ws);
    const N = BACKLOG_EVENTS;
    await setBigVariables(sc, 'busy-1');
    const got = await app.waitForCount((e) => e.type === 'ChannelVarset' && e.channel?.id === 'busy-1', N);
    assert.is(got.length, N);
    readAgain(tap.ws);
    const { code } = await closing;
    assert.is(code, TAP_SLOW_CLOSE_CODE);
    const seen = tap.events.filter((f) => f.event.type === 'ChannelVarset').length;
    assert.ok(seen < N, `the tap was closed before it got everything (it saw ${seen} of ${N})`);
    assert.is(app.closed, undefined);
    await app.close();
    sc.assertNoViolations();
  } finally {
    await sc.close();
  }
});

test.run();
