import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MediaFrameQueue } from '../../server/ari/media/media-frame-queue.js';
import { QUEUE_MAX } from '../../server/ari/media/ws-media-protocol.js';

// Marks cost an application one text frame each: the queue keeps at most QUEUE_MAX of them waiting,
// and those played or flushed make room again.
const test = suite('media-frame-queue');

test('at most QUEUE_MAX marks wait; playing one or a flush makes room', () => {
  const q = new MediaFrameQueue(160, false);
  for (let i = 0; i < QUEUE_MAX; i++) assert.ok(q.mark(`m${i}`), `mark ${i}`);
  assert.is(q.mark('one too many'), false);
  q.push(Buffer.alloc(160));
  // The tick plays every mark before the frame: all of them are sent, and the room is back.
  const out = q.next();
  assert.is(out.notices.length, QUEUE_MAX);
  assert.equal(out.notices[0], { text: 'm0' });
  assert.ok(out.frame);
  assert.ok(q.mark('after playing'));
  for (let i = 1; i < QUEUE_MAX; i++) q.mark(`n${i}`);
  assert.is(q.mark('full again'), false);
  q.flush();
  assert.ok(q.mark('after a flush'));
  // STOP_MEDIA_BUFFERING's notice is a mark like the others.
  q.stopBuffering('done');
  assert.equal(q.next().notices, [{ text: 'after a flush' }, { text: 'done' }]);
});

test.run();
