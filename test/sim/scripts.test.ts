import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AriEvent, EventLog } from '../_helpers/events.js';
import type { TestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';
import { advance, clockNow as now, instant, stamp } from '../_helpers/virtual-clock.js';

// Scripted far ends under the virtual clock: the far end of a call follows a list of steps
// (wait, answer, press digits, hang up …), and every step happens at an exact virtual instant.
// The application is the test itself, reacting to its events between advances.
const test = suite('far-end scripts');
const ctx = useServer(test, { env: { SIM_CLOCK: 'virtual' }, events: { ev: 'ivr' } });

const idle = (t: TestServer) => advance(t, { until: 'idle' });

/** The far end's view of a live channel's script. */
const scriptOf = async (t: TestServer, id: string) => {
  const r = await t.http('GET', `/sim/channels/${encodeURIComponent(id)}`);
  assert.is(r.status, 200, r.text);
  return r.body.script;
};

/** `Type@offset-from-t0` (with the digit, playback id or dial status) for each event of a channel and of its playbacks. */
function timeline(log: EventLog, id: string, t0: number): string[] {
  const mine = (e: AriEvent) => e.channel?.id === id || e.peer?.id === id || e.playback?.target_uri === `channel:${id}`;
  return log.events.filter(mine).map((e: AriEvent) => {
    const what = e.type === 'ChannelDtmfReceived' ? `:${e.digit}` : e.type.startsWith('Playback') ? `:${e.playback.id}` : e.type === 'Dial' ? `:${e.dialstatus}` : e.type === 'ChannelStateChange' ? `:${e.channel!.state}` : '';
    return `${e.type}${what}@${instant(e.timestamp) - t0}`;
  });
}

test('a 2-minute IVR call: the scripted caller waits for each prompt, presses digits, waits on hold, and hangs up', async () => {
  const { t, ev } = ctx;
  const t0 = await now(t);
  const script = [
    { wait_heard: 'sound:welcome' }, { dtmf: '1' },
    { wait_heard: 'sound:press-1' }, { dtmf: '2' },
    { wait_heard: 'sound:hello-world' }, { wait_ms: 120_000 }, { dtmf: '#' },
    { wait_heard: 'sound:goodbye' }, { wait_silence_ms: 500 }, { hangup: 16 },
  ];
  const r = await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: 's', channelId: 'ivr-call' }, json: { variables: { STASIS_APP: 'ivr' }, script } });
  assert.is(r.status, 200, r.text);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'ivr-call');
  assert.equal(await scriptOf(t, 'ivr-call'), { steps: script, position: 0, state: 'waiting', waiting_for: 'sound:welcome' });

  // The application's side: a prompt on StasisStart, another for each digit, music while the caller waits.
  const play = async (media: string, playbackId: string) => assert.is((await t.http('POST', '/ari/channels/ivr-call/play', { query: { media, playbackId } })).status, 201);
  const digit = (d: string) => ev.waitFor((e) => e.type === 'ChannelDtmfReceived' && e.digit === d);
  await play('sound:welcome', 'greeting');
  await idle(t);
  await digit('1');
  assert.equal(await scriptOf(t, 'ivr-call'), { steps: script, position: 2, state: 'waiting', waiting_for: 'sound:press-1' });
  await play('sound:press-1', 'menu');
  await idle(t);
  await digit('2');
  await play('sound:hello-world', 'answer');
  await advance(t, { ms: '797' });
  assert.equal(await scriptOf(t, 'ivr-call'), { steps: script, position: 5, state: 'waiting', waiting_for: '120000 ms' });
  assert.is((await t.http('POST', '/ari/channels/ivr-call/moh')).status, 204);
  // Music on hold flows until stopped, so the clock is moved by the wait and the digit exactly (until=idle would run on for a day).
  await advance(t, { ms: String(120_000 + 100) });
  await digit('#');
  assert.is((await t.http('DELETE', '/ari/channels/ivr-call/moh')).status, 204);
  await play('sound:goodbye', 'bye');
  await idle(t);
  await ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === 'ivr-call');

  // welcome 1300 ms, press-1 1280 ms, hello-world 797 ms, goodbye 589.1 ms (its end falls on the next ms); digits last 100 ms.
  const greetingEnd = 1300;
  const one = greetingEnd + 100;
  const menuEnd = one + 1280;
  const two = menuEnd + 100;
  const answerEnd = two + 797;
  const hash = answerEnd + 120_000 + 100;
  const byeEnd = hash + 590;
  const hangup = byeEnd + 500;
  assert.ok(hangup >= 120_000);
  assert.equal(timeline(ev, 'ivr-call', t0), [
    'StasisStart@0',
    'PlaybackStarted:greeting@0', `PlaybackFinished:greeting@${greetingEnd}`,
    `ChannelDtmfReceived:1@${one}`,
    `PlaybackStarted:menu@${one}`, `PlaybackFinished:menu@${menuEnd}`,
    `ChannelDtmfReceived:2@${two}`,
    `PlaybackStarted:answer@${two}`, `PlaybackFinished:answer@${answerEnd}`,
    `ChannelDtmfReceived:#@${hash}`,
    `PlaybackStarted:bye@${hash}`, `PlaybackFinished:bye@${byeEnd}`,
    `ChannelHangupRequest@${hangup}`, `StasisEnd@${hangup}`,
  ]);
  assert.is(ev.of('ivr-call').at(-2)!.cause, 16);

  const heard = await t.http('GET', '/sim/channels/ivr-call/heard');
  assert.is(heard.status, 200);
  assert.equal(heard.body.items.map((i: any) => [i.kind, i.media ?? i.class ?? '', instant(i.at) - t0, i.duration_ms, i.completed]), [
    ['playback', 'sound:welcome', 0, 1301, true], // the list rounds each sound's length (1300.75, 589.1 ms)
    ['playback', 'sound:press-1', one, 1280, true],
    ['playback', 'sound:hello-world', two, 797, true],
    ['moh', 'default', answerEnd, hash - answerEnd, undefined],
    ['playback', 'sound:goodbye', hash, 589, true],
  ]);
});

