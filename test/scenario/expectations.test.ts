import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { judgeHeard, judgeVariable } from '../../cli/scenario/end-expectations.js';
import { judgeEvents, type EventFacts } from '../../cli/scenario/event-expectations.js';
import type { EventExpectation } from '../../cli/scenario/scenario-schema.js';

// How expectations are judged, on a fixed event stream: counts and bounds, field matchers,
// `after` and `within_ms`, the reasons a failure gives, and the three heard orders.
const test = suite('scenario expectations');

const T0 = Date.UTC(2025, 0, 1);
const ts = (ms: number) => new Date(T0 + ms).toISOString().replace('Z', '+0000');
const ev = (seq: number, at: number, type: string, more: Record<string, unknown> = {}) => ({ seq, event: { type, timestamp: ts(at), ...more } });
const ch = (id: string) => ({ channel: { id, state: 'Up' } });

const facts: EventFacts = {
  events: [
    ev(0, 0, 'StasisStart', { ...ch('a'), args: ['1000'] }),
    ev(1, 0, 'StasisStart', { ...ch('b'), args: [] }),
    ev(2, 300, 'PlaybackStarted', { playback: { media_uri: 'sound:welcome', target_uri: 'channel:a' } }),
    ev(3, 1700, 'ChannelDtmfReceived', { ...ch('a'), digit: '1', duration_ms: 100 }),
    ev(4, 2500, 'ChannelDtmfReceived', { ...ch('a'), digit: '2', duration_ms: 100 }),
    ev(5, 2600, 'StasisEnd', ch('a')),
  ],
  calls: new Map([['a', { channelId: 'a', placedAt: T0 }], ['b', { channelId: 'b', placedAt: T0 }]]),
  start: T0,
};

const judge = (list: EventExpectation[]) => judgeEvents(list, facts).map((r) => [r.pass, r.reason]);

test('counts: absent means at least one; exact numbers, bounds and {min, max}', () => {
  assert.equal(judge([
    { type: 'StasisStart' },
    { type: 'StasisStart', count: 2 },
    { type: 'StasisStart', count: '<=1' },
    { type: 'ChannelDtmfReceived', count: { min: 1, max: 2 } },
    { type: 'ChannelHangupRequest', count: 0 },
    { type: 'ChannelHangupRequest' },
  ]), [
    [true, '2 seen (wanted at least 1)'],
    [true, '2 seen (wanted exactly 2)'],
    [false, '2 seen, wanted at most 1'],
    [true, '2 seen (wanted at least 1 and at most 2)'],
    [true, '0 seen (wanted exactly 0)'],
    [false, '0 seen, wanted at least 1; no ChannelHangupRequest came at all'],
  ]);
});

test('call and match: the channel, a playback\'s target, globs, one_of, ranges, absent; near misses are listed', () => {
  assert.equal(judge([
    { type: 'StasisStart', call: 'b', count: 1 },
    { type: 'PlaybackStarted', call: 'a', match: { 'playback.media_uri': { glob: 'sound:w*' } } },
    { type: 'ChannelDtmfReceived', match: { digit: { one_of: ['1', '9'] }, duration_ms: { gte: 100, lte: 100 } }, count: 1 },
    { type: 'StasisStart', match: { args: [], cause: { absent: true } }, count: 1 },
  ]), [
    [true, '1 seen (wanted exactly 1)'],
    [true, '1 seen (wanted at least 1 with playback.media_uri glob "sound:w*")'],
    [true, '1 seen (wanted exactly 1 with digit one of ["1","9"], duration_ms >= 100 and <= 100)'],
    [true, '1 seen (wanted exactly 1 with args [], cause absent)'],
  ]);
  const [miss] = judgeEvents([{ type: 'ChannelDtmfReceived', call: 'a', match: { digit: '3' } }], facts);
  assert.is(miss!.reason, '0 seen, wanted at least 1 with digit "3"; nearest candidates:');
  assert.equal(miss!.details, ['#3: digit: wanted "3", got "1"', '#4: digit: wanted "3", got "2"']);
  assert.equal(miss!.window!.map((t) => t.seq), [0, 1, 2, 3, 4, 5]);
});

