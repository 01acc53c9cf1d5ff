import * as assert from 'uvu/assert';
import { tonePower } from '../../server/ari/media/pcm.js';
import { parseWav } from '../../server/ari/media/wav.js';
import type { EventLog } from './events.js';
import type { TestServer } from './server.js';

const enc = encodeURIComponent;

/** Makes the far end of a channel send a steady tone (POST /sim/channels/{id}/audio). */
export async function farTone(t: TestServer, id: string, freq: number): Promise<void> {
  const r = await t.http('POST', `/sim/channels/${enc(id)}/audio`, { query: { source: 'tone', tone: String(freq) } });
  assert.is(r.status, 204, r.text);
}

/**
 * A Local pair as a listener: `<id>` (;1) enters `app` (whose events `log`
 * sees); `<id>;2` runs default,1000 into app 'trunkline' (seen by `tl`).
 * What ;1 is sent is ;2's inbound, so recording ;2 captures what ;1 hears.
 */
export async function localPair(t: TestServer, log: EventLog, tl: EventLog, id: string, app = 'app1'): Promise<{ one: string; two: string }> {
  const r = await t.http('POST', '/ari/channels', { query: { endpoint: 'Local/1000@default', app, channelId: id } });
  assert.is(r.status, 200, r.text);
  await log.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === id);
  await tl.waitFor((e) => e.type === 'StasisStart' && e.channel?.id === `${id};2`);
  return { one: id, two: `${id};2` };
}

/** Downloads a stored WAV recording (checking status, content type and 8 kHz) and returns its samples. */
export async function downloadWav(t: TestServer, name: string): Promise<Int16Array> {
  const res = await t.http('GET', `/ari/recordings/stored/${enc(name)}/file`);
  assert.is(res.status, 200, `download ${name}`);
  assert.is(res.headers.get('content-type'), 'audio/wav');
  const wav = parseWav(res.bytes);
  assert.is(wav.rate, 8000);
  return wav.samples;
}

/**
 * A tone's power (0..1 of full scale) averaged over 20 ms frames: how tests say a tone is
 * present in a stretch of recorded audio. A media clock that falls far enough behind skips
 * ticks, and the recorded sine then jumps in phase at a frame boundary; one measurement over
 * the whole stretch would see the parts cancel, while a gap, another frequency or silence
 * still shows here as clearly.
 */
export function framePower(s: Int16Array, freq: number, rate = 8000): number {
  const n = rate / 50;
  let sum = 0;
  let count = 0;
  for (let i = 0; i + n <= s.length; i += n, count++) sum += tonePower(s.subarray(i, i + n), freq, rate);
  return count ? sum / count : 0;
}