test('a step that cannot happen ends the script; GET /sim/channels/{id} shows where it is at each moment', async () => {
  const { t, ev } = ctx;
  // PJSIP/instant answers at once by its fixture: a script on it replaces that, so answer comes from the script.
  const script = [{ wait_ms: 1000 }, { answer: true }, { wait_ms: 500 }, { answer: true }, { dtmf: '9' }];
  assert.is((await t.http('PUT', '/sim/endpoints/PJSIP/instant/script', { json: { script, calls: 1 } })).status, 200);
  const t0 = await now(t);
  assert.is((await t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'ivr', channelId: 'no-twice' } })).status, 200);
  await ev.waitFor((e) => e.type === 'Dial' && e.peer?.id === 'no-twice' && e.dialstatus === '');
  assert.equal(await scriptOf(t, 'no-twice'), { steps: script, position: 0, state: 'waiting', waiting_for: '1000 ms' });
  await advance(t, { ms: '1000' });
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'no-twice');
  assert.equal(await scriptOf(t, 'no-twice'), { steps: script, position: 2, state: 'waiting', waiting_for: '500 ms' });
  await advance(t, { ms: '500' });
  // The call is answered already: the second answer cannot happen, and the digit after it is never pressed.
  assert.equal(await scriptOf(t, 'no-twice'), { steps: script, position: 3, state: 'ended', reason: 'Channel is not an outgoing call waiting for an answer' });
  assert.is((await t.http('GET', '/sim/clock')).body.pending, 0);
  assert.equal(timeline(ev, 'no-twice', t0), ['Dial:@0', 'ChannelStateChange:Up@1000', 'Dial:ANSWER@1000', 'ChannelDialplan@1000', 'StasisStart@1000']);

  // The call ends while the script waits: the rest is dropped, and nothing is left pending.
  const call = await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: 's', channelId: 'gone' }, json: { variables: { STASIS_APP: 'ivr' }, script: [{ wait_ms: 5000 }, { dtmf: '1' }] } });
  assert.is(call.status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'gone');
  await advance(t, { ms: '1000' });
  assert.equal(await scriptOf(t, 'gone'), { steps: [{ wait_ms: 5000 }, { dtmf: '1' }], position: 0, state: 'waiting', waiting_for: '5000 ms' });
  assert.is((await t.http('DELETE', '/ari/channels/gone')).status, 204);
  await ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === 'gone');
  assert.is((await t.http('GET', '/sim/clock')).body.pending, 0);
  await advance(t, { ms: '10000' });
  assert.ok(!ev.events.some((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === 'gone'));
  assert.is((await t.http('DELETE', '/ari/channels/no-twice')).status, 204);
  await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'no-twice');
});

