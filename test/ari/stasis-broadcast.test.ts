import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventSequence } from '../_helpers/ari.js';
import { restartableServer } from '../_helpers/child.js';
import { connectEvents, type AriEvent, type EventLog } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

// StasisBroadcast() offers a call to several applications; POST /events/claim takes it.
// The bundled `broadcast` extension runs StasisBroadcast(${BCAST_TIMEOUT},${BCAST_FILTER},
// ${BCAST_ARGS},${BCAST_NOTIFY}) and then Stasis(${STASIS_APP},after-broadcast), so a call that
// comes back to the dialplan lands in `support`, where its STASISSTATUS can be read.
// Simulated time runs at wall speed here: a claim window of 60 s is one a test always makes.

const test = suite('stasis-broadcast');
const ctx = useServer(test, { env: { SIM_TIME_SCALE: '1' }, events: { sales1: 'sales-1', sales2: 'sales-2', support: 'support' } });

const WIDE = '60000';
const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/;
const about = (type: string, id: string) => (e: AriEvent) => e.type === type && e.channel?.id === id;

/** Bob calls the `broadcast` extension with the broadcast's arguments as variables; the call comes back to `support`. */
async function call(id: string, vars: { timeout?: string; filter?: string; args?: string; notify?: string }): Promise<void> {
  const variables: Record<string, string> = { STASIS_APP: 'support' };
  if (vars.timeout !== undefined) variables.BCAST_TIMEOUT = vars.timeout;
  if (vars.filter !== undefined) variables.BCAST_FILTER = vars.filter;
  if (vars.args !== undefined) variables.BCAST_ARGS = vars.args;
  if (vars.notify !== undefined) variables.BCAST_NOTIFY = vars.notify;
  const r = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/bob', extension: 'broadcast', channelId: id }, json: { variables } });
  assert.is(r.status, 200, r.text);
}

async function claim(query: Record<string, string>) {
  const r = await ctx.t.http('POST', '/ari/events/claim', { query });
  return { status: r.status, body: r.body };
}

/** The call back in the dialplan, in `support`: its StasisStart there. */
const landed = (id: string) => ctx.support.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id && (e.args as string[])[0] === 'after-broadcast');

async function variable(id: string, name: string) {
  const r = await ctx.t.http('GET', `/ari/channels/${id}/variable`, { query: { variable: name } });
  return { status: r.status, body: r.body };
}

/** Everything the server sent `log` before this returns has arrived (a user event sent now comes after it). */
let barriers = 0;
async function barrier(log: EventLog, app: string): Promise<void> {
  const name = `barrier-${++barriers}`;
  assert.is((await ctx.t.http('POST', `/ari/events/user/${name}`, { query: { application: app } })).status, 204);
  await log.waitFor((e) => e.type === 'ChannelUserevent' && e.eventname === name);
}

const NOT_ON_OFFER = { status: 404, body: { message: 'Channel not found or not in broadcast state' } };
const TAKEN = { status: 409, body: { message: 'Channel has already been claimed by another application' } };

