import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useIvr } from '../support/use-ivr.mjs';
import { advanceUntil, ariGet, ariStatus, MS, playOut, untimed, untilEnded, untilHeard, waitFor } from '../support/drive.mjs';

// Menu choice 1: the record prompt and beep, the caller's message (ended by #, by silence, or by
// a hangup), the message played back, then goodbye. The caller follows a far-end script.
const ctx = useIvr();

/** Places a call whose caller presses 1 after the menu prompt, then does `then` once the beep has played. */
function callAndChoose1(pbx, channelId, then) {
  const script = [{ wait_heard: 'sound:press-1' }, { dtmf: '1' }, { wait_heard: 'sound:beep' }, ...then];
  return pbx.sim.call({ endpoint: 'PJSIP/alice', extension: '1000', app: 'ivr', channelId, script });
}

/** Drives the call through greeting, menu, digit 1, record prompt and beep; resolves once the app is recording. */
async function toRecording(pbx, call, name) {
  await untilHeard(call, 'sound:welcome');
  await playOut(pbx, call, 'sound:welcome', MS.welcome);
  await untilHeard(call, 'sound:press-1');
  await playOut(pbx, call, 'sound:press-1', MS.menu); // the script presses 1 as the prompt ends
  await pbx.clock.advance(MS.digit);
  await untilHeard(call, 'sound:vm-intro');
  await playOut(pbx, call, 'sound:vm-intro', MS.intro);
  await playOut(pbx, call, 'sound:beep', MS.beep);
  await waitFor(async () => (await ariStatus(pbx, `/recordings/live/${name}`)) === 200, `the recording ${name} to start`);
}

const START = [
  { kind: 'playback', media: 'sound:welcome', lang: 'en', duration_ms: 1301, completed: true },
  { kind: 'playback', media: 'sound:press-1', lang: 'en', duration_ms: 1280, completed: true },
  { kind: 'tone', media: 'tone:!0/5000', completed: false },
  { kind: 'playback', media: 'sound:vm-intro', lang: 'en', duration_ms: 2059, completed: true },
  { kind: 'playback', media: 'sound:beep', lang: 'en', duration_ms: 250, completed: true },
];

test('1: the caller speaks after the beep and presses #; the message is stored, played back, then goodbye and hangup', async () => {
  const { pbx } = ctx;
  const name = 'ivr-message-caller-1';
  const call = await callAndChoose1(pbx, 'caller-1', [{ play: 'sound:hello-world' }, { dtmf: '#' }]);
  await toRecording(pbx, call, name);
  // The caller talks (797 ms), then presses # (100 ms): the recording ends as the digit does.
  await advanceUntil(pbx, 897, async () => (await ariStatus(pbx, `/recordings/live/${name}`)) === 404, 'end of the recording');
  assert.deepEqual(await ariGet(pbx, '/recordings/stored'), [{ name, format: 'wav' }]);
  await untilHeard(call, `recording:${name}`);
  await playOut(pbx, call, `recording:${name}`, 897);
  await untilHeard(call, 'sound:vm-goodbye');
  await playOut(pbx, call, 'sound:vm-goodbye', MS.saved);
  const ended = await untilEnded(pbx, call);

  assert.deepEqual((await call.heard()).map(untimed), [
    ...START,
    { kind: 'playback', media: `recording:${name}`, lang: 'en', duration_ms: 900, completed: true },
    { kind: 'playback', media: 'sound:vm-goodbye', lang: 'en', duration_ms: 2595, completed: true },
  ]);
  assert.equal(ended.cause, 16);
  assert.deepEqual(await ariGet(pbx, '/channels'), []);
});

test('1: a caller who says nothing: the recording stops after 3 s of silence and is played back', async () => {
  const { pbx } = ctx;
  const name = 'ivr-message-caller-2';
  const call = await callAndChoose1(pbx, 'caller-2', []);
  await toRecording(pbx, call, name);
  await advanceUntil(pbx, 3000, async () => (await ariStatus(pbx, `/recordings/live/${name}`)) === 404, 'end of the recording');
  assert.deepEqual((await ariGet(pbx, '/recordings/stored')).map((r) => r.name), ['ivr-message-caller-1', name]);
  await untilHeard(call, `recording:${name}`);
  const heard = await advanceUntil(pbx, 0, async () => {
    const items = await call.heard();
    return items.at(-1)?.media === 'sound:vm-goodbye' && items;
  }, 'the app to go on after the message', { step: 100, steps: 60 });
  await call.hangup();
  await untilEnded(pbx, call);
  assert.deepEqual(heard.slice(0, START.length).map(untimed), START);
  assert.equal(heard[START.length].media, `recording:${name}`);
  assert.equal(heard.at(-1).media, 'sound:vm-goodbye');
  assert.deepEqual(await ariGet(pbx, '/channels'), []);
});

test('1: a caller who hangs up while recording leaves the message stored and no channel behind', async () => {
  const { pbx } = ctx;
  const name = 'ivr-message-caller-3';
  const call = await callAndChoose1(pbx, 'caller-3', [{ play: 'sound:hello-world' }, { hangup: 16 }]);
  await toRecording(pbx, call, name);
  await pbx.clock.advance(MS.digit * 8);
  await untilEnded(pbx, call);
  await waitFor(async () => (await ariStatus(pbx, `/recordings/live/${name}`)) === 404, 'the recording to end');
  assert.deepEqual((await ariGet(pbx, '/recordings/stored')).map((r) => r.name), ['ivr-message-caller-1', 'ivr-message-caller-2', name]);
  assert.deepEqual((await call.heard()).map(untimed), START);
  assert.deepEqual(await ariGet(pbx, '/channels'), []);
});