test('after and within_ms: order in the stream, time from the anchor or from the call\'s placing', () => {
  assert.equal(judge([
    { id: 'one', type: 'ChannelDtmfReceived', match: { digit: '1' } },
    { type: 'StasisEnd', after: 'one', within_ms: 900 },
    { type: 'StasisEnd', after: 'one', within_ms: 800 },
    { type: 'ChannelDtmfReceived', call: 'a', within_ms: 2000, count: 2 },
    { id: 'never', type: 'ChannelHold' },
    { type: 'StasisEnd', after: 'never' },
  ]), [
    [true, '1 seen (wanted at least 1 with digit "1")'],
    [true, '1 seen (wanted at least 1)'],
    [false, '0 seen, wanted at least 1; nearest candidates:'],
    [false, '1 seen, wanted exactly 2; nearest candidates:'],
    [false, '0 seen, wanted at least 1; no ChannelHold came at all'],
    [false, 'it must follow \'never\', which never happened'],
  ]);
  const r = judgeEvents([{ id: 'one', type: 'ChannelDtmfReceived', match: { digit: '1' } }, { type: 'StasisEnd', after: 'one', within_ms: 800 }, { type: 'ChannelDtmfReceived', call: 'a', within_ms: 2000, count: 2 }], facts);
  assert.equal(r[1]!.details, ['#5: came 900 ms after \'one\', more than within_ms 800']);
  assert.equal(r[2]!.details, ['#4: came 2500 ms after the call was placed, more than within_ms 2000']);
  // An event before the anchor does not count after it.
  const before = judgeEvents([{ id: 'two', type: 'ChannelDtmfReceived', match: { digit: '2' } }, { type: 'PlaybackStarted', after: 'two' }], facts);
  assert.equal(before[1]!.details, ['#2: came before \'two\' (event #4)']);
});

const heard = [
  { kind: 'playback', media: 'sound:welcome', completed: true },
  { kind: 'dtmf', digit: '5' },
  { kind: 'playback', media: 'sound:press-1', completed: false },
];

test('heard: sequence, exact and contains, with the reason of a failure', () => {
  const h = (order: 'sequence' | 'exact' | 'contains' | undefined, items: Array<Record<string, any>>) => {
    const r = judgeHeard({ call: 'a', items, ...(order ? { order } : {}) }, 0, heard);
    return [r.pass, r.reason, r.details];
  };
  assert.equal(h(undefined, [{ media: 'sound:welcome' }, { media: 'sound:press-1' }]), [true, '2 item(s) heard', []]);
  assert.equal(h(undefined, [{ media: 'sound:press-1' }, { media: 'sound:welcome' }]), [false, 'item 1 (media "sound:welcome") not heard after item 0 (heard[2])', []]);
  assert.equal(h('contains', [{ media: 'sound:press-1' }, { kind: 'dtmf', digit: '5' }]), [true, '2 item(s) heard', []]);
  assert.equal(h('exact', [{ kind: 'playback' }, { kind: 'dtmf' }]), [false, 'heard 3 items, wanted exactly 2', ['[0] {"kind":"playback","media":"sound:welcome","completed":true}', '[1] {"kind":"dtmf","digit":"5"}', '[2] {"kind":"playback","media":"sound:press-1","completed":false}']]);
  assert.equal(h('exact', [{ kind: 'playback' }, { kind: 'dtmf' }, { media: 'sound:press-1', completed: true }]), [false, 'item 2 (media "sound:press-1", completed true) not heard at heard[2]', ['nearest: completed: wanted true, got false']]);
});

test('variables: strings compared as text, an unset one said so', () => {
  const v = (value: any, got: unknown) => {
    const r = judgeVariable({ call: 'a', name: 'CHOICE', value }, 0, got);
    return [r.pass, r.reason];
  };
  assert.equal(v(1, '1'), [true, 'CHOICE is "1"']);
  assert.equal(v({ glob: 'ye*' }, 'yes'), [true, 'CHOICE is "yes"']);
  assert.equal(v('2', '1'), [false, 'CHOICE is "1", wanted "2"']);
  assert.equal(v('1', undefined), [false, 'CHOICE is not set, wanted "1"']);
});

test.run();
