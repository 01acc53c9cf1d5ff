import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp, createInApp, eventSequence, hangupAndWait } from '../_helpers/ari.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('channel-progress');
const ctx = useServer(test);

const post = (id: string, op: string, query?: Record<string, string | undefined>) =>
  ctx.t.http('POST', `/ari/channels/${encodeURIComponent(id)}/${op}`, query ? { query } : {});
const farEnd = async (id: string) => {
  const r = await ctx.t.http('GET', `/sim/channels/${encodeURIComponent(id)}`);
  assert.is(r.status, 200, r.text);
  return r.body.far_end;
};

/** An outgoing channel that rings and never answers: it exists but is in no application yet. */
async function ringingNotInApp(id: string): Promise<void> {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/noanswer', app: 'app1', channelId: id, timeout: -1 } });
  assert.is(r.status, 200, r.text);
  await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === id && e.dialstatus === 'RINGING');
}

/** The guards every channel operation shares: 404 for an unknown channel, 409 for one ringing outside any application. */
async function refusesUnknownAndNotInApp(op: string, query?: Record<string, string>): Promise<void> {
  const r404 = await post('no-such-channel', op, query);
  assert.is(r404.status, 404);
  assert.equal(r404.body, { message: 'Channel not found' });
  await ringingNotInApp(`${op}-ringing`);
  const r409 = await post(`${op}-ringing`, op, query);
  assert.is(r409.status, 409);
  assert.equal(r409.body, { message: 'Channel not in Stasis application' });
  await hangupAndWait(ctx.t, ctx.ev, `${op}-ringing`);
}

test('progress: unknown channel 404, not in an application 409, Down channel 412', async () => {
  await refusesUnknownAndNotInApp('progress');

  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'pr-down' });
  const r412 = await post(id, 'progress');
  assert.is(r412.status, 412);
  assert.equal(r412.body, { message: 'Channel in invalid state' });
  assert.is((await farEnd(id)).progress, false);
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('progress on a ringing inbound call: 204, the far end perceives early media, no event on the channel', async () => {
  const { id } = await callInApp(ctx.t, ctx.ev, { id: 'pr-in', app: 'app1', extension: '1001' });
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).body.state, 'Ring');
  assert.is((await farEnd(id)).progress, false);
  const before = ctx.ev.of(id).length;
  const r = await post(id, 'progress');
  assert.is(r.status, 204);
  assert.is(r.text, '');
  assert.is((await farEnd(id)).progress, true);
  // Progress is no answer: the channel is still ringing.
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).body.state, 'Ring');
  // A dialplan channel's application hears of it until StasisEnd (no ChannelDestroyed).
  await ctx.t.http('DELETE', `/ari/channels/${id}`);
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === id);
  assert.equal(eventSequence(ctx.ev, id).slice(before), ['ChannelHangupRequest', 'StasisEnd']);
});

test('progress on the dialplan half of a Local pair: the half that placed the call reports Dial PROGRESS', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', {
    query: { endpoint: 'Local/1001@default', app: 'app1', channelId: 'pr-loc', timeout: -1 },
    json: { variables: { STASIS_APP: 'app1' } },
  });
  assert.is(r.status, 200, r.text);
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'pr-loc;2');
  const p = await post('pr-loc;2', 'progress');
  assert.is(p.status, 204);
  const dial = await ctx.ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'pr-loc' && e.dialstatus === 'PROGRESS');
  assert.is(dial.peer.state, 'Ringing');
  assert.equal(eventSequence(ctx.ev, 'pr-loc').filter((l) => l.startsWith('Dial:')), ['Dial:', 'Dial:RINGING', 'Dial:PROGRESS']);
  await hangupAndWait(ctx.t, ctx.ev, 'pr-loc');
});

test('transfer_progress: states missing or unknown is 400 after the channel guards; 404 and 409 as find_control', async () => {
  await refusesUnknownAndNotInApp('transfer_progress', { states: 'channel_answered' });

  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'tp-bad' });
  const missing = await post(id, 'transfer_progress');
  assert.is(missing.status, 400);
  assert.equal(missing.body, { message: 'states is required' });
  const bad = await post(id, 'transfer_progress', { states: 'channel_busy' });
  assert.is(bad.status, 400);
  assert.equal(bad.body, { message: 'Invalid states value \'channel_busy\'' });
  assert.equal((await farEnd(id)).transfer_notify, []);
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test('transfer_progress sends the far end a NOTIFY per state (100, 200, 503, 603), in any channel state, with no event', async () => {
  // A Down channel passes: transfer_progress has no state guard.
  const { id } = await createInApp(ctx.t, ctx.ev, { app: 'app1', id: 'tp-all' });
  const before = ctx.ev.of(id).length;
  for (const states of ['channel_progress', 'channel_answered', 'channel_unavailable', 'channel_declined']) {
    const r = await post(id, 'transfer_progress', { states });
    assert.is(r.status, 204, states);
    assert.is(r.text, '');
  }
  assert.equal((await farEnd(id)).transfer_notify, [100, 200, 503, 603]);
  // The JSON body works as the query does (ARI's parameter merging).
  const viaBody = await ctx.t.http('POST', `/ari/channels/${id}/transfer_progress`, { json: { states: 'channel_answered' } });
  assert.is(viaBody.status, 204);
  assert.equal((await farEnd(id)).transfer_notify, [100, 200, 503, 603, 200]);
  assert.is(ctx.ev.of(id).length, before);
  await hangupAndWait(ctx.t, ctx.ev, id);
});

test.run();
