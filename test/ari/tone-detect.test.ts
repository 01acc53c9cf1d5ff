import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp, eventSequence } from '../_helpers/ari.js';
import { waitUntil } from '../_helpers/wait.js';
import type { AriEvent } from '../_helpers/events.js';
import { restartableServer } from '../_helpers/child.js';
import { connectEvents } from '../_helpers/events.js';
import { useServer } from '../_helpers/suite.js';

const test = suite('tone-detect');
const ctx = useServer(test);

const setVar = (id: string, variable: string, value = '') => ctx.t.http('POST', `/ari/channels/${encodeURIComponent(id)}/variable`, { query: { variable, value } });
const readVar = async (id: string, variable: string) => (await ctx.t.http('GET', `/ari/channels/${encodeURIComponent(id)}/variable`, { query: { variable } })).body;
const farTone = async (id: string, tone: string) => {
  const r = await ctx.t.http('POST', `/sim/channels/${encodeURIComponent(id)}/audio`, { query: { source: 'tone', tone } });
  assert.is(r.status, 204, r.text);
};
const detected = (id: string, nth = 1): Promise<AriEvent> => {
  let seen = 0;
  return ctx.ev.waitFor((e) => e.type === 'ChannelToneDetected' && e.channel?.id === id && ++seen === nth);
};
const hangup = async (id: string) => {
  await ctx.t.http('DELETE', `/ari/channels/${encodeURIComponent(id)}`);
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === id);
};

test('a 2600 Hz tone from the far end, heard for the minimum duration, raises ChannelToneDetected once and counts one rx hit', async () => {
  const { id } = await callInApp(ctx.t, ctx.ev, { id: 'td-1', app: 'app1' });
  assert.is((await setVar(id, 'TONE_DETECT(2600,200,r)')).status, 204);
  assert.equal(await readVar(id, 'TONE_DETECT(rx)'), { value: '0' });
  const before = ctx.ev.of(id).length;
  await farTone(id, '2600');
  const e = await detected(id);
  assert.is(e.application, 'app1');
  assert.is(e.channel!.state, 'Up');
  assert.equal(Object.keys(e).sort(), ['application', 'asterisk_id', 'channel', 'timestamp', 'type']);
  assert.equal(await readVar(id, 'TONE_DETECT(rx)'), { value: '1' });
  assert.equal(await readVar(id, 'TONE_DETECT(tx)'), { value: '0' });
  // A tone that stops and comes back counts again, once per burst.
  await farTone(id, '2600/300,0/300');
  await detected(id, 2);
  assert.equal(eventSequence(ctx.ev, id).slice(before, before + 2), ['ChannelToneDetected', 'ChannelToneDetected']);
  await hangup(id);
});

test('only the frequency asked for matches: a 1000 Hz tone passes a 2600 Hz detector by', async () => {
  // Both channels hear 1000 Hz; the media clock serves detectors in the order they were set, so once
  // the 1000 Hz detector (set second) fires, the 2600 Hz one has judged at least as many frames.
  const a = await callInApp(ctx.t, ctx.ev, { id: 'td-2600', app: 'app1' });
  const b = await callInApp(ctx.t, ctx.ev, { id: 'td-1000', app: 'app1' });
  await farTone(a.id, '1000');
  await farTone(b.id, '1000');
  assert.is((await setVar(a.id, 'TONE_DETECT(2600,100)')).status, 204);
  assert.is((await setVar(b.id, 'TONE_DETECT(1000,100)')).status, 204);
  await detected(b.id);
  assert.not.ok(ctx.ev.of(a.id).some((e) => e.type === 'ChannelToneDetected'));
  assert.equal(await readVar(a.id, 'TONE_DETECT(rx)'), { value: '0' });
  await hangup(a.id);
  await hangup(b.id);
});

test('option t listens to what the channel sends: a tone played to it is a tx hit', async () => {
  const { id } = await callInApp(ctx.t, ctx.ev, { id: 'td-tx', app: 'app1' });
  assert.is((await setVar(id, 'TONE_DETECT(1400,100,t)')).status, 204);
  const play = await ctx.t.http('POST', `/ari/channels/${id}/play`, { query: { media: 'tone:1400' } });
  assert.is(play.status, 201, play.text);
  await detected(id);
  assert.equal(await readVar(id, 'TONE_DETECT(tx)'), { value: '1' });
  assert.equal(await readVar(id, 'TONE_DETECT(rx)'), { value: '0' });
  await hangup(id);
});