test('the caller speaks: play waits until the sound is spoken, talk raises talking events, hold puts us on hold', async () => {
  const { t, ev } = ctx;
  const script = [{ wait_ms: 0 }, { play: 'sound:hello-world' }, { talk: true }, { wait_ms: 2000 }, { talk: false }, { hold: true }, { wait_ms: 1000 }, { hold: false }, { play: 'tone:busy' }, { wait_ms: 400 }, { talk: false }, { hangup: 17 }];
  const t0 = await now(t);
  const r = await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: 's', channelId: 'speaker' }, json: { variables: { STASIS_APP: 'ivr', 'TALK_DETECT(set)': '' }, script } });
  assert.is(r.status, 200, r.text);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'speaker');
  assert.equal(await scriptOf(t, 'speaker'), { steps: script, position: 1, state: 'running' });
  assert.is((await t.http('GET', '/sim/channels/speaker')).body.far_end.talking, false);
  await advance(t, { ms: '797' });
  assert.equal(await scriptOf(t, 'speaker'), { steps: script, position: 3, state: 'waiting', waiting_for: '2000 ms' });
  assert.is((await t.http('GET', '/sim/channels/speaker')).body.far_end.talking, true);
  await idle(t);
  await ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === 'speaker');
  const talked = 797;
  const held = talked + 2000;
  const busy = held + 1000;
  const end = busy + 400;
  assert.equal(timeline(ev, 'speaker', t0), [
    'StasisStart@0', `ChannelTalkingStarted@${talked}`, `ChannelTalkingFinished@${held}`, `ChannelHold@${held}`, `ChannelUnhold@${busy}`,
    `ChannelHangupRequest@${end}`, `StasisEnd@${end}`,
  ]);
  assert.is(ev.of('speaker').find((e) => e.type === 'ChannelTalkingFinished')!.duration, 2000);
  assert.is(ev.of('speaker').find((e) => e.type === 'ChannelHangupRequest')!.cause, 17);
});

