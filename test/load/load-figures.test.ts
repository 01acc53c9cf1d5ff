import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { summarise } from '../../cli/load/latency-summary.js';
import { applyEvent, type LoadCall } from '../../cli/load/load-call.js';
import { progressWriter } from '../../cli/load/progress-line.js';

// The load tool's figures from known inputs: nearest-rank percentiles, which tapped events
// count as the app's reaction to a digit, and the progress line on a terminal and off one.
const test = suite('trunkline load: figures');

const T = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms).toISOString().replace('Z', '+0000');
const ev = (type: string, ms: number, extra: Record<string, unknown> = {}) => ({ type, timestamp: T(ms), channel: { id: 'c1', state: 'Up' }, ...extra });

test('percentiles are nearest-rank: each one a measured value', () => {
  const samples = Array.from({ length: 200 }, (_, i) => 200 - i); // 1..200, shuffled order does not matter
  assert.equal(summarise(samples), { count: 200, min: 1, avg: 100.5, p50: 100, p95: 190, p99: 198, max: 200 });
  assert.equal(summarise([7]), { count: 1, min: 7, avg: 7, p50: 7, p95: 7, p99: 7, max: 7 });
  assert.is(summarise([]), null);
});

test('digit → reaction: from the last digit to the next PlaybackStarted; PlaybackFinished and a far-end hangup do not count', () => {
  const call: LoadCall = { id: 'c1', sentAt: 0 };
  const out = (e: Record<string, unknown>) => applyEvent(call, e, 0);
  assert.equal(out(ev('StasisStart', 0, { channel: { id: 'c1', state: 'Ring', creationtime: T(0) } })), { destroyed: false });
  assert.equal(out(ev('ChannelStateChange', 40)), { destroyed: false });
  assert.is(call.answered, Date.UTC(2025, 0, 1) + 40);
  out(ev('ChannelDtmfReceived', 1000, { digit: '1' }));
  out(ev('ChannelDtmfReceived', 1200, { digit: '#' }));
  // A prompt that was playing ends: not the app's doing.
  assert.equal(out(ev('PlaybackFinished', 1250, { channel: undefined, playback: { target_uri: 'channel:c1' } })), { destroyed: false });
  assert.equal(out(ev('PlaybackStarted', 1235 + 30, { channel: undefined, playback: { target_uri: 'channel:c1' } })), { latency: 65, destroyed: false });
  // Measured once per reaction.
  assert.equal(out(ev('PlaybackStarted', 1400, { channel: undefined, playback: { target_uri: 'channel:c1' } })), { destroyed: false });
  out(ev('ChannelDtmfReceived', 2000, { digit: '2' }));
  // The caller hangs up before the app reacts: the StasisEnd that follows is not a reaction, and the call is gone.
  assert.equal(out(ev('ChannelHangupRequest', 2100, { cause: 16 })), { destroyed: false });
  assert.equal(out(ev('StasisEnd', 2100)), { destroyed: true });
  assert.is(call.ended, Date.UTC(2025, 0, 1) + 2100);
});

test('an ARI hangup after a digit is the reaction; StasisEnd without a hangup request is not the end', () => {
  const call: LoadCall = { id: 'c1', sentAt: 0 };
  applyEvent(call, ev('ChannelDtmfReceived', 500, { digit: '9' }), 0);
  assert.equal(applyEvent(call, ev('ChannelHangupRequest', 530, { cause: 32, soft: true }), 0), { latency: 30, destroyed: false });
  assert.equal(applyEvent(call, ev('StasisEnd', 530), 0), { destroyed: true });
  const moved: LoadCall = { id: 'c1', sentAt: 0 };
  // continue: the channel goes back to the dialplan, still up.
  assert.equal(applyEvent(moved, ev('StasisEnd', 10), 0), { destroyed: false });
  assert.equal(applyEvent(moved, ev('ChannelDestroyed', 900, { cause: 21, cause_txt: 'Call Rejected' }), 0), { destroyed: true });
  assert.equal([moved.cause, moved.causeTxt], [21, 'Call Rejected']);
});

test('progress: rewritten in place on a terminal, a line every 2 s otherwise', () => {
  const p = (elapsedMs: number, placed: number) => ({ elapsedMs, placed, live: 2, answered: placed - 1, ended: 1, refused: 0 });
  let tty = '';
  const onTty = progressWriter({ isTTY: true, write: (s: string) => (tty += s) }, 10);
  onTty.update(p(500, 5));
  onTty.update(p(1000, 10));
  onTty.end();
  assert.is(tty, '\r0.5s placed 5/10 (10.0/s) up 2 answered 4 ended 1\r1.0s placed 10/10 (10.0/s) up 2 answered 9 ended 1\n');
  let plain = '';
  const offTty = progressWriter({ write: (s: string) => (plain += s) }, undefined);
  for (const ms of [250, 500, 2000, 2250, 4250]) offTty.update(p(ms, 4));
  offTty.end();
  assert.is(plain, '0.3s placed 4 (16.0/s) up 2 answered 3 ended 1\n2.3s placed 4 (1.8/s) up 2 answered 3 ended 1\n4.3s placed 4 (0.9/s) up 2 answered 3 ended 1\n');
});

test.run();