test('CallBroadcast goes to the applications the filter matches; the first claim (204) puts the call in that application with the args, later claims are 409', async () => {
  await call('bc-win', { timeout: WIDE, filter: '^sales-', args: 'vip::x' });
  const offered = await ctx.sales1.waitFor(about('CallBroadcast', 'bc-win'));
  await ctx.sales2.waitFor(about('CallBroadcast', 'bc-win'));
  assert.equal(Object.keys(offered).sort(), ['application', 'asterisk_id', 'called', 'caller', 'channel', 'timestamp', 'type']);
  assert.is(offered.application, 'sales-1');
  assert.match(offered.timestamp, TS);
  assert.is(offered.caller, '1002');
  assert.is(offered.called, 'broadcast');
  assert.is(offered.channel!.state, 'Up');
  assert.equal(offered.channel!.dialplan, { context: 'default', exten: 'broadcast', priority: 2, app_name: 'StasisBroadcast', app_data: `${WIDE},^sales-,vip::x,` });

  assert.equal(await claim({ channelId: 'bc-win', application: 'sales-2' }), { status: 204, body: undefined });
  const start = await ctx.sales2.waitFor(about('StasisStart', 'bc-win'));
  assert.equal(start.args, ['vip', '', 'x']);
  assert.equal(await claim({ channelId: 'bc-win', application: 'sales-1' }), TAKEN);
  assert.equal(await claim({ channelId: 'bc-win', application: 'sales-2' }), TAKEN);
  // The winner has the call as Stasis() would give it: it can read and drive it.
  assert.equal(await variable('bc-win', 'STASISSTATUS'), { status: 200, body: { value: '' } });

  // Back to the dialplan: the broadcast ends with SUCCESS, and the call is no longer on offer.
  assert.is((await ctx.t.http('POST', '/ari/channels/bc-win/continue')).status, 204);
  await landed('bc-win');
  assert.equal(await variable('bc-win', 'STASISSTATUS'), { status: 200, body: { value: 'SUCCESS' } });
  // Asterisk's released StasisBroadcast() sets no BROADCAST_WINNER (an early draft of it did).
  assert.equal(await variable('bc-win', 'BROADCAST_WINNER'), { status: 404, body: { message: 'Provided variable was not found' } });
  assert.equal(await claim({ channelId: 'bc-win', application: 'sales-1' }), NOT_ON_OFFER);

  await barrier(ctx.sales1, 'sales-1');
  await barrier(ctx.sales2, 'sales-2');
  assert.equal(eventSequence(ctx.sales1, 'bc-win'), ['CallBroadcast'], 'the loser heard the offer only (no CallClaimed unless asked for)');
  assert.equal(eventSequence(ctx.sales2, 'bc-win'), ['CallBroadcast', 'StasisStart', 'StasisEnd']);
  assert.equal(ctx.support.of('bc-win').filter((e) => e.type === 'CallBroadcast'), [], 'support does not match ^sales-');
  await ctx.t.http('DELETE', '/ari/channels/bc-win');
});

test('notify_claimed: CallClaimed {channel, winner_app} to every application offered the call, before the winner\'s StasisStart', async () => {
  await call('bc-notify', { timeout: WIDE, filter: 'sales', notify: 'yes' });
  await ctx.sales1.waitFor(about('CallBroadcast', 'bc-notify'));
  assert.equal(await claim({ channelId: 'bc-notify', application: 'sales-1' }), { status: 204, body: undefined });
  const claimed = await ctx.sales2.waitFor(about('CallClaimed', 'bc-notify'));
  assert.equal(Object.keys(claimed).sort(), ['application', 'asterisk_id', 'channel', 'timestamp', 'type', 'winner_app']);
  assert.is(claimed.winner_app, 'sales-1');
  await ctx.sales1.waitFor(about('StasisStart', 'bc-notify'));
  assert.equal(eventSequence(ctx.sales1, 'bc-notify'), ['CallBroadcast', 'CallClaimed', 'StasisStart']);
  assert.equal((await ctx.sales1.waitFor(about('StasisStart', 'bc-notify'))).args, []);
  await barrier(ctx.sales2, 'sales-2');
  assert.equal(eventSequence(ctx.sales2, 'bc-notify'), ['CallBroadcast', 'CallClaimed']);
  await barrier(ctx.support, 'support');
  assert.equal(eventSequence(ctx.support, 'bc-notify'), []);
  await ctx.t.http('DELETE', '/ari/channels/bc-notify');
});

