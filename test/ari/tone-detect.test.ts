import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callInApp, eventSequence } from '../_helpers/ari.js';
import type { AriEvent } from '../_helpers/events.js';
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

test.run();