test('options n and e end detection after that many hits; x removes the detector; a bad argument is 400', async () => {
  const { id } = await callInApp(ctx.t, ctx.ev, { id: 'td-end', app: 'app1' });
  assert.is((await setVar(id, 'TONE_DETECT(2600,100,rn(1)e)')).status, 204);
  await farTone(id, '2600');
  await detected(id);
  // The detector is gone: there is nothing left to read.
  const gone = await ctx.t.http('GET', `/ari/channels/${id}/variable`, { query: { variable: 'TONE_DETECT(rx)' } });
  assert.is(gone.status, 404);
  assert.equal(gone.body, { message: 'Unable to read provided function' });

  assert.is((await ctx.t.http('POST', `/sim/channels/${id}/audio`, { query: { source: 'silence' } })).status, 204);
  assert.is((await setVar(id, 'TONE_DETECT(2600)')).status, 204);
  assert.equal(await readVar(id, 'TONE_DETECT(rx)'), { value: '0' });
  assert.is((await setVar(id, 'TONE_DETECT(0,,x)')).status, 204);
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}/variable`, { query: { variable: 'TONE_DETECT(rx)' } })).status, 404);

  for (const variable of ['TONE_DETECT(abc)', 'TONE_DETECT(2600,-5)', 'TONE_DETECT(2600,500,q)']) {
    const r = await setVar(id, variable);
    assert.is(r.status, 400, variable);
    assert.equal(r.body, { message: 'Failed to execute function' }, variable);
  }
  await hangup(id);
});

test('option g: a match sends a channel in an application to the dialplan location given (StasisEnd, then it runs there)', async () => {
  const { id } = await callInApp(ctx.t, ctx.ev, { id: 'td-goto', app: 'app1' });
  assert.is((await setVar(id, 'TONE_DETECT(2600,100,g(default,after-stasis,next))')).status, 204);
  await farTone(id, '2600');
  await ctx.ev.waitFor((e) => e.type === 'StasisEnd' && e.channel?.id === id);
  assert.equal(eventSequence(ctx.ev, id).slice(-2), ['ChannelToneDetected', 'StasisEnd']);
  // Label next of after-stasis sets AFTER=1 and then waits.
  let snap: any;
  await waitUntil(async () => {
    snap = (await ctx.t.http('GET', `/ari/channels/${id}`)).body;
    return snap.dialplan.app_name === 'Wait';
  }, 'the channel waits in after-stasis');
  assert.equal([snap.dialplan.context, snap.dialplan.exten, snap.dialplan.priority], ['default', 'after-stasis', 3]);
  await ctx.t.http('DELETE', `/ari/channels/${id}`);
});

test('restart: a detector set before SIGKILL still listens afterwards', async () => {
  const servers = restartableServer('tone-detect-restart');
  try {
    let server = await servers.start();
    // The application is connected, or the channel would not stay in it.
    const first = await connectEvents(server.url, 'td-restart');
    const made = await server.http('POST', '/ari/channels/create', { query: { endpoint: 'PJSIP/alice', app: 'td-restart', channelId: 'td-kept' } });
    assert.is(made.status, 200, made.text);
    await first.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === 'td-kept');
    assert.is((await server.http('POST', '/ari/channels/td-kept/variable', { query: { variable: 'TONE_DETECT(2600,100)', value: '' } })).status, 204);
    await servers.kill();
    await first.close();
    server = await servers.start();
    const ev = await connectEvents(server.url, 'td-restart');
    try {
      assert.is((await server.http('POST', '/sim/channels/td-kept/audio', { query: { source: 'tone', tone: '2600' } })).status, 204);
      await ev.waitFor((e) => e.type === 'ChannelToneDetected' && e.channel?.id === 'td-kept');
      assert.equal((await server.http('GET', '/ari/channels/td-kept/variable', { query: { variable: 'TONE_DETECT(rx)' } })).body, { value: '1' });
      server.assertNoViolations();
    } finally {
      await ev.close();
    }
  } finally {
    await servers.cleanup();
  }
});

test.run();
