import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { originateInApp } from '../_helpers/ari.js';
import { useServer } from '../_helpers/suite.js';

// PUT /sim/channels/{id}/audio with hostile WAVs: a rate real audio never has (a 2 KB file at 1 Hz
// used to block the server for seconds; 0 Hz gave a 500), truncated headers, sizes the file does not
// hold, encodings we do not decode, audio over SIM_AUDIO_MAX_SECONDS and bodies over
// SIM_AUDIO_MAX_BYTES: each a 400 (413 for the body) in ARI's {"message"}, and the audio the far end
// was playing stays in place.

const test = suite('sim-audio-limits');
const ctx = useServer(test, { env: { SIM_AUDIO_MAX_BYTES: String(64 * 1024), SIM_AUDIO_MAX_SECONDS: '2' } });

function wav(o: { format?: number; rate?: number; bits?: number; data?: number; declared?: number } = {}): Buffer {
  const { format = 1, rate = 16000, bits = 16, data = 3200 } = o;
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + data, 4);
  h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(format, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE((rate * bits) / 8, 28);
  h.writeUInt16LE(bits / 8, 32);
  h.writeUInt16LE(bits, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(o.declared ?? data, 40);
  const body = Buffer.alloc(data);
  for (let i = 0; i + 1 < data; i += 2) body.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 700 * (i / 2)) / rate)), i);
  return Buffer.concat([h, body]);
}

function upload(id: string, body: Buffer, contentType = 'audio/wav'): Promise<{ status: number; body: any }> {
  return ctx.t.http('PUT', `/sim/channels/${id}/audio`, { body, headers: { 'content-type': contentType } });
}

const uploads = () => readdirSync(join(ctx.t.dataDir, 'sim-audio'));

test('hostile WAVs → 400 with a clear message; a good 16 kHz WAV → 204 and stays the far end audio', async () => {
  const { id } = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'hostile-wav' });
  const good = await upload(id, wav({ rate: 16000, data: 32000 }));
  assert.is(good.status, 204, JSON.stringify(good.body));
  const kept = uploads();
  assert.is(kept.length, 1);

  const cases: Array<[string, Buffer, string]> = [
    ['1 Hz, 2 KB', wav({ rate: 1, data: 2000 }), 'Invalid WAV: sample rate 1 Hz is not supported (8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000 Hz)'],
    ['0 Hz', wav({ rate: 0, data: 2000 }), 'Invalid WAV: sample rate 0 Hz is not supported (8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000 Hz)'],
    ['truncated header', wav().subarray(0, 30), 'Invalid WAV: fmt chunk is truncated'],
    ['RIFF/WAVE and nothing else', wav().subarray(0, 16), 'Invalid WAV: no fmt chunk'],
    ['1 GB declared, 100 bytes sent', wav({ data: 100, declared: 1 << 30 }), 'Invalid WAV: data chunk declares 1073741824 bytes but the file holds 100'],
    ['IEEE float', wav({ format: 3, bits: 32 }), 'Invalid WAV: unsupported WAV encoding (format 3, 32 bits): send PCM 16-bit or 8-bit, A-law or µ-law'],
    ['24-bit PCM', wav({ bits: 24, data: 4800 }), 'Invalid WAV: unsupported WAV encoding (format 1, 24 bits): send PCM 16-bit or 8-bit, A-law or µ-law'],
    ['3 s at 8 kHz (limit 2 s)', wav({ rate: 8000, data: 48000 }), 'Invalid WAV: audio is 3 s long; at most 2 s is accepted'],
  ];
  for (const [what, body, message] of cases) {
    const r = await upload(id, body);
    assert.is(r.status, 400, what);
    assert.equal(r.body, { message }, what);
  }
  const raw = await upload(id, Buffer.alloc(8000 * 2 * 3), 'application/octet-stream');
  assert.is(raw.status, 400);
  assert.equal(raw.body, { message: 'Audio is 3 s long; at most 2 s is accepted' });
  assert.equal(uploads(), kept, 'the good upload is still the far end audio');
  assert.is((await ctx.t.http('GET', `/ari/channels/${id}`)).body.state, 'Up');
  await ctx.t.http('DELETE', `/ari/channels/${id}`);
});

test('an upload over SIM_AUDIO_MAX_BYTES (64 KiB) → 413 in ARI\'s body; one at the limit is judged on its audio', async () => {
  const { id } = await originateInApp(ctx.t, ctx.ev, { app: 'app1', id: 'big-wav' });
  const big = await upload(id, Buffer.alloc(64 * 1024 + 1), 'application/octet-stream');
  assert.is(big.status, 413);
  assert.equal(big.body, { message: 'Request body exceeds 65536 bytes' });
  // 64 KiB of raw slin is 4.1 s: within the byte limit, over the 2 s one.
  const atLimit = await upload(id, Buffer.alloc(64 * 1024), 'application/octet-stream');
  assert.is(atLimit.status, 400);
  await ctx.t.http('DELETE', `/ari/channels/${id}`);
});

test.run();
