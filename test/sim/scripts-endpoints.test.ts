import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectEvents, type AriEvent, type EventLog } from '../_helpers/events.js';
import { startTestServer, type TestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';
import { tempDir } from '../_helpers/temp-dir.js';
import { advance, clockNow as now, instant } from '../_helpers/virtual-clock.js';

// Scripts for the calls we place to an endpoint (PUT/GET/DELETE /sim/endpoints/{tech}/{resource}/script,
// and a default script in endpoints.json), under the virtual clock.
const test = suite('endpoint scripts');
const VIRTUAL = { SIM_CLOCK: 'virtual' };
const ctx = useServer(test, { env: VIRTUAL, events: { ev: 'out' } });


/** `Type[:detail]@offset-from-t0` for each event about a channel. */
function timeline(log: EventLog, id: string, t0: number): string[] {
  return log.of(id).map((e: AriEvent) => {
    const what = e.type === 'ChannelDtmfReceived' ? `:${e.digit}` : e.type === 'Dial' ? `:${e.dialstatus}` : e.type === 'ChannelStateChange' ? `:${e.channel!.state}` : e.type === 'ChannelDestroyed' ? `:${e.cause}` : '';
    return `${e.type}${what}@${instant(e.timestamp) - t0}`;
  });
}

/** Originates to an endpoint into app `out` (30 s dial timeout). */
async function originate(t: TestServer, endpoint: string, id: string, app = 'out'): Promise<void> {
  const r = await t.http('POST', '/ari/channels', { query: { endpoint, app, channelId: id } });
  assert.is(r.status, 200, r.text);
}

const SCRIPT = [{ wait_ms: 2500 }, { answer: true }, { dtmf: '5' }, { hangup: 16 }];
/** What a call following SCRIPT to PJSIP/manual (ringing after 100 ms) looks like from the app. */
const SCRIPTED = [
  'Dial:@0', 'ChannelStateChange:Ringing@100', 'Dial:RINGING@100', 'ChannelStateChange:Up@2500', 'Dial:ANSWER@2500', 'ChannelDialplan@2500', 'StasisStart@2500',
  'ChannelDtmfReceived:5@2600', 'ChannelHangupRequest@2600', 'StasisEnd@2600', 'ChannelDestroyed:16@2600',
];

test('PUT a script for the next two calls: both follow it, the third follows the fixture again', async () => {
  const { t, ev } = ctx;
  const put = await t.http('PUT', '/sim/endpoints/PJSIP/manual/script', { json: { script: SCRIPT, calls: 2 } });
  assert.is(put.status, 200, put.text);
  assert.equal(put.body, { script: SCRIPT, calls: 2, source: 'api' });
  assert.equal((await t.http('GET', '/sim/endpoints/PJSIP/manual/script')).body, { script: SCRIPT, calls: 2, source: 'api' });
  assert.equal((await t.http('GET', '/sim/endpoints/pjsip/MANUAL')).body.script, { script: SCRIPT, calls: 2, source: 'api' });

  for (const [i, left] of [[1, 1], [2, 0]] as const) {
    const t0 = await now(t);
    await originate(t, 'PJSIP/manual', `scripted-${i}`);
    await advance(t, { until: 'idle' });
    await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === `scripted-${i}`);
    assert.equal(timeline(ev, `scripted-${i}`, t0), SCRIPTED);
    const get = await t.http('GET', '/sim/endpoints/PJSIP/manual/script');
    if (left) assert.equal(get.body, { script: SCRIPT, calls: left, source: 'api' });
    else assert.equal([get.status, get.body], [404, { message: 'Endpoint has no script' }]);
  }

  // The third call: PJSIP/manual rings until told, so only the dial timeout ends it.
  const t0 = await now(t);
  await originate(t, 'PJSIP/manual', 'fixture-3');
  await advance(t, { ms: '5000' });
  const sim = await t.http('GET', '/sim/channels/fixture-3');
  assert.is(sim.body.channel.state, 'Ringing');
  assert.is(sim.body.script, undefined);
  await advance(t, { until: 'idle' });
  await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'fixture-3');
  assert.equal(timeline(ev, 'fixture-3', t0), ['Dial:@0', 'ChannelStateChange:Ringing@100', 'Dial:RINGING@100', 'Dial:NOANSWER@30000', 'ChannelDestroyed:19@30000']);
});

