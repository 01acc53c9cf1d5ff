import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startIvrApp } from '../support/start-app.mjs';
import { useIvr } from '../support/use-ivr.mjs';
import { advanceUntil, ariGet, MS, playOut, untimed, untilEnded, untilHeard, untilHeardKind, waitFor } from '../support/drive.mjs';

// Menu choice 2: music on hold while the agent (PJSIP/bob, which answers 1 s after it is
// dialled) rings, then caller and agent in one mixing bridge; whoever hangs up first ends both.
const ctx = useIvr();

/** Greeting, menu, digit 2: resolves once the caller hears music on hold and the agent is being called. */
async function toHold(pbx) {
  const call = await pbx.sim.call({ endpoint: 'PJSIP/alice', extension: '1000', app: 'ivr' });
  await untilHeard(call, 'sound:welcome');
  await playOut(pbx, call, 'sound:welcome', MS.welcome);
  await untilHeard(call, 'sound:press-1');
  await call.dtmf('2');
  await pbx.clock.advance(MS.digit);
  await untilHeardKind(call, 'moh');
  const agent = `${call.id}-agent`;
  await waitFor(async () => (await ariGet(pbx, '/channels')).some((c) => c.id === agent), 'the agent to be called');
  return { call, agent };
}

/** Lets the agent answer and waits until both are in the bridge. */
async function toBridge(pbx, call, agent) {
  const bridgeId = `${call.id}-bridge`;
  await advanceUntil(pbx, 999, async () => (await ariGet(pbx, `/channels/${agent}`)).state === 'Up', 'agent answer');
  const bridge = await waitFor(async () => (await ariGet(pbx, '/bridges')).find((b) => b.id === bridgeId && b.channels.length === 2), 'the bridge with both');
  return bridge;
}

test('2: music on hold while the agent rings, then one mixing bridge; the agent hanging up ends the call', async () => {
  const { pbx } = ctx;
  const { call, agent } = await toHold(pbx);
  const bridge = await toBridge(pbx, call, agent);
  assert.equal(bridge.bridge_type, 'mixing');
  assert.deepEqual([...bridge.channels].sort(), [call.id, agent].sort());
  await untilHeardKind(call, 'bridge');
  await pbx.clock.advance(5000);
  await pbx.sim.hangup({ channelId: agent });
  const ended = await untilEnded(pbx, call);

  assert.deepEqual((await call.heard()).map(untimed), [
    { kind: 'playback', media: 'sound:welcome', lang: 'en', duration_ms: 1301, completed: true },
    { kind: 'playback', media: 'sound:press-1', lang: 'en', completed: false },
    { kind: 'moh', class: 'default', duration_ms: 1000 },
    { kind: 'bridge', peers: [agent], duration_ms: 5000 },
    { kind: 'bridge', peers: [], duration_ms: 0 }, // alone in the bridge until the app hangs it up
  ]);
  assert.equal(ended.cause, 16);
  assert.deepEqual(await ariGet(pbx, '/bridges'), []);
  assert.deepEqual(await ariGet(pbx, '/channels'), []);
});

test('2: the caller hanging up in the bridge hangs up the agent and removes the bridge', async () => {
  const { pbx } = ctx;
  const { call, agent } = await toHold(pbx);
  await toBridge(pbx, call, agent);
  await untilHeardKind(call, 'bridge');
  await call.hangup();
  await untilEnded(pbx, call);
  await waitFor(async () => (await ariGet(pbx, '/channels')).length === 0 && (await ariGet(pbx, '/bridges')).length === 0, 'no channel and no bridge left');
  const [agentRecord] = await pbx.sim.history({ limit: 1 });
  assert.equal(agentRecord.id, agent);
});

test('2: the caller hanging up while the agent rings: the agent is hung up, no bridge is made', async () => {
  const { pbx } = ctx;
  const { call, agent } = await toHold(pbx);
  await call.hangup();
  await untilEnded(pbx, call);
  await waitFor(async () => (await pbx.sim.history({ limit: 5 })).some((c) => c.id === agent), 'the agent channel to end');
  await pbx.clock.advance(2000); // past the moment it would have answered
  assert.deepEqual(await ariGet(pbx, '/bridges'), []);
  assert.deepEqual(await ariGet(pbx, '/channels'), []);
  assert.deepEqual((await call.heard()).map((i) => i.kind), ['playback', 'playback', 'moh']);
});

test('2: an agent who is busy: the music stops, goodbye, hangup (a second app instance, IVR_AGENT_ENDPOINT=PJSIP/busy)', async () => {
  const { pbx } = ctx;
  const busy = await startIvrApp(pbx, { app: 'ivr-busy', env: { IVR_AGENT_ENDPOINT: 'PJSIP/busy' } });
  try {
    const call = await pbx.sim.call({ endpoint: 'PJSIP/alice', extension: '1000', app: 'ivr-busy' });
    await untilHeard(call, 'sound:welcome');
    await call.dtmf('2');
    await pbx.clock.advance(MS.digit);
    await untilHeardKind(call, 'moh');
    const agent = `${call.id}-agent`;
    await advanceUntil(pbx, 299, async () => (await pbx.sim.history({ limit: 5 })).some((c) => c.id === agent), 'the busy agent');
    await untilHeard(call, 'sound:goodbye');
    await playOut(pbx, call, 'sound:goodbye', MS.goodbye);
    await untilEnded(pbx, call);
    assert.deepEqual((await call.heard()).map(untimed), [
      { kind: 'playback', media: 'sound:welcome', lang: 'en', completed: false },
      { kind: 'moh', class: 'default', duration_ms: 300 },
      { kind: 'playback', media: 'sound:goodbye', lang: 'en', duration_ms: 589, completed: true },
    ]);
    assert.deepEqual(await ariGet(pbx, '/channels'), []);
  } finally {
    assert.deepEqual(await busy.stop(), { code: 0, signal: null });
  }
  assert.equal(busy.errors(), '');
});
