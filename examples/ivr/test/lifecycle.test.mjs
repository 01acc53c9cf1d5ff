import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTrunkline } from 'trunkline';
import { startIvrApp } from '../support/start-app.mjs';
import { advanceUntil, ariGet, MS, untilEnded, untilHeard, untilHeardKind, waitFor } from '../support/drive.mjs';

// The process around the calls: SIGTERM in the middle of a bridged call and of a menu, and a
// bad configuration, which stops the app before it connects.
let pbx;

before(async () => {
  pbx = await startTrunkline();
});

after(async () => {
  await pbx?.close();
});

test('SIGTERM hangs up the calls in progress, removes their bridge, and exits 0', async () => {
  const ivr = await startIvrApp(pbx);
  const bridged = await pbx.sim.call({ endpoint: 'PJSIP/alice', extension: '1000', app: 'ivr' });
  await untilHeard(bridged, 'sound:welcome');
  await bridged.dtmf('2');
  await pbx.clock.advance(MS.digit);
  await untilHeardKind(bridged, 'moh');
  await advanceUntil(pbx, 999, async () => (await ariGet(pbx, '/bridges')).some((b) => b.channels.length === 2), 'the bridge');
  const waiting = await pbx.sim.call({ endpoint: 'PJSIP/bob', extension: '1000', app: 'ivr' });
  await untilHeard(waiting, 'sound:welcome');

  assert.deepEqual(await ivr.stop(), { code: 0, signal: null });
  assert.equal(ivr.errors(), '');
  assert.match(ivr.output(), /^ivr: SIGTERM: hanging up 2 call\(s\)$/m);
  await untilEnded(pbx, bridged);
  await untilEnded(pbx, waiting);
  await waitFor(async () => (await ariGet(pbx, '/channels')).length === 0, 'every channel to end');
  assert.deepEqual(await ariGet(pbx, '/bridges'), []);
  assert.equal((await pbx.sim.history({ limit: 1 }))[0].cause, 16);
});

test('a bad setting stops the app at start with a message naming it, exit 2', () => {
  const app = fileURLToPath(new URL('../app.mjs', import.meta.url));
  const env = { PATH: process.env.PATH, ARI_URL: pbx.url, ARI_USERNAME: pbx.ari.username, ARI_PASSWORD: pbx.ari.password, ARI_APP: 'ivr' };
  const run = (extra) => spawnSync(process.execPath, [app], { env: { ...env, ...extra }, encoding: 'utf8' });
  const noApp = run({ ARI_APP: '' });
  assert.equal(noApp.status, 2);
  assert.equal(noApp.stderr, 'ivr: ARI_APP is not set\n');
  const badTimeout = run({ IVR_MENU_TIMEOUT_SECONDS: '5s' });
  assert.equal(badTimeout.status, 2);
  assert.equal(badTimeout.stderr, "ivr: IVR_MENU_TIMEOUT_SECONDS must be a whole number from 1 to 600 (got '5s')\n");
  const unreachable = run({ ARI_URL: 'http://127.0.0.1:1' });
  assert.equal(unreachable.status, 1);
  assert.match(unreachable.stderr, /^ivr: cannot connect to http:\/\/127\.0\.0\.1:1: /);
});