test('without calls the script stays until DELETE, which brings the fixture back; unknown endpoints are 404', async () => {
  const { t, ev } = ctx;
  assert.equal((await t.http('PUT', '/sim/endpoints/PJSIP/manual/script', { json: { script: SCRIPT } })).body, { script: SCRIPT, source: 'api' });
  for (const id of ['every-1', 'every-2', 'every-3']) {
    const t0 = await now(t);
    await originate(t, 'PJSIP/manual', id);
    await advance(t, { until: 'idle' });
    await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
    assert.equal(timeline(ev, id, t0), SCRIPTED);
  }
  assert.equal((await t.http('GET', '/sim/endpoints/PJSIP/manual/script')).body, { script: SCRIPT, source: 'api' });
  assert.is((await t.http('DELETE', '/sim/endpoints/PJSIP/manual/script')).status, 204);
  assert.is((await t.http('GET', '/sim/endpoints/PJSIP/manual/script')).status, 404);
  // Deleting again is fine; an unknown endpoint is not.
  assert.is((await t.http('DELETE', '/sim/endpoints/PJSIP/manual/script')).status, 204);
  for (const method of ['GET', 'DELETE'] as const) {
    const r = await t.http(method, '/sim/endpoints/PJSIP/nobody/script');
    assert.equal([r.status, r.body], [404, { message: 'Endpoint not found' }]);
  }
  await originate(t, 'PJSIP/manual', 'after-delete');
  await advance(t, { ms: '5000' });
  assert.is((await t.http('GET', '/sim/channels/after-delete')).body.channel.state, 'Ringing');
  assert.is((await t.http('DELETE', '/ari/channels/after-delete')).status, 204);
  await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'after-delete');
});

test('reject with a cause: the originate fails with that cause (Dial BUSY, cause 17; Dial CONGESTION, cause 34)', async () => {
  const { t, ev } = ctx;
  for (const [cause, status] of [[17, 'BUSY'], [34, 'CONGESTION']] as const) {
    assert.is((await t.http('PUT', '/sim/endpoints/PJSIP/alice/script', { json: { script: [{ wait_ms: 300 }, { reject: cause }], calls: 1 } })).status, 200);
    const id = `refused-${cause}`;
    const t0 = await now(t);
    await originate(t, 'PJSIP/alice', id);
    await advance(t, { until: 'idle' });
    const destroyed = await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
    assert.equal(timeline(ev, id, t0), ['Dial:@0', 'ChannelStateChange:Ringing@100', 'Dial:RINGING@100', `Dial:${status}@300`, `ChannelDestroyed:${cause}@300`]);
    assert.is(destroyed.tech_cause, cause === 17 ? 486 : 503);
  }
  // The fixture's own answer timing is back: alice answers after 1 s.
  const t0 = await now(t);
  await originate(t, 'PJSIP/alice', 'alice-again');
  await advance(t, { ms: '1000' });
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'alice-again');
  assert.is(instant(ev.of('alice-again').at(-1)!.timestamp) - t0, 1000);
  assert.is((await t.http('DELETE', '/ari/channels/alice-again')).status, 204);
  await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'alice-again');
});