test('wait_silence_ms counts from the moment nothing is heard: a bridged peer talking, and a tone, start it over', async () => {
  const { t, ev } = ctx;
  // Bob (a call we place) answers, talks for 3 s, plays a tone until it stops talking again 1 s later, then waits.
  const bob = [{ answer: true }, { talk: true }, { wait_ms: 3000 }, { talk: false }, { play: 'tone:busy' }, { talk: true }, { wait_ms: 1000 }, { talk: false }, { wait_ms: 60_000 }];
  assert.is((await t.http('PUT', '/sim/endpoints/PJSIP/bob/script', { json: { script: bob, calls: 1 } })).status, 200);
  const alice = [{ wait_silence_ms: 1000 }, { dtmf: '4' }];
  const t0 = await now(t);
  assert.is((await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: 's', channelId: 'quiet-a' }, json: { variables: { STASIS_APP: 'ivr' }, script: alice } })).status, 200);
  assert.is((await t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/bob', app: 'ivr', channelId: 'quiet-b' } })).status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'quiet-a');
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'quiet-b');
  // Bob is already talking when Alice joins him in a bridge: her silence cannot start yet.
  assert.is((await t.http('POST', '/ari/bridges', { query: { type: 'mixing', bridgeId: 'quiet-br' } })).status, 200);
  assert.is((await t.http('POST', '/ari/bridges/quiet-br/addChannel', { query: { channel: 'quiet-a,quiet-b' } })).status, 204);
  await advance(t, { ms: '3500' });
  assert.equal(await scriptOf(t, 'quiet-a'), { steps: alice, position: 0, state: 'waiting', waiting_for: '1000 ms of silence' });
  // Bob stopped talking at 3000 and talked again from 3000 to 4000 (his tone is not sent to Alice): her digit comes 1 s after 4000.
  await advance(t, { ms: '1600' });
  const digit = await ev.waitFor((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === 'quiet-a');
  assert.equal([digit.digit, instant(digit.timestamp) - t0], ['4', 5100]);
  assert.equal(await scriptOf(t, 'quiet-a'), { steps: alice, position: 2, state: 'done' });
  assert.is((await t.http('GET', '/sim/channels/quiet-b')).body.script.waiting_for, '60000 ms');
  for (const id of ['quiet-a', 'quiet-b']) assert.is((await t.http('DELETE', `/ari/channels/${id}`)).status, 204);
  await ev.waitFor((e) => e.type === 'ChannelDestroyed' && e.channel?.id === 'quiet-b');
  assert.is((await t.http('DELETE', '/ari/bridges/quiet-br')).status, 204);
});

test('play recording: the caller speaks a stored recording and moves on once it is spoken; a recording gone by then ends the script', async () => {
  const { t, ev } = ctx;
  assert.is((await t.http('POST', '/ari/channels', { query: { endpoint: 'PJSIP/instant', app: 'ivr', channelId: 'recorder' } })).status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'recorder');
  assert.is((await t.http('POST', '/ari/channels/recorder/record', { query: { name: 'script-rec', format: 'wav', maxDurationSeconds: '2' } })).status, 201);
  await advance(t, { ms: '2100' });
  await ev.waitFor((e) => e.type === 'RecordingFinished' && e.recording.name === 'script-rec');
  assert.is((await t.http('DELETE', '/ari/channels/recorder')).status, 204);

  const script = [{ play: 'recording:script-rec' }, { dtmf: '8' }];
  const t0 = await now(t);
  assert.is((await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: 's', channelId: 'replay' }, json: { variables: { STASIS_APP: 'ivr' }, script } })).status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'replay');
  assert.equal(await scriptOf(t, 'replay'), { steps: script, position: 0, state: 'running' });
  await idle(t);
  const digit = await ev.waitFor((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === 'replay');
  assert.is(instant(digit.timestamp) - t0, 2000 + 100);

  // The recording is deleted between the check and the step: the step cannot happen.
  const late = [{ wait_ms: 1000 }, { play: 'recording:script-rec' }, { dtmf: '8' }];
  assert.is((await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: 's', channelId: 'replay-late' }, json: { variables: { STASIS_APP: 'ivr' }, script: late } })).status, 200);
  assert.is((await t.http('DELETE', '/ari/recordings/stored/script-rec')).status, 204);
  await advance(t, { ms: '1000' });
  assert.equal(await scriptOf(t, 'replay-late'), { steps: late, position: 1, state: 'ended', reason: 'Recording not found: script-rec' });
  for (const id of ['replay', 'replay-late']) assert.is((await t.http('DELETE', `/ari/channels/${id}`)).status, 204);
});

