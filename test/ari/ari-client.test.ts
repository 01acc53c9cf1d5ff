import ari, { type Client } from 'ari-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { waitUntil, WAIT_MS } from '../_helpers/events.js';
import type { TestServer } from '../_helpers/server.js';
import { useTestServer } from '../_helpers/use-test-server.js';

// The real npm ari-client (swagger-client 2.0.26 underneath), unmodified, against our server.
const test = suite('ari-client');
let t: TestServer;
let client: Client;

/** Resolves with the arguments of the next emission of `event` on `emitter`. */
function once<T extends unknown[]>(emitter: { once(e: string, f: (...a: any[]) => void): unknown }, event: string, ms = WAIT_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${event}`)), ms);
    emitter.once(event, (...args: any[]) => {
      clearTimeout(timer);
      resolve(args as T);
    });
  });
}

useTestServer(test, {}, {
  async open(server) {
    t = server;
    client = await ari.connect(t.url, 'asterisk', 'asterisk');
    // One start() for every app: a second start() would orphan the first socket, which ari-client
    // then keeps reconnecting after the server stops.
    await client.start(['ac-app', 'ac-other']);
    await waitUntil(async () => (await t.http('GET', '/ari/applications/ac-other')).status === 200, 'ac-other is registered');
    return {};
  },
  async close() {
    client.stop();
  },
});

test('connect loads every served resource and builds methods from nicknames', () => {
  for (const r of ['asterisk', 'endpoints', 'channels', 'applications', 'events']) assert.ok(client[r], `client.${r}`);
  for (const m of ['list', 'originate', 'create', 'get', 'originateWithId', 'hangup', 'continueInDialplan', 'move', 'redirect', 'answer', 'ring', 'ringStop', 'sendDTMF', 'mute', 'unmute', 'hold', 'unhold', 'startMoh', 'stopMoh', 'startSilence', 'stopSilence', 'getChannelVar', 'setChannelVar', 'dial']) {
    assert.type(client.channels[m], 'function', `channels.${m}`);
  }
  assert.type(client.asterisk.getInfo, 'function');
  assert.type(client.applications.list, 'function');
});

test('originate with a client-made Channel: instance events StasisStart, variables, DTMF-free hold, hangup → ChannelDestroyed', async () => {
  const channel = client.Channel();
  const started = once<[any, any]>(channel, 'StasisStart');
  const created = await channel.originate({ endpoint: 'PJSIP/alice', app: 'ac-app', appArgs: 'one,two', variables: { 'CALLERID(name)': 'Caller Zed', KEPT: 'k1' } });
  assert.is(created.id, channel.id, 'ari-client injects its own uuid as channelId');
  assert.is(created.state, 'Down');
  assert.equal(created.caller, { name: 'Caller Zed', number: '' });
  const [event, instance] = await started;
  assert.equal(event.args, ['one', 'two']);
  assert.is(instance.id, channel.id);
  assert.is(instance.state, 'Up');

  await instance.setChannelVar({ variable: 'COLOR', value: 'blue' });
  assert.equal(await instance.getChannelVar({ variable: 'COLOR' }), { value: 'blue' });
  assert.equal(await instance.getChannelVar({ variable: 'KEPT' }), { value: 'k1' });
  await instance.hold();
  await instance.unhold();
  await instance.mute({ direction: 'in' });
  await instance.startMoh({ mohClass: 'jazz' });
  const far = await t.http('GET', `/sim/channels/${channel.id}`);
  assert.is(far.body.far_end.muted_in, true);
  assert.is(far.body.far_end.moh_class, 'jazz');

  const details = await client.channels.get({ channelId: channel.id });
  assert.is(details.name, created.name);

  const destroyed = once<[any, any]>(channel, 'ChannelDestroyed');
  const ended = once<[any, any]>(channel, 'StasisEnd');
  await channel.hangup({ reason: 'busy' }); // ari-client sends DELETE with Content-Type: application/json and no body
  const [end] = await ended;
  assert.is(end.type, 'StasisEnd');
  const [gone] = await destroyed;
  assert.is(gone.cause, 17);
  assert.is(gone.cause_txt, 'User busy');
});

test('Dial events reach the client with the peer as a Channel instance', async () => {
  const channel = client.Channel();
  const dials: string[] = [];
  const onDial = (event: any, instance: any) => {
    if (instance?.id === channel.id) dials.push(event.dialstatus);
  };
  client.on('Dial', onDial);
  const started = once(channel, 'StasisStart');
  await channel.originate({ endpoint: 'PJSIP/bob', app: 'ac-app' });
  await started;
  client.removeListener('Dial', onDial);
  assert.equal(dials, ['', 'RINGING', 'ANSWER']);
  await channel.hangup();
});

test('an inbound call from the simulator: answer it, receive DTMF, continue it in the dialplan', async () => {
  const stasis = once<[any, any]>(client, 'StasisStart');
  const call = await t.http('POST', '/sim/calls', { json: { endpoint: 'PJSIP/carol', extension: '1001', variables: { STASIS_APP: 'ac-app' } } });
  assert.is(call.status, 200);
  const [event, channel] = await stasis;
  assert.equal(event.args, ['ringing']);
  assert.is(channel.id, call.body.id);
  assert.is(channel.state, 'Ring');
  assert.is(channel.language, 'fr');
  assert.equal(channel.caller, { name: 'Carol', number: '1003' });

  const up = once<[any, any]>(channel, 'ChannelStateChange');
  await channel.answer();
  assert.is((await up)[1].state, 'Up');

  const digits: string[] = [];
  const gotThree = new Promise<void>((resolve) => {
    channel.on('ChannelDtmfReceived', (e: any) => {
      digits.push(e.digit);
      if (digits.length === 3) resolve();
    });
  });
  await t.http('POST', `/sim/channels/${channel.id}/dtmf`, { query: { dtmf: '42#' } });
  await gotThree;
  assert.equal(digits, ['4', '2', '#']);

  const end = once(channel, 'StasisEnd');
  await channel.continueInDialplan();
  await end;
  // Priority 4 of extension 1001 is Hangup(): the channel ends.
  await waitUntil(async () => (await t.http('GET', `/ari/channels/${channel.id}`)).status === 404, 'the channel is gone');
});

test('created channel dialled later; move between apps', async () => {
  const channel = client.Channel();
  const first = once<[any, any]>(channel, 'StasisStart');
  await channel.create({ endpoint: 'PJSIP/instant', app: 'ac-app' });
  assert.is((await first)[1].state, 'Down');
  const answered = new Promise<void>((resolve) => {
    const f = (e: any, instance: any) => {
      if (instance?.id === channel.id && e.dialstatus === 'ANSWER') {
        client.removeListener('Dial', f);
        resolve();
      }
    };
    client.on('Dial', f);
  });
  await channel.dial();
  await answered;
  const moved = once<[any, any]>(client, 'StasisStart');
  await channel.move({ app: 'ac-other', appArgs: 'transfer' });
  const [ev] = await moved;
  assert.is(ev.application, 'ac-other');
  assert.equal(ev.args, ['transfer']);
  await channel.hangup();
});

test('errors reject with the server message; info, applications and endpoints resources', async () => {
  try {
    await client.channels.get({ channelId: 'no-such-channel' });
    assert.unreachable('should have rejected');
  } catch (err) {
    assert.match((err as Error).message, /Channel not found/);
  }
  const info = await client.asterisk.getInfo({ only: 'system' });
  assert.equal(Object.keys(info), ['system']);
  const apps = await client.applications.list();
  assert.ok(apps.some((a: { name: string }) => a.name === 'ac-app'));
  const eps = await client.endpoints.list();
  assert.ok(eps.some((e: { resource: string }) => e.resource === 'alice'));
});

test.run();
