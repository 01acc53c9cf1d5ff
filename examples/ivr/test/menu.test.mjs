import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useIvr } from '../support/use-ivr.mjs';
import { ariGet, MS, playOut, untimed, untilEnded, untilHeard } from '../support/drive.mjs';

// The greeting and the menu: timeouts, invalid choices, and the goodbye after three failed tries.
// Each step waits for the app's reaction before it moves the clock on, so every instant is exact.
const ctx = useIvr();

const WAIT = 'tone:!0/5000';
const INVALID = 'tone:!480+620/500';

test('greeting, menu, and the menu again after 5 s of silence; the third silence says goodbye and hangs up', async () => {
  const { pbx } = ctx;
  const call = await pbx.sim.call({ endpoint: 'PJSIP/alice', extension: '1000', app: 'ivr' });
  await untilHeard(call, 'sound:welcome');
  await playOut(pbx, call, 'sound:welcome', MS.welcome);
  for (let i = 0; i < 3; i++) {
    await untilHeard(call, 'sound:press-1');
    await playOut(pbx, call, 'sound:press-1', MS.menu);
    await playOut(pbx, call, WAIT, MS.menuWait);
  }
  await untilHeard(call, 'sound:goodbye');
  await playOut(pbx, call, 'sound:goodbye', MS.goodbye);
  const ended = await untilEnded(pbx, call);

  assert.deepEqual(await call.heard(), [
    { at: '2025-01-01T00:00:00.000+0000', kind: 'playback', media: 'sound:welcome', lang: 'en', duration_ms: 1301, completed: true },
    { at: '2025-01-01T00:00:01.301+0000', kind: 'playback', media: 'sound:press-1', lang: 'en', duration_ms: 1280, completed: true },
    { at: '2025-01-01T00:00:02.581+0000', kind: 'tone', media: WAIT, duration_ms: 5000, completed: true },
    { at: '2025-01-01T00:00:07.582+0000', kind: 'playback', media: 'sound:press-1', lang: 'en', duration_ms: 1280, completed: true },
    { at: '2025-01-01T00:00:08.862+0000', kind: 'tone', media: WAIT, duration_ms: 5000, completed: true },
    { at: '2025-01-01T00:00:13.863+0000', kind: 'playback', media: 'sound:press-1', lang: 'en', duration_ms: 1280, completed: true },
    { at: '2025-01-01T00:00:15.143+0000', kind: 'tone', media: WAIT, duration_ms: 5000, completed: true },
    { at: '2025-01-01T00:00:20.144+0000', kind: 'playback', media: 'sound:goodbye', lang: 'en', duration_ms: 589, completed: true },
  ]);
  assert.equal(ended.cause, 16);
  assert.deepEqual(await ariGet(pbx, '/channels'), []);
});

test('an invalid digit cuts the menu short, plays the invalid tone and the menu again; the third wrong choice says goodbye', async () => {
  const { pbx } = ctx;
  const call = await pbx.sim.call({ endpoint: 'PJSIP/alice', extension: '1000', app: 'ivr' });
  await untilHeard(call, 'sound:welcome');
  await playOut(pbx, call, 'sound:welcome', MS.welcome);
  for (const digit of ['9', '*']) {
    await untilHeard(call, 'sound:press-1');
    await call.dtmf(digit); // pressed as the menu starts; the app hears it when it ends, 100 ms on
    await pbx.clock.advance(MS.digit);
    await untilHeard(call, INVALID);
    await playOut(pbx, call, INVALID, MS.invalid);
  }
  await untilHeard(call, 'sound:press-1');
  await playOut(pbx, call, 'sound:press-1', MS.menu);
  await call.dtmf('0'); // in the silence after the menu
  await pbx.clock.advance(MS.digit);
  await untilHeard(call, INVALID);
  await playOut(pbx, call, INVALID, MS.invalid);
  await untilHeard(call, 'sound:goodbye');
  await playOut(pbx, call, 'sound:goodbye', MS.goodbye);
  await untilEnded(pbx, call);

  const menuCut = { kind: 'playback', media: 'sound:press-1', lang: 'en', completed: false };
  const invalid = { kind: 'tone', media: INVALID, duration_ms: 500, completed: true };
  assert.deepEqual((await call.heard()).map(untimed), [
    { kind: 'playback', media: 'sound:welcome', lang: 'en', duration_ms: 1301, completed: true },
    menuCut,
    invalid,
    menuCut,
    invalid,
    { kind: 'playback', media: 'sound:press-1', lang: 'en', duration_ms: 1280, completed: true },
    { kind: 'tone', media: WAIT, completed: false },
    invalid,
    { kind: 'playback', media: 'sound:goodbye', lang: 'en', duration_ms: 589, completed: true },
  ]);
  assert.deepEqual(await ariGet(pbx, '/channels'), []);
});

test('a digit during the greeting interrupts it and counts; a hangup at the menu leaves nothing behind', async () => {
  const { pbx } = ctx;
  const call = await pbx.sim.call({ endpoint: 'PJSIP/alice', extension: '1000', app: 'ivr' });
  await untilHeard(call, 'sound:welcome');
  await pbx.clock.advance(500);
  await call.dtmf('5');
  await pbx.clock.advance(MS.digit);
  await untilHeard(call, INVALID);
  await playOut(pbx, call, INVALID, MS.invalid);
  await untilHeard(call, 'sound:press-1');
  await call.hangup();
  await untilEnded(pbx, call);
  assert.deepEqual((await call.heard()).map(untimed), [
    { kind: 'playback', media: 'sound:welcome', lang: 'en', completed: false },
    { kind: 'tone', media: INVALID, duration_ms: 500, completed: true },
    { kind: 'playback', media: 'sound:press-1', lang: 'en', completed: false },
  ]);
  assert.deepEqual(await ariGet(pbx, '/channels'), []);
});
