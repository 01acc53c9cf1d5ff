import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { originateInApp } from '../_helpers/ari.js';
import { useServer } from '../_helpers/suite.js';
import { sleep } from '../_helpers/wait.js';

// Commands answered before they run (ring, hold, mute, music on hold, silence, DTMF, move, continue)
// wait their turn on the channel's control queue behind DTMF, playbacks and recordings.
const test = suite('ari: queued commands');
const ctx = useServer(test, { events: { ev: ['q1', 'q2'] } });

/** Holds the channel's queue with four 1 s digits (simulated). */
const busy = async (id: string) => {
  assert.is((await ctx.t.http('POST', `/ari/channels/${id}/dtmf`, { query: { dtmf: '1234', duration: 1000 } })).status, 204);
};

test('commands waiting behind DTMF run in order once the digits are sent', async () => {
  const { t, ev } = ctx;
  await originateInApp(t, ev, { app: 'q1', id: 'qa' });
  await busy('qa');
  for (const path of ['moh?mohClass=default', 'mute?direction=in', 'hold', 'move?app=q2&appArgs=later']) {
    assert.is((await t.http('POST', `/ari/channels/qa/${path}`)).status, 204, path);
  }
  // Nothing has run yet: the digits are still going out.
  const during = (await t.http('GET', '/sim/channels/qa')).body.far_end;
  assert.equal([during.hearing, during.muted_in, during.on_hold], ['nothing', false, false]);
  const moved = await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'qa' && e.application === 'q2');
  assert.equal(moved.args, ['later']);
  const after = (await t.http('GET', '/sim/channels/qa')).body.far_end;
  assert.equal(after.dtmf_received.map((d: { digit: string }) => d.digit).join(''), '1234');
  assert.equal([after.hearing, after.moh_class, after.muted_in, after.on_hold], ['moh', 'default', true, true]);
});

test('a hangup drops the commands still waiting, and the server carries on', async () => {
  const { t, ev } = ctx;
  await originateInApp(t, ev, { app: 'q1', id: 'qb' });
  await busy('qb');
  for (const path of ['hold', 'ring', 'silence', 'continue', 'move?app=q2']) {
    assert.is((await t.http('POST', `/ari/channels/qb/${path}`)).status, 204, path);
  }
  assert.is((await t.http('DELETE', '/ari/channels/qb')).status, 204);
  await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'qb');
  // Before, each dropped command was an unhandled promise rejection, which ended the process.
  await sleep(50);
  assert.is((await t.http('GET', '/ari/asterisk/ping')).status, 200);
  assert.equal(ev.of('qb').map((e) => e.type).filter((x) => x.startsWith('Stasis')), ['StasisStart', 'StasisEnd']);
});

test.run();