test('wait_heard: a stopped playback does not count, one already playing when the step starts does, and so does one on the bridge', async () => {
  const { t, ev } = ctx;
  const script = [{ wait_heard: 'sound:hello-world' }, { dtmf: '1' }, { wait_ms: 200 }, { wait_heard: 'sound:goodbye' }, { dtmf: '2' }, { wait_heard: 'sound:press-1' }, { dtmf: '3' }];
  const t0 = await now(t);
  assert.is((await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: 's', channelId: 'heard-wait' }, json: { variables: { STASIS_APP: 'ivr' }, script } })).status, 200);
  await ev.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'heard-wait');
  const play = async (on: string, media: string, playbackId: string) => assert.is((await t.http('POST', `/ari/${on}/play`, { query: { media, playbackId } })).status, 201);
  const finishedAt = async (id: string) => instant((await ev.waitFor((e) => e.type === 'PlaybackFinished' && e.playback.id === id)).timestamp) - t0;
  const digitAt = async (d: string) => instant((await ev.waitFor((e) => e.type === 'ChannelDtmfReceived' && e.channel?.id === 'heard-wait' && e.digit === d)).timestamp) - t0;
  // Stopped after 300 ms: the caller keeps waiting; played out the second time: it presses 1.
  await play('channels/heard-wait', 'sound:hello-world', 'hw-stopped');
  await advance(t, { ms: '300' });
  assert.is((await t.http('DELETE', '/ari/playbacks/hw-stopped')).status, 204);
  await advance(t, { ms: '100' });
  assert.equal(await scriptOf(t, 'heard-wait'), { steps: script, position: 0, state: 'waiting', waiting_for: 'sound:hello-world' });
  await play('channels/heard-wait', 'sound:hello-world', 'hw-full');
  await advance(t, { ms: '897' });
  assert.equal([await finishedAt('hw-full'), await digitAt('1')], [400 + 797, 400 + 797 + 100]);
  // goodbye starts (at 1297) while the caller still waits 200 ms: the wait_heard after it takes it when it ends (589.1 ms later).
  await play('channels/heard-wait', 'sound:goodbye', 'bye-early');
  await advance(t, { ms: '1000' });
  const bye = await finishedAt('bye-early');
  assert.ok(bye >= 1297 + 589 && bye <= 1297 + 590, String(bye));
  assert.is(await digitAt('2'), bye + 100);
  // A prompt played (at 2297) to the bridge the caller is in.
  assert.is((await t.http('POST', '/ari/bridges', { query: { type: 'mixing', bridgeId: 'heard-br' } })).status, 200);
  assert.is((await t.http('POST', '/ari/bridges/heard-br/addChannel', { query: { channel: 'heard-wait' } })).status, 204);
  await play('bridges/heard-br', 'sound:press-1', 'menu-br');
  // Sounds end within a millisecond (press-1 lasts 1280.125 ms), and so does what the caller does next. (until=idle would
  // run on for a day: media flows while the caller is in a bridge.)
  await advance(t, { ms: '1381' });
  assert.equal([await finishedAt('menu-br'), await digitAt('3')], [2297 + 1280, 2297 + 1280 + 100]);
  assert.equal(await scriptOf(t, 'heard-wait'), { steps: script, position: 7, state: 'done' });
  assert.is((await t.http('DELETE', '/ari/channels/heard-wait')).status, 204);
  await ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === 'heard-wait');
  assert.is((await t.http('DELETE', '/ari/bridges/heard-br')).status, 204);
});