test('create + dial follows the script too, and a script that ends without answering leaves the call ringing until the dial timeout', async () => {
  const { t, ev } = ctx;
  assert.is((await t.http('PUT', '/sim/endpoints/PJSIP/bob/script', { json: { script: [{ wait_ms: 500 }], calls: 1 } })).status, 200);
  const t0 = await now(t);
  const r = await t.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/bob', app: 'out', channelId: 'created' } });
  assert.is(r.status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'created');
  assert.is((await t.http('POST', '/ari/channels/created/dial', { query: { timeout: '10' } })).status, 204);
  await advance(t, { ms: '600' });
  assert.equal((await t.http('GET', '/sim/channels/created')).body.script, { steps: [{ wait_ms: 500 }], position: 1, state: 'done' });
  await advance(t, { until: 'idle' });
  await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'created');
  assert.equal(timeline(ev, 'created', t0), [
    'ChannelDialplan@0', 'StasisStart@0', 'Dial:@0', 'ChannelStateChange:Ringing@100', 'Dial:RINGING@100', 'Dial:NOANSWER@10000', 'ChannelHangupRequest@10000', 'StasisEnd@10000', 'ChannelDestroyed:19@10000',
  ]);
});

test('a default script in endpoints.json: calls follow it, a PUT script wins over it, DELETE goes back to it; a bad one stops the start', async () => {
  const fixtures = tempDir('script-fixtures');
  cpSync(join(import.meta.dirname, '..', '..', 'fixtures'), fixtures, { recursive: true });
  const file = join(fixtures, 'ari', 'endpoints.json');
  const eps = JSON.parse(readFileSync(file, 'utf8'));
  const fallback = [{ wait_ms: 700 }, { answer: true }, { wait_ms: 1000 }, { hangup: 16 }];
  eps.endpoints['PJSIP/manual'].script = fallback;
  writeFileSync(file, JSON.stringify(eps));
  const s = await startTestServer({ ...VIRTUAL, FIXTURES_DIR: fixtures });
  const ev = await connectEvents(s.url, 'out');
  try {
    assert.equal((await s.http('GET', '/sim/endpoints/PJSIP/manual/script')).body, { script: fallback, source: 'fixture' });
    const call = async (id: string) => {
      const t0 = await now(s);
      await originate(s, 'PJSIP/manual', id);
      await advance(s, { until: 'idle' });
      await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === id);
      return timeline(ev, id, t0).filter((l) => l.startsWith('Channel') || l.startsWith('Dial'));
    };
    const byFixture = ['Dial:@0', 'ChannelStateChange:Ringing@100', 'Dial:RINGING@100', 'ChannelStateChange:Up@700', 'Dial:ANSWER@700', 'ChannelDialplan@700', 'ChannelHangupRequest@1700', 'ChannelDestroyed:16@1700'];
    assert.equal(await call('default-1'), byFixture);
    assert.is((await s.http('PUT', '/sim/endpoints/PJSIP/manual/script', { json: { script: [{ reject: 17 }], calls: 1 } })).status, 200);
    assert.equal(await call('put-wins'), ['Dial:@0', 'Dial:BUSY@0', 'ChannelDestroyed:17@0']);
    assert.equal(await call('default-2'), byFixture);
    assert.is((await s.http('PUT', '/sim/endpoints/PJSIP/manual/script', { json: { script: [{ reject: 17 }] } })).status, 200);
    assert.is((await s.http('DELETE', '/sim/endpoints/PJSIP/manual/script')).status, 204);
    assert.equal(await call('default-3'), byFixture);
    s.assertNoViolations();
  } finally {
    await ev.close();
    await s.close();
  }

  eps.endpoints['PJSIP/manual'].script = [{ wait_ms: 1 }, { wait_heard: 'sound:no-such-prompt' }];
  writeFileSync(file, JSON.stringify(eps));
  try {
    await startTestServer({ FIXTURES_DIR: fixtures }).then(async (started) => {
      await started.close();
      assert.unreachable('the server started with a bad script');
    });
  } catch (err) {
    assert.is((err as Error).message, `fixture ${file}: PJSIP/manual: script step 1: unknown sound 'no-such-prompt'`);
  } finally {
    rmSync(fixtures, { recursive: true, force: true });
  }
});

test.run();
