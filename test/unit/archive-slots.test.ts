import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArchiveBusy, ArchiveSlots, type ArchiveSlot } from '../../server/gitea/services/archive-slots.js';

// Admission of archive downloads, without git: limits, FIFO order among clients under their
// share, refusals, and waiters that leave.
const test = suite('archive slots');

const tick = () => new Promise((r) => setImmediate(r));
const never = new AbortController().signal;

test('global and per-client limits; the first waiter under its share goes first', async () => {
  const slots = new ArchiveSlots({ maxConcurrent: 2, maxPerClient: 1, queueLength: 10 });
  const a1 = await slots.acquire('a', never);
  const b1 = await slots.acquire('b', never);
  const got: string[] = [];
  const wait = (client: string) => slots.acquire(client, never).then((s) => (got.push(client), s));
  const a2 = wait('a'); // a is at its share
  const c1 = wait('c');
  const d1 = wait('d');
  await tick();
  assert.equal(slots.stats, { running: 2, waiting: 3 });
  b1.release(); // a's waiter is first but a still runs one: c goes
  await tick();
  assert.equal(got, ['c']);
  a1.release(); // now a's waiter may go, ahead of d
  await tick();
  assert.equal(got, ['c', 'a']);
  (await c1).release();
  await tick();
  assert.equal(got, ['c', 'a', 'd']);
  (await a2).release();
  (await d1).release();
  assert.equal(slots.stats, { running: 0, waiting: 0 });
});

test('refusals: a client\'s share of waiting, then the queue; a waiter that leaves frees its place; release is idempotent', async () => {
  const slots = new ArchiveSlots({ maxConcurrent: 1, maxPerClient: 1, queueLength: 2 });
  const held = await slots.acquire('a', never);
  const ac = new AbortController();
  const b = slots.acquire('b', ac.signal);
  const a2 = slots.acquire('a', never);
  const refusal = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);
  const share = await refusal(slots.acquire('a', never));
  assert.ok(share instanceof ArchiveBusy && share.who === 'client');
  const queue = await refusal(slots.acquire('c', never));
  assert.ok(queue instanceof ArchiveBusy && queue.who === 'server');
  ac.abort(new Error('gone'));
  assert.is(((await refusal(b)) as Error).message, 'gone');
  assert.equal(slots.stats, { running: 1, waiting: 1 });
  const c = slots.acquire('c', never); // the place b left
  held.release();
  held.release();
  const next: ArchiveSlot = await a2;
  assert.equal(slots.stats, { running: 1, waiting: 1 });
  next.release();
  (await c).release();
  assert.equal(slots.stats, { running: 0, waiting: 0 });
});

test.run();
