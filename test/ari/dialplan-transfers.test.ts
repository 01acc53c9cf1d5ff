import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventLabel, eventSequence, hangupAndWait } from '../_helpers/ari.js';
import type { AriEvent } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

// Transfer() sends the channel's own far end elsewhere (a REFER once answered, a 302 before);
// BlindTransfer() moves whoever the channel is bridged with. The `transfers` context of the
// bundled dialplan runs them with the call's XFER_* variables.
const test = suite('dialplan-transfers');
const ctx = useServer(test, { events: { all: { apps: 'watch', subscribeAll: true } } });

const cfg = (id: string) => `/ari/asterisk/config/dynamic/res_pjsip/endpoint/${id}`;
const fields = (o: Record<string, string>) => ({ json: { fields: Object.entries(o).map(([attribute, value]) => ({ attribute, value })) } });
const farEnd = async (id: string) => (await ctx.t.http('GET', `/sim/channels/${encodeURIComponent(id)}`)).body.far_end;

/** Dialplan steps, variables and causes spelled out; other events by type. */
function label(e: AriEvent): string {
  switch (e.type) {
    case 'ChannelDialplan': return `Dialplan:${e.dialplan_app}(${e.dialplan_app_data})`;
    case 'ChannelVarset': return `Varset:${e.variable}=${e.value}`;
    case 'ChannelHangupRequest': return `HangupRequest:${e.cause}`;
    case 'ChannelDestroyed': return `Destroyed:${e.cause}`;
    default: return eventLabel(e);
  }
}

/** The channel's events from its Transfer()/BlindTransfer() priority on. */
function from(id: string, app: string): string[] {
  const seq = eventSequence(ctx.all, id, label);
  const i = seq.findIndex((l) => l.startsWith(`Dialplan:${app}(`));
  assert.ok(i >= 0, `${app} ran: ${seq.join(' ')}`);
  return seq.slice(i);
}

/** Originates to the `transfers` context (the endpoint answers, then runs the extension). */
async function originate(id: string, endpoint: string, exten: string, variables: Record<string, string>): Promise<void> {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint, extension: exten, context: 'transfers', channelId: id }, json: { variables } });
  assert.is(r.status, 200, r.text);
}

const varset = (id: string, name: string) => ctx.all.waitFor((e) => e.type === 'ChannelVarset' && e.channel?.id === id && e.variable === name);

test.before(async () => {
  // A far end that turns REFERs down with 603 Decline; it answers at once.
  const r = await ctx.t.http('PUT', cfg('refuser'), fields({ sim_refer_status: '603', sim_answer_after_ms: '0' }));
  assert.is(r.status, 200, r.text);
});

test('Transfer() on an answered PJSIP call: the far end is sent a REFER to the destination, accepts it; TRANSFERSTATUS=SUCCESS, TRANSFERSTATUSPROTOCOL=0, then the far end hangs up', async () => {
  await originate('tr-ok', 'PJSIP/instant', 'refer', { XFER_DEST: 'PJSIP/1000' });
  await ctx.all.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'tr-ok');
  assert.equal(from('tr-ok', 'Transfer'), [
    'Dialplan:Transfer(PJSIP/1000)',
    'Varset:TRANSFERSTATUS=SUCCESS', 'Varset:TRANSFERSTATUSPROTOCOL=0',
    'Dialplan:Set(AFTER_TRANSFER=SUCCESS:0)', 'Varset:AFTER_TRANSFER=SUCCESS:0',
    'Dialplan:Wait(600)',
    'HangupRequest:16', 'Destroyed:16',
  ]);
  const history = (await ctx.t.http('GET', '/sim/history')).body as Array<{ id: string; cause: number }>;
  assert.is(history.find((c) => c.id === 'tr-ok')!.cause, 16);
});

test('the far end knows where it was sent while the REFER is pending (redirected_to)', async () => {
  await originate('tr-pending', 'PJSIP/refuser', 'refer', { XFER_DEST: 'sip:desk@example.com' });
  await ctx.all.waitFor((e) => e.type === 'ChannelDialplan' && e.channel?.id === 'tr-pending' && e.dialplan_app === 'Transfer');
  assert.is((await farEnd('tr-pending')).redirected_to, 'sip:desk@example.com');
  await varset('tr-pending', 'AFTER_TRANSFER');
  await hangupAndWait(ctx.t, ctx.all, 'tr-pending');
});

test('Transfer() refused by the far end (603): TRANSFERSTATUS=FAILURE with the SIP status in TRANSFERSTATUSPROTOCOL; the call goes on', async () => {
  await originate('tr-603', 'PJSIP/refuser', 'refer', { XFER_DEST: '1000' });
  assert.is((await varset('tr-603', 'AFTER_TRANSFER')).value, 'FAILURE:603');
  await ctx.all.waitFor((e) => e.type === 'ChannelDialplan' && e.channel?.id === 'tr-603' && e.dialplan_app === 'Wait');
  assert.equal(from('tr-603', 'Transfer'), [
    'Dialplan:Transfer(1000)',
    'Varset:TRANSFERSTATUS=FAILURE', 'Varset:TRANSFERSTATUSPROTOCOL=603',
    'Dialplan:Set(AFTER_TRANSFER=FAILURE:603)', 'Varset:AFTER_TRANSFER=FAILURE:603',
    'Dialplan:Wait(600)',
  ]);
  assert.is((await ctx.t.http('GET', '/ari/channels/tr-603')).body.state, 'Up');
  assert.is((await farEnd('tr-603')).redirected_to, '1000');
  await hangupAndWait(ctx.t, ctx.all, 'tr-603');
});

