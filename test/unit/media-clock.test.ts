import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Clock, TimerHandle } from '../../server/ari/time/clock.js';
import { MediaClock, type FrameConsumer } from '../../server/ari/media/media-clock.js';

/** A clock moved by hand; `every` keeps its callback so the test fires ticks itself. */
class HandClock implements Clock {
  t = 1_000_000;
  tick: (() => void) | null = null;
  now(): number { return this.t; }
  simSince(from: number, to = this.t): number { return to - from; }
  instantAfter(simMs: number, from = this.t): number { return from + simMs; }
  at(): TimerHandle { return {} as TimerHandle; }
  after(): TimerHandle { return {} as TimerHandle; }
  every(_ms: number, fn: () => void): TimerHandle { this.tick = fn; return {} as TimerHandle; }
  cancel(): void { this.tick = null; }
  pending(): number { return this.tick ? 1 : 0; }
}

const turn = () => new Promise<void>((r) => setImmediate(r));

/** Spins for `ms` of CPU, so the media clock's slice budget (3 ms) runs out at a known consumer. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

test('a tick handed to some consumers is finished for all of them when the clock falls too far behind', async () => {
  const clock = new HandClock();
  const media = new MediaClock(clock, 5);
  const seen: Record<string, number[]> = { first: [], second: [] };
  let slow = false;
  const first: FrameConsumer = { onFrame: (t) => { seen.first!.push(t); if (slow) spin(5); } };
  const second: FrameConsumer = { onFrame: (t) => seen.second!.push(t) };
  media.add(first);
  media.add(second);
  clock.t += 20;
  clock.tick!();
  assert.equal(seen, { first: [0, 1], second: [0, 1] });

  // Tick 2: the first consumer uses up the slice budget, so the clock yields before the second one.
  slow = true;
  clock.t += 20;
  clock.tick!();
  assert.equal(seen, { first: [0, 1, 2], second: [0, 1] });
  slow = false;
  // Before the slice goes on, the process is found 20 ticks behind: past the bound of 5.
  clock.t += 20 * 20;
  clock.tick!();
  await turn();
  await turn();
  // The second consumer still gets tick 2; then both jump to 5 ticks before now (22 - 5 = 17).
  assert.equal(seen.second!.slice(0, 3), [0, 1, 2]);
  assert.equal(seen.first, seen.second);
  assert.equal(seen.first!.slice(3), [17, 18, 19, 20, 21, 22]);
  assert.is(media.lateTicks, 14);
  media.stop();
});

test('the clock catches up tick by tick within the bound, dropping nothing', () => {
  const clock = new HandClock();
  const media = new MediaClock(clock, 50);
  const ticks: number[] = [];
  media.add({ onFrame: (t) => ticks.push(t) });
  clock.t += 20 * 10;
  clock.tick!();
  assert.equal(ticks, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.is(media.lateTicks, 0);
  media.stop();
});

test.run();
