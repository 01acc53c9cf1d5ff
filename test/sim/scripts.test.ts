import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AriEvent, EventLog } from '../_helpers/events.js';
import type { TestServer } from '../_helpers/server.js';
import { useServer } from '../_helpers/suite.js';

// Scripted far ends under the virtual clock: the far end of a call follows a list of steps
// (wait, answer, press digits, hang up …), and every step happens at an exact virtual instant.
// The application is the test itself, reacting to its events between advances.
const test = suite('far-end scripts');
const ctx = useServer(test, { env: { SIM_CLOCK: 'virtual' }, events: { ev: 'ivr' } });

/** An instant as event timestamps show it (TZ=UTC in tests). */
const stamp = (ms: number) => new Date(ms).toISOString().replace('Z', '+0000');
const instant = (ts: string) => Date.parse(ts.replace(/\+0000$/, 'Z'));
const now = async (t: TestServer) => instant((await t.http('GET', '/sim/clock')).body.now);

async function advance(t: TestServer, query: Record<string, string>): Promise<number> {
  const r = await t.http('POST', '/sim/clock/advance', { query });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return instant(r.body.now);
}
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

test.run();
