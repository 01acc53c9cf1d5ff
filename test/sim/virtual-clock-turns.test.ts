import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useServer } from '../_helpers/suite.js';

// A long advance of the virtual clock runs in turns: other clients' requests are answered while
// it is under way (they see the clock part of the way there), and what they change takes effect
// at the instant the clock has reached. No timing is assumed: a recording without a length keeps
// one media frame due every 20 ms for the whole simulated day, so the advance cannot be over
// before the requests below are answered, and stopping the recording mid-way is what lets it end.
const test = suite('virtual clock: a long advance lets other clients in');
const ctx = useServer(test, { env: { SIM_CLOCK: 'virtual' } });

const DAY = 86_400_000;
const instant = (ts: string) => Date.parse(ts.replace(/\+0000$/, 'Z'));
const clockNow = async () => instant((await ctx.t.http('GET', '/sim/clock')).body.now as string);

test('requests are answered mid-advance, and a stop sent then ends the recording at the instant reached', async () => {
  const r = await ctx.t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'app1' } });
  assert.is(r.status, 200);
  const id = r.body.id as string;
  await ctx.ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
  const rec = await ctx.t.http('POST', `/ari/channels/${id}/record`, { query: { name: 'turns', format: 'wav', maxDurationSeconds: '0' } });
  assert.is(rec.status, 201);
  const started = await ctx.ev.waitFor((e) => e.type === 'RecordingStarted' && e.recording.name === 'turns');
  const t0 = await clockNow();
  assert.is(instant(started.timestamp), t0);

  const advancing = ctx.t.http('POST', '/sim/clock/advance', { query: { ms: String(DAY) } });
  // The clock is seen moving: these answers come while the advance is running.
  let seen = t0;
  while (seen === t0) seen = await clockNow();
  assert.ok(seen > t0 && seen < t0 + DAY, `clock seen at ${seen - t0} ms into a ${DAY} ms advance`);
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).status, 200);

  const stop = await ctx.t.http('POST', '/ari/recordings/live/turns/stop');
  assert.is(stop.status, 204);
  const finished = await ctx.ev.waitFor((e) => e.type === 'RecordingFinished' && e.recording.name === 'turns');
  const at = instant(finished.timestamp);
  assert.ok(at >= seen && at < t0 + DAY, `stopped ${at - t0} ms in`);
  assert.is(finished.recording.duration, Math.floor((at - t0) / 1000));

  const done = await advancing;
  assert.is(done.status, 200);
  assert.is(instant(done.body.now), t0 + DAY);
  assert.is((await ctx.t.http('GET', '/ari/recordings/stored/turns')).status, 200);
  assert.is((await ctx.t.http('DELETE', `/ari/channels/${id}`)).status, 204);
});

test.run();