test('bad scripts are 400 naming the step and what is wrong, and create nothing', async () => {
  const { t } = ctx;
  const many = Array.from({ length: 201 }, () => ({ wait_ms: 1 }));
  const cases: Array<[unknown, string]> = [
    [{ wait_ms: 1 }, 'script must be a list of steps'],
    [[], 'script must have at least one step'],
    [many, 'script has 201 steps; at most 200 are allowed'],
    [[{ wait_ms: 1 }, { wiat_ms: 5 }], "script step 1: unknown key 'wiat_ms'"],
    [[{}], 'script step 0: must be an object with exactly one key (it has 0)'],
    [[{ wait_ms: 1, dtmf: '1' }], 'script step 0: must be an object with exactly one key (it has 2)'],
    [['wait_ms'], 'script step 0: must be an object with exactly one key'],
    [[null], 'script step 0: must be an object with exactly one key'],
    [[{ wait_ms: -1 }], 'script step 0: wait_ms must be an integer from 0 to 86400000'],
    [[{ wait_ms: 1.5 }], 'script step 0: wait_ms must be an integer from 0 to 86400000'],
    [[{ wait_ms: '5' }], 'script step 0: wait_ms must be an integer from 0 to 86400000'],
    [[{ wait_silence_ms: 0 }], 'script step 0: wait_silence_ms must be an integer from 1 to 86400000'],
    [[{ wait_heard: 'hello-world' }], 'script step 0: wait_heard must be a media URI (sound:, tone: or recording:)'],
    [[{ wait_heard: 'sound:no-such-sound' }], "script step 0: unknown sound 'no-such-sound'"],
    [[{ dtmf: '12x' }], 'script step 0: dtmf must be 1 to 100 digits among 0-9, A-D, * and #'],
    [[{ dtmf: '' }], 'script step 0: dtmf must be 1 to 100 digits among 0-9, A-D, * and #'],
    [[{ play: 'music:jazz' }], 'script step 0: play must be a media URI (sound:, tone: or recording:)'],
    [[{ wait_ms: 0 }, { play: 'sound:nope' }], "script step 1: unknown sound 'nope'"],
    [[{ play: 'recording:never-made' }], "script step 0: unknown recording 'never-made'"],
    [[{ play: 'tone:' }], 'script step 0: play must be a media URI (sound:, tone: or recording:)'],
    [[{ play: 'tone:440+480/x' }], 'script step 0: invalid tone: '],
    [[{ hangup: 0 }], 'script step 0: hangup must be a Q.850 cause code from 1 to 127'],
    [[{ hangup: 128 }], 'script step 0: hangup must be a Q.850 cause code from 1 to 127'],
    [[{ talk: 'yes' }], 'script step 0: talk must be true or false'],
    [[{ hold: 1 }], 'script step 0: hold must be true or false'],
    [[{ answer: false }], 'script step 0: answer must be true'],
  ];
  for (const [script, message] of cases) {
    for (const [method, path] of [['POST', '/sim/calls?endpoint=PJSIP/alice&extension=s&channelId=bad-script'], ['PUT', '/sim/endpoints/PJSIP/manual/script']] as const) {
      const r = await t.http(method, path, { json: { script } });
      assert.is(r.status, 400, `${method} ${JSON.stringify(script).slice(0, 60)}`);
      if (message.endsWith(': ')) assert.ok(r.body.message.startsWith(message), r.body.message);
      else assert.equal(r.body, { message }, JSON.stringify(script).slice(0, 60));
    }
  }
  // An inbound call's far end places the call: nothing to answer or reject.
  for (const [i, key] of [[0, 'answer'], [1, 'reject']] as const) {
    const script = i === 0 ? [{ answer: true }] : [{ wait_ms: 1 }, { reject: 17 }];
    const r = await t.http('POST', '/sim/calls', { query: { endpoint: 'PJSIP/alice', extension: 's', channelId: 'bad-script' }, json: { script } });
    assert.equal(r.body, { message: `script step ${i}: ${key} is for calls the far end receives; this far end places the call` });
  }
  const put = await t.http('PUT', '/sim/endpoints/PJSIP/manual/script');
  assert.equal([put.status, put.body], [400, { message: 'script is required: {"script": [{"wait_ms": 1000}, {"answer": true}]}' }]);
  assert.is((await t.http('PUT', '/sim/endpoints/PJSIP/manual/script', { json: { script: [{ answer: true }], calls: 0 } })).status, 400);
  assert.equal((await t.http('PUT', '/sim/endpoints/PJSIP/nobody/script', { json: { script: [{ answer: true }] } })).body, { message: 'Endpoint not found' });
  // Nothing was made: no channel, no script.
  assert.is((await t.http('GET', '/ari/channels/bad-script')).status, 404);
  assert.equal((await t.http('GET', '/sim/endpoints/PJSIP/manual/script')).body, { message: 'Endpoint has no script' });
  assert.is((await t.http('GET', '/sim/endpoints/PJSIP/manual')).body.script, undefined);
});

test.run();