test('Transfer() with another technology\'s prefix, or no destination: FAILURE at once, no TRANSFERSTATUSPROTOCOL, the far end is told nothing', async () => {
  for (const [id, dest] of [['tr-iax', 'IAX2/1000'], ['tr-empty', '']] as const) {
    await originate(id, 'PJSIP/instant', 'refer', { XFER_DEST: dest });
    assert.is((await varset(id, 'AFTER_TRANSFER')).value, 'FAILURE:', id);
    assert.equal(from(id, 'Transfer').slice(0, 3), [`Dialplan:Transfer(${dest})`, 'Varset:TRANSFERSTATUS=FAILURE', 'Dialplan:Set(AFTER_TRANSFER=FAILURE:)'], id);
    assert.is((await farEnd(id)).redirected_to, undefined, id);
    await hangupAndWait(ctx.t, ctx.all, id);
  }
});

test('Transfer() on a Local channel: UNSUPPORTED (the technology cannot transfer)', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'Local/refer@transfers', app: 'watch', channelId: 'tr-local' }, json: { variables: { XFER_DEST: '1000' } } });
  assert.is(r.status, 200, r.text);
  const two = await ctx.all.waitFor((e) => e.type === 'ChannelVarset' && e.variable === 'AFTER_TRANSFER' && e.channel?.name.endsWith(';2') === true);
  assert.is(two.value, 'UNSUPPORTED:');
  assert.equal(from(two.channel!.id, 'Transfer').slice(0, 2), ['Dialplan:Transfer(1000)', 'Varset:TRANSFERSTATUS=UNSUPPORTED']);
  await hangupAndWait(ctx.t, ctx.all, 'tr-local');
});

test('Transfer() before the inbound call is answered: a 302 to the destination, SUCCESS/0, and the call ends (cause 23)', async () => {
  const r = await ctx.t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: 'redirect', context: 'transfers', channelId: 'tr-302' } });
  assert.is(r.status, 200, r.text);
  await ctx.all.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'tr-302');
  assert.equal(from('tr-302', 'Transfer'), [
    'Dialplan:Transfer(PJSIP/sip:desk@example.com)',
    'Varset:TRANSFERSTATUS=SUCCESS', 'Varset:TRANSFERSTATUSPROTOCOL=0',
    'Dialplan:Wait(600)',
    'HangupRequest:23', 'Destroyed:23',
  ]);
  assert.not.ok(ctx.all.of('tr-302').some((e) => e.type === 'ChannelStateChange'), 'never answered');
});

test('BlindTransfer() on a channel in no bridge: BridgeBlindTransfer result Invalid (is_external), BLINDTRANSFERSTATUS=INVALID; the context defaults to the channel\'s', async () => {
  for (const [id, vars, context] of [['bt-1', { XFER_EXTEN: '1000', XFER_CONTEXT: 'default' }, 'default'], ['bt-2', { XFER_EXTEN: '2000' }, 'transfers']] as const) {
    await originate(id, 'PJSIP/instant', 'blind', vars);
    assert.is((await varset(id, 'AFTER_BLIND')).value, 'INVALID', id);
    const xfer = ctx.all.events.find((e) => e.type === 'BridgeBlindTransfer' && e.channel?.id === id)!;
    assert.ok(xfer, id);
    assert.is(xfer.application, 'watch');
    assert.is(xfer.result, 'Invalid');
    assert.is(xfer.is_external, true);
    assert.is(xfer.exten, vars.XFER_EXTEN);
    assert.is(xfer.context, context);
    for (const k of ['bridge', 'transferee', 'replace_channel']) assert.not.ok(k in xfer, k);
    assert.equal(from(id, 'BlindTransfer').slice(0, 3), [`Dialplan:BlindTransfer(${vars.XFER_EXTEN},${'XFER_CONTEXT' in vars ? vars.XFER_CONTEXT : ''})`, 'BridgeBlindTransfer', 'Varset:BLINDTRANSFERSTATUS=INVALID']);
    await hangupAndWait(ctx.t, ctx.all, id);
  }
});

test('BlindTransfer() without an extension: FAILURE, nothing announced', async () => {
  await originate('bt-none', 'PJSIP/instant', 'blind', {});
  assert.is((await varset('bt-none', 'AFTER_BLIND')).value, 'FAILURE');
  assert.not.ok(ctx.all.events.some((e) => e.type === 'BridgeBlindTransfer' && e.channel?.id === 'bt-none'));
  await hangupAndWait(ctx.t, ctx.all, 'bt-none');
});

test.run();