test('no claim in the window: STASISSTATUS=TIMEOUT and the dialplan goes on; without a filter every application is offered the call', async () => {
  await call('bc-zero', { timeout: '0' });
  for (const log of [ctx.sales1, ctx.sales2, ctx.support]) await log.waitFor(about('CallBroadcast', 'bc-zero'));
  await landed('bc-zero');
  assert.equal(await variable('bc-zero', 'STASISSTATUS'), { status: 200, body: { value: 'TIMEOUT' } });
  assert.equal(await claim({ channelId: 'bc-zero', application: 'sales-1' }), NOT_ON_OFFER);
  await ctx.t.http('DELETE', '/ari/channels/bc-zero');
});

test('a timeout outside 0…60000 ms is the default 500 ms: the offer stays open that long (simulated time, from below)', async () => {
  await call('bc-default', { timeout: '60001', filter: '^support$' });
  const offered = await ctx.support.waitFor(about('CallBroadcast', 'bc-default'));
  const back = await landed('bc-default');
  assert.ok(Date.parse(back.timestamp) - Date.parse(offered.timestamp) >= 500, `${offered.timestamp} → ${back.timestamp}`);
  assert.equal(await variable('bc-default', 'STASISSTATUS'), { status: 200, body: { value: 'TIMEOUT' } });
  await ctx.t.http('DELETE', '/ari/channels/bc-default');
});

test('a claim by an application without a WebSocket wins (204) but the call cannot enter it: STASISSTATUS=FAILED, the dialplan goes on', async () => {
  await call('bc-ghost', { timeout: WIDE, filter: '^sales-1$' });
  await ctx.sales1.waitFor(about('CallBroadcast', 'bc-ghost'));
  assert.equal(await claim({ channelId: 'bc-ghost', application: 'ghost' }), { status: 204, body: undefined });
  await landed('bc-ghost');
  assert.equal(await variable('bc-ghost', 'STASISSTATUS'), { status: 200, body: { value: 'FAILED' } });
  assert.equal(await claim({ channelId: 'bc-ghost', application: 'sales-1' }), NOT_ON_OFFER);
  await ctx.t.http('DELETE', '/ari/channels/bc-ghost');
});

test('the filter is a user pattern: one that would backtrack for ever is matched in linear time; one that does not compile filters nothing', async () => {
  const long = 'a'.repeat(40);
  const slow = await connectEvents(ctx.t.url, long);
  try {
    // ^(a+)+b$ against forty a's: 2^40 steps for a backtracking engine.
    await call('bc-redos', { timeout: '0', filter: '^(a+)+b$' });
    await landed('bc-redos');
    await barrier(slow, long);
    assert.equal(slow.of('bc-redos'), []);
    assert.equal(await variable('bc-redos', 'STASISSTATUS'), { status: 200, body: { value: 'TIMEOUT' } });
  } finally {
    await slow.close();
  }
  // An unclosed group does not compile: Asterisk then offers the call to every application.
  await call('bc-broken', { timeout: '0', filter: 'sales-(' });
  for (const log of [ctx.sales1, ctx.sales2, ctx.support]) await log.waitFor(about('CallBroadcast', 'bc-broken'));
  await landed('bc-broken');
  for (const id of ['bc-redos', 'bc-broken']) await ctx.t.http('DELETE', `/ari/channels/${id}`);
});

