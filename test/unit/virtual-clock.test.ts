import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SeededIds } from '../../server/ari/time/id-source.js';
import { TimerQueue, type QueuedTimer } from '../../server/ari/time/timer-queue.js';
import { VirtualClock } from '../../server/ari/time/virtual-clock.js';

// The virtual clock on its own: it stands still, runs due timers in (instant, creation) order when
// advanced, moves to each timer's instant before running it, and counts what is still ahead.
const test = suite('virtual clock');

const START = Date.UTC(2000, 0, 1);
const tick = () => new Promise((r) => setImmediate(r));

test('time stands still until advanced; advance lands exactly on now + ms', async () => {
  const c = new VirtualClock(START);
  assert.is(c.now(), START);
  await tick();
  assert.is(c.now(), START);
  assert.is(await c.advance(1500), START + 1500);
  assert.is(c.now(), START + 1500);
  assert.is(c.simSince(START), 1500);
  assert.is(c.instantAfter(250), START + 1750);
  assert.is(c.instantAfter(250, START), START + 250);
});

test('timers run in instant order, ties in the order they were made, each at its own instant', async () => {
  const c = new VirtualClock(START);
  const ran: Array<[string, number]> = [];
  const log = (name: string) => () => ran.push([name, c.now() - START]);
  c.after(300, log('c'));
  c.after(100, log('a1'));
  c.at(START + 100, log('a2'));
  c.after(200, log('b'));
  c.after(1000, log('late'));
  assert.is(c.pending(), 5);
  await c.advance(300);
  assert.equal(ran, [['a1', 100], ['a2', 100], ['b', 200], ['c', 300]]);
  assert.is(c.pending(), 1);
  assert.is(c.nextDue(), START + 1000);
});

test('timers made by running timers inside the window run too; those beyond it wait', async () => {
  const c = new VirtualClock(START);
  const ran: number[] = [];
  c.after(100, () => {
    ran.push(c.now() - START);
    c.after(50, () => ran.push(c.now() - START));
    c.after(500, () => ran.push(c.now() - START));
  });
  await c.advance(200);
  assert.equal(ran, [100, 150]);
  assert.is(c.pending(), 1);
  await c.advance(400);
  assert.equal(ran, [100, 150, 600]);
});

test('every re-arms a period after each run until cancelled (also from inside itself)', async () => {
  const c = new VirtualClock(START);
  const ticks: number[] = [];
  const h = c.every(20, () => {
    ticks.push(c.now() - START);
    if (ticks.length === 4) c.cancel(h);
  });
  await c.advance(50);
  assert.equal(ticks, [20, 40]);
  await c.advance(1000);
  assert.equal(ticks, [20, 40, 60, 80]);
  assert.is(c.pending(), 0);
});

test('cancelled timers never run and are not counted; cancelling twice or nothing is harmless', async () => {
  const c = new VirtualClock(START);
  let ran = 0;
  const h = c.after(10, () => ran++);
  c.after(20, () => ran++);
  c.cancel(h);
  c.cancel(h);
  c.cancel(undefined);
  c.cancel(null);
  assert.is(c.pending(), 1);
  await c.advance(100);
  assert.is(ran, 1);
});

test('a timer due now runs on a later turn without an advance, and time does not move', async () => {
  const c = new VirtualClock(START);
  const ran: number[] = [];
  c.after(0, () => ran.push(c.now()));
  c.at(START - 5000, () => ran.push(c.now())); // in the past: runs now, the clock never goes back
  assert.is(c.pending(), 0);
  assert.equal(ran, []);
  await tick();
  assert.equal(ran, [START, START]);
  assert.is(c.now(), START);
});

test('advanceUntilIdle stops at the last timer, or at max_ms with timers still ahead', async () => {
  const c = new VirtualClock(START);
  const ran: number[] = [];
  c.after(100, () => c.after(900, () => ran.push(c.now() - START)));
  c.after(30_000, () => ran.push(c.now() - START));
  assert.equal(await c.advanceUntilIdle(), { now: START + 30_000, idle: true });
  assert.equal(ran, [1000, 30_000]);

  const d = new VirtualClock(START);
  d.every(1000, () => {});
  assert.equal(await d.advanceUntilIdle(5500), { now: START + 5500, idle: false });
  assert.is(d.pending(), 1);
});

