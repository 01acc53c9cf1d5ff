import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectEvents, type AriEvent } from '../_helpers/events.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { advance, instant, stamp, VIRTUAL_START as START } from '../_helpers/virtual-clock.js';

// Far-end scripts across a restart (endpoint scripts are stored; a script under way resumes from
// its position), and the same scripted scenario twice giving byte-identical event streams.
const test = suite('far-end scripts: restart and determinism');
const VIRTUAL = { SIM_CLOCK: 'virtual' };


test('an endpoint script and a script under way both survive a restart', async () => {
  const dir = tempDir('script-restart');
  const script = [{ wait_ms: 2500 }, { answer: true }, { dtmf: '7' }, { wait_ms: 1000 }, { hangup: 16 }];
  let s = await startTestServer(VIRTUAL, dir);
  try {
    let ev = await connectEvents(s.url, 'keep');
    assert.is((await s.http('PUT', '/sim/endpoints/PJSIP/manual/script', { json: { script, calls: 2 } })).status, 200);
    assert.is((await s.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/manual', app: 'keep', channelId: 'before' } })).status, 200);
    assert.is(await advance(s, { ms: '1000' }), START + 1000);
    assert.equal((await s.http('GET', '/sim/channels/before')).body.script, { steps: script, position: 0, state: 'waiting', waiting_for: '2500 ms' });
    await ev.close();
    s.assertNoViolations();
    await s.close({ keepData: true });

    s = await startTestServer(VIRTUAL, dir);
    ev = await connectEvents(s.url, 'keep');
    // One of the two calls went to the channel that was under way.
    assert.equal((await s.http('GET', '/sim/endpoints/PJSIP/manual/script')).body, { script, calls: 1, source: 'api' });
    assert.equal((await s.http('GET', '/sim/channels/before')).body.script, { steps: script, position: 0, state: 'waiting', waiting_for: '2500 ms' });
    assert.is(await advance(s, { ms: '1500' }), START + 2500);
    await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'before');
    assert.equal((await s.http('GET', '/sim/channels/before')).body.script, { steps: script, position: 2, state: 'running' });
    await advance(s, { until: 'idle' });
    const destroyed = await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'before');
    assert.is(destroyed.timestamp, stamp(START + 3600));
    const digit = ev.events.find((e) => e.type === 'ChannelDtmfReceived')!;
    assert.equal([digit.digit, digit.timestamp], ['7', stamp(START + 2600)]);

    // The stored script's last call.
    assert.is((await s.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/manual', app: 'keep', channelId: 'after' } })).status, 200);
    await advance(s, { until: 'idle' });
    const after = await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'after');
    assert.is(after.cause, 16);
    assert.is((await s.http('GET', '/sim/endpoints/PJSIP/manual/script')).status, 404);
    await ev.close();
    s.assertNoViolations();
  } finally {
    await s.close();
  }
});

/** An IVR-like scripted scenario, inbound and outbound; returns the raw frames the app got. */
async function scenario(): Promise<string[]> {
  const t = await startTestServer(VIRTUAL);
  const ev = await connectEvents(t.url, 'same', { subscribeAll: true });
  const frames: string[] = [];
  ev.ws.on('message', (d) => frames.push(d.toString()));
  try {
    const script = [{ wait_heard: 'sound:welcome' }, { dtmf: '12' }, { wait_silence_ms: 700 }, { play: 'sound:hello-world' }, { dtmf: '#' }, { hangup: 16 }];
    const r = await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: 's' }, json: { variables: { STASIS_APP: 'same' }, script } });
    assert.is(r.status, 200);
    const id = r.body.id as string;
    await ev.waitFor((e: AriEvent) => e.type === 'StasisStart' && e.channel?.id === id);
    assert.is((await t.http('POST', `/ari/channels/${id}/play`, { query: { media: 'sound:welcome' } })).status, 201);
    assert.is((await t.http('PUT', '/sim/endpoints/PJSIP/bob/script', { json: { script: [{ wait_ms: 1200 }, { answer: true }, { dtmf: '3' }, { wait_silence_ms: 300 }, { hangup: 16 }] } })).status, 200);
    assert.is((await t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/bob', app: 'same' } })).status, 200);
    await advance(t, { until: 'idle' });
    await ev.waitFor((e: AriEvent) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
    await ev.waitForCount('ChannelDestroyed', 2);
    t.assertNoViolations();
    return frames;
  } finally {
    await ev.close();
    await t.close();
  }
}

test('the same scripted scenario on two fresh servers gives byte-identical event streams', async () => {
  const one = await scenario();
  const two = await scenario();
  const types = one.map((f) => (JSON.parse(f) as AriEvent).type);
  assert.is(types.filter((t) => t === 'ChannelDtmfReceived').length, 4);
  assert.is(two.length, one.length);
  for (let i = 0; i < one.length; i++) assert.is(two[i], one[i], `frame ${i}`);
});

test.run();