test('bad claims: missing or empty parameters → 400 (channelId checked first); an unknown channel, one not on offer, or a channel name → 404', async () => {
  assert.equal(await claim({}), { status: 400, body: { message: 'channelId parameter is required' } });
  assert.equal(await claim({ application: 'sales-1' }), { status: 400, body: { message: 'channelId parameter is required' } });
  assert.equal(await claim({ channelId: '', application: 'sales-1' }), { status: 400, body: { message: 'channelId parameter is required' } });
  assert.equal(await claim({ channelId: 'bc-none' }), { status: 400, body: { message: 'application parameter is required' } });
  assert.equal(await claim({ channelId: 'bc-none', application: '' }), { status: 400, body: { message: 'application parameter is required' } });
  assert.equal(await claim({ channelId: 'bc-none', application: 'sales-1' }), NOT_ON_OFFER);

  // A call in an application through Stasis() is not on offer.
  const r = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/bob', extension: '1000', channelId: 'bc-plain' }, json: { variables: { STASIS_APP: 'support' } } });
  assert.is(r.status, 200, r.text);
  await ctx.support.waitFor(about('StasisStart', 'bc-plain'));
  assert.equal(await claim({ channelId: 'bc-plain', application: 'support' }), NOT_ON_OFFER);

  // Offers are found by unique id, not by channel name.
  await call('bc-named', { timeout: WIDE, filter: '^sales-2$' });
  const offered = await ctx.sales2.waitFor(about('CallBroadcast', 'bc-named'));
  assert.equal(await claim({ channelId: offered.channel!.name, application: 'sales-2' }), NOT_ON_OFFER);
  // The read-only user may not claim.
  const ro = await ctx.t.http('POST', '/ari/events/claim', { query: { channelId: 'bc-named', application: 'sales-2' }, auth: 'viewer:secret-viewer' });
  assert.equal({ status: ro.status, body: ro.body }, { status: 403, body: { message: 'Write access denied' } });
  assert.equal(await claim({ channelId: 'bc-named', application: 'sales-2' }), { status: 204, body: undefined });
  await ctx.sales2.waitFor(about('StasisStart', 'bc-named'));
  for (const id of ['bc-plain', 'bc-named']) await ctx.t.http('DELETE', `/ari/channels/${id}`);
});

test('a call hung up while on offer is gone: a claim is 404', async () => {
  await call('bc-gone', { timeout: WIDE, filter: '^sales-1$' });
  await ctx.sales1.waitFor(about('CallBroadcast', 'bc-gone'));
  assert.is((await ctx.t.http('DELETE', '/ari/channels/bc-gone')).status, 204);
  assert.equal(await claim({ channelId: 'bc-gone', application: 'sales-1' }), NOT_ON_OFFER);
});

test('an offer and its winner survive SIGKILL: after the restart the open offer is still claimable, the claimed one still 409', async () => {
  const servers = restartableServer('broadcast-restart', { SIM_TIME_SCALE: '1' });
  const open = async (url: string) => ({ sales: await connectEvents(url, 'sales-1'), support: await connectEvents(url, 'support') });
  try {
    let server = await servers.start();
    let logs = await open(server.url);
    const place = async (id: string) => {
      const r = await server.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/bob', extension: 'broadcast', channelId: id }, json: { variables: { STASIS_APP: 'support', BCAST_TIMEOUT: WIDE, BCAST_FILTER: '^sales-1$', BCAST_ARGS: 'kept' } } });
      assert.is(r.status, 200, r.text);
      await logs.sales.waitFor(about('CallBroadcast', id));
    };
    await place('bc-open');
    await place('bc-taken');
    const taken = await server.http('POST', '/ari/events/claim', { query: { channelId: 'bc-taken', application: 'sales-1' } });
    assert.is(taken.status, 204);
    await logs.sales.waitFor(about('StasisStart', 'bc-taken'));
    await servers.kill();
    for (const log of Object.values(logs)) await log.close();

    server = await servers.start();
    logs = await open(server.url);
    const again = await server.http('POST', '/ari/events/claim', { query: { channelId: 'bc-taken', application: 'sales-1' } });
    assert.equal({ status: again.status, body: again.body }, TAKEN);
    const late = await server.http('POST', '/ari/events/claim', { query: { channelId: 'bc-open', application: 'sales-1' } });
    assert.equal({ status: late.status, body: late.body }, { status: 204, body: undefined });
    assert.equal((await logs.sales.waitFor(about('StasisStart', 'bc-open'))).args, ['kept']);
    for (const log of Object.values(logs)) await log.close();
    server.assertNoViolations();
  } finally {
    await servers.cleanup();
  }
});

test.run();
