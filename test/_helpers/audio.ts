import * as assert from 'uvu/assert';
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
