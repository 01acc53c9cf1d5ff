// The package under vitest: npx vitest run --dir examples/runners/vitest
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTrunkline } from 'trunkline';

let pbx;

beforeAll(async () => {
  pbx = await startTrunkline(); // virtual clock: time moves only when the test advances it
}, 60_000);

afterAll(async () => {
  await pbx?.close();
});

test('extension 2000 answers, plays hello-world to the caller, waits a second and hangs up', async () => {
  const call = await pbx.sim.call({ endpoint: 'PJSIP/alice', extension: '2000' });
  await pbx.clock.advance(3000);
  expect(await call.heard()).toEqual([
    { at: '2025-01-01T00:00:00.000+0000', kind: 'playback', media: 'sound:hello-world', lang: 'en', duration_ms: 797, completed: true },
  ]);
  const [ended] = await pbx.sim.history({ limit: 1 });
  expect([ended.id, ended.endtime]).toEqual([call.id, '2025-01-01T00:00:01.797+0000']);
}, 60_000);
