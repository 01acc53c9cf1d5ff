// A first test of a Stasis application against Trunkline: node --test
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import WebSocket from 'ws';
import { startTrunkline } from 'trunkline';

// The application under test (yours lives in its own module): it greets every call
// that enters it and hangs up once the greeting has played.
function startGreeter({ url, username, password }, app) {
  const auth = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const ari = (method, path) => fetch(`${url}${path}`, { method, headers: { authorization: auth } });
  const progress = new EventEmitter();
  const key = encodeURIComponent(`${username}:${password}`);
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/events?app=${app}&api_key=${key}`);
  ws.on('message', async (data) => {
    const event = JSON.parse(data.toString());
    if (event.type === 'StasisStart') {
      await ari('POST', `/channels/${event.channel.id}/play?media=sound:hello-world`);
      progress.emit('greeting', event.channel.id);
    } else if (event.type === 'PlaybackFinished') {
      const channelId = event.playback.target_uri.replace('channel:', '');
      await ari('DELETE', `/channels/${channelId}`);
      progress.emit('hung up', channelId);
    }
  });
  return { progress, ready: once(ws, 'open'), close: () => ws.close() };
}

let pbx;
let greeter;

before(async () => {
  pbx = await startTrunkline(); // a server of this file's own; virtual clock: time moves when the test says
  greeter = startGreeter(pbx.ari, 'greeter');
  await greeter.ready;
});

after(async () => {
  greeter?.close();
  await pbx?.close();
});

test('a caller hears the greeting, then the app hangs up', async () => {
  const greeted = once(greeter.progress, 'greeting');
  const call = await pbx.sim.call({ endpoint: 'PJSIP/alice', extension: '1000', app: 'greeter' });
  await greeted; // the app has started its prompt, at 00:00:00 simulated

  const hungUp = once(greeter.progress, 'hung up');
  // The prompt (797 ms) plays to its end, and the clock stops there: the app, a process of its
  // own, reacts to PlaybackFinished while simulated time stands still, however long it takes.
  await pbx.clock.advance(797);
  await hungUp;

  assert.deepEqual(await call.heard(), [
    { at: '2025-01-01T00:00:00.000+0000', kind: 'playback', media: 'sound:hello-world', lang: 'en', duration_ms: 797, completed: true },
  ]);
  const [ended] = await pbx.sim.history({ limit: 1 });
  assert.equal(ended.id, call.id);
  assert.equal(ended.endtime, '2025-01-01T00:00:00.797+0000');
});
