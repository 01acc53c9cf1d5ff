import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resampleWork } from '../../server/ari/media/pcm.js';
import { parseWav, WavError, wavToSlin } from '../../server/ari/media/wav.js';

// Hostile WAV headers: every figure a header declares is checked before the work it would cause, so
// what parsing costs is bounded by the limits (counted in resampler taps and samples, not wall time).

const test = suite('wav');

interface Spec {
  format?: number;
  channels?: number;
  rate?: number;
  bits?: number;
  /** Bytes of sample data actually present. */
  data?: number;
  /** What the data chunk's header claims (default: the real size). */
  declared?: number;
}

function wav(s: Spec = {}): Buffer {
  const { format = 1, channels = 1, rate = 16000, bits = 16, data = 3200 } = s;
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + data, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(format, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(((rate * channels * bits) / 8) % 2 ** 32, 28);
  h.writeUInt16LE((channels * bits) / 8, 32);
  h.writeUInt16LE(bits, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(s.declared ?? data, 40);
  const body = Buffer.alloc(data);
  for (let i = 0; i + 1 < data; i += 2) body.writeInt16LE(Math.round(8000 * Math.sin(i / 10)), i);
  return Buffer.concat([h, body]);
}

/** Most taps one output sample can take (48 kHz down to 8 kHz: twice 16 zero crossings / (0.92 / 6), plus the edges). */
const MAX_TAPS_PER_SAMPLE = 212;

function rejected(buf: Buffer, message: RegExp, maxSeconds = 10): void {
  const before = resampleWork.taps;
  try {
    wavToSlin(buf, 8000, { maxSeconds });
    assert.unreachable(`accepted; expected ${message}`);
  } catch (err) {
    assert.instance(err, WavError, String(err));
    assert.match((err as Error).message, message);
  }
  assert.is(resampleWork.taps, before, 'no resampling work before the refusal');
}

test('a 1 Hz and a 0 Hz rate (and any non-standard one) are refused before any decoding or resampling', () => {
  rejected(wav({ rate: 1, data: 2000 }), /^sample rate 1 Hz is not supported \(8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000 Hz\)$/);
  rejected(wav({ rate: 0, data: 2000 }), /^sample rate 0 Hz is not supported/);
  rejected(wav({ rate: 7999 }), /sample rate 7999 Hz/);
  rejected(wav({ rate: 48001 }), /sample rate 48001 Hz/);
  // Within 8–48 kHz but not a rate audio is made at (and each would need its own resampling kernel).
  rejected(wav({ rate: 8001 }), /sample rate 8001 Hz/);
  rejected(wav({ rate: 47999 }), /sample rate 47999 Hz/);
  rejected(wav({ rate: 0xffffffff }), /sample rate 4294967295 Hz/);
});

test('encodings we do not decode are refused: IEEE float, ADPCM, extensible, 24- and 32-bit PCM, 16-bit G.711', () => {
  rejected(wav({ format: 3, bits: 32 }), /^unsupported WAV encoding \(format 3, 32 bits\)/);
  rejected(wav({ format: 0x11, bits: 4 }), /format 17, 4 bits/);
  rejected(wav({ format: 0xfffe, bits: 16 }), /format 65534/);
  rejected(wav({ bits: 24 }), /format 1, 24 bits/);
  rejected(wav({ bits: 32 }), /format 1, 32 bits/);
  rejected(wav({ format: 7, bits: 16 }), /format 7, 16 bits/);
  rejected(wav({ channels: 0 }), /^0 channels/);
  rejected(wav({ channels: 9 }), /^9 channels/);
});

test('truncated headers and chunks that declare more than the file holds are refused', () => {
  const good = wav();
  for (const n of [0, 4, 11, 12, 19, 20, 30, 35]) rejected(good.subarray(0, n), /not a RIFF\/WAVE file|fmt chunk is truncated|no fmt chunk/);
  rejected(good.subarray(0, 40), /no data chunk/);
  rejected(wav({ data: 100, declared: 0x7fffffff }), /^data chunk declares 2147483647 bytes but the file holds 100$/);
  rejected(wav({ data: 100, declared: 101 }), /declares 101 bytes but the file holds 100/);
  // A chunk before fmt that claims to run past the end.
  const junk = Buffer.concat([good.subarray(0, 12), Buffer.from('LIST'), Buffer.from([0xff, 0xff, 0xff, 0x0f]), Buffer.alloc(10)]);
  rejected(junk, /^'LIST' chunk is truncated$/);
});

test('longer than maxSeconds is refused from the header, before decoding', () => {
  rejected(wav({ rate: 8000, data: 8000 * 2 * 3 }), /^audio is 3 s long; at most 2 s is accepted$/, 2);
  rejected(wav({ rate: 48000, channels: 2, data: 48000 * 4 * 3 }), /audio is 3 s long/, 2);
  // Exactly the limit passes.
  assert.is(wavToSlin(wav({ rate: 8000, data: 8000 * 2 * 2 }), 8000, { maxSeconds: 2 }).length, 16000);
});

test('accepted input: samples and resampling work are bounded by maxSeconds × 8000 (and the taps of one sample)', () => {
  const maxSeconds = 2;
  const cases: Spec[] = [
    { rate: 48000, channels: 2, data: 48000 * 4 * maxSeconds },
    { rate: 44100, data: 44100 * 2 * maxSeconds },
    { rate: 22050, data: 22050 * 2 * maxSeconds },
    { rate: 12000, channels: 2, data: 12000 * 4 * maxSeconds },
    { rate: 11025, bits: 8, data: 11025 * maxSeconds },
    { format: 7, bits: 8, rate: 16000, data: 16000 * maxSeconds },
    { format: 6, bits: 8, rate: 8000, data: 8000 * maxSeconds },
  ];
  for (const c of cases) {
    const before = resampleWork.taps;
    const out = wavToSlin(wav(c), 8000, { maxSeconds });
    const taps = resampleWork.taps - before;
    assert.ok(out.length <= maxSeconds * 8000, `${JSON.stringify(c)}: ${out.length} samples`);
    assert.ok(taps <= out.length * MAX_TAPS_PER_SAMPLE, `${JSON.stringify(c)}: ${taps} taps for ${out.length} samples`);
  }
});

test('a good 16 kHz mono WAV decodes; a stereo one keeps its first channel; a streamed length (0xFFFFFFFF) runs to the end', () => {
  const w = parseWav(wav({ rate: 16000, data: 32000 }));
  assert.is(w.rate, 16000);
  assert.is(w.channels, 1);
  assert.is(w.samples.length, 16000);
  assert.is(wavToSlin(wav({ rate: 16000, data: 32000 }), 8000).length, 8000);
  const stereo = parseWav(wav({ rate: 8000, channels: 2, data: 3200 }));
  assert.is(stereo.samples.length, 800);
  const streamed = parseWav(wav({ rate: 8000, data: 1600, declared: 0xffffffff }));
  assert.is(streamed.samples.length, 800);
});

test.run();