test('advances run one after another; the second starts where the first ended', async () => {
  const c = new VirtualClock(START);
  const ran: number[] = [];
  c.after(150, () => ran.push(c.now() - START));
  const [a, b] = await Promise.all([c.advance(100), c.advance(100)]);
  assert.is(a, START + 100);
  assert.is(b, START + 200);
  assert.equal(ran, [150]);
});

test('work a timer defers to a later turn settles before time moves on', async () => {
  const c = new VirtualClock(START);
  const seen: number[] = [];
  c.after(10, () => setImmediate(() => c.after(5, () => seen.push(c.now() - START))));
  c.after(12, () => seen.push(c.now() - START));
  await c.advance(100);
  assert.equal(seen, [12, 15]);
});

test('the settle given to an advance runs after every timer, before the next is looked for', async () => {
  const c = new VirtualClock(START);
  const seen: number[] = [];
  const later = (n: number, fn: () => void) => (n ? setImmediate(() => later(n - 1, fn)) : fn());
  c.after(10, () => later(3, () => c.after(0, () => seen.push(c.now() - START))));
  c.after(11, () => seen.push(c.now() - START));
  let settles = 0;
  const threeTurns = async () => {
    settles++;
    for (let i = 0; i < 4; i++) await tick();
  };
  await c.advance(100, threeTurns);
  assert.equal(seen, [10, 11]);
  assert.is(settles, 4); // one per timer, and one more after the timer made meanwhile
});

test('a timer that throws is reported and the advance goes on', async () => {
  const errors: unknown[] = [];
  const c = new VirtualClock(START, (err) => errors.push(err));
  let ran = false;
  c.after(1, () => {
    throw new Error('boom');
  });
  c.after(2, () => (ran = true));
  await c.advance(5);
  assert.is(errors.length, 1);
  assert.ok(ran);
});

test('the timer queue gives (instant, sequence) order after any mix of pushes and removals', () => {
  let x = 12345; // a fixed pseudo-random sequence: the same run every time
  const rnd = (n: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % n);
  const q = new TimerQueue<QueuedTimer>();
  const all: QueuedTimer[] = [];
  for (let seq = 1; seq <= 600; seq++) {
    const t = { instant: rnd(50), seq, index: -1 };
    all.push(t);
    q.push(t);
    if (rnd(3) === 0) q.remove(all[rnd(all.length)]!);
  }
  const kept = all.filter((t) => t.index >= 0);
  assert.is(q.size, kept.length);
  assert.is(q.countAfter(25), kept.filter((t) => t.instant > 25).length);
  const out: QueuedTimer[] = [];
  for (let t = q.peek(); t; t = q.peek()) {
    out.push(t);
    q.remove(t);
  }
  const sorted = [...kept].sort((a, b) => a.instant - b.instant || a.seq - b.seq);
  assert.equal(out.map((t) => t.seq), sorted.map((t) => t.seq));
});

test('seeded ids: the same seed gives the same sequence, another seed another; UUIDs have the version 4 layout', () => {
  const a = new SeededIds('2025-01-01T00:00:00.000Z#1');
  const b = new SeededIds('2025-01-01T00:00:00.000Z#1');
  const c = new SeededIds('2025-01-01T00:00:00.000Z#2');
  const seqA = [a.uuid(), a.hex(8), a.hex(40), a.uuid()];
  assert.equal([b.uuid(), b.hex(8), b.hex(40), b.uuid()], seqA);
  assert.is.not(c.uuid(), seqA[0]);
  assert.match(seqA[0]!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match(seqA[1]!, /^[0-9a-f]{16}$/);
  assert.match(seqA[2]!, /^[0-9a-f]{80}$/);
  assert.is.not(seqA[3], seqA[0]);
});

test.run();
