/** RIFF/WAVE files: parse 16-bit or 8-bit PCM and G.711 WAVs within limits, and write 16-bit mono headers. */
import { decodeAlaw, decodeUlaw, resample, slinFromBytes } from './pcm.js';

export interface Wav {
  rate: number;
  channels: number;
  /** Samples of the first channel, as 16-bit linear. */
  samples: Int16Array;
}

export class WavError extends Error {}

/**
 * The sample rates real telephone and studio audio use, 8 to 48 kHz; any
 * other is refused before decoding. Standard rates also keep resampling
 * cheap: each pair with 8 kHz has a small precomputed kernel (pcm.ts).
 */
export const WAV_RATES: readonly number[] = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];
const MAX_CHANNELS = 8;
/** Without a caller's limit: an hour, far more than any prompt or recording we keep. */
export const WAV_DEFAULT_MAX_SECONDS = 3600;

export interface WavLimits {
  /** Longest audio accepted, in seconds of the file's own rate. */
  maxSeconds?: number;
}

/** Encodings we really decode: PCM 16-bit and 8-bit, A-law (6) and µ-law (7), 8 bits a sample. */
function decoder(format: number, bits: number): ((body: Buffer) => Int16Array) | undefined {
  if (format === 1 && bits === 16) return (b) => slinFromBytes(b.subarray(0, b.length - (b.length % 2)));
  if (format === 1 && bits === 8) return (b) => Int16Array.from(b, (x) => (x - 128) << 8);
  if (format === 6 && bits === 8) return (b) => decodeAlaw(b);
  if (format === 7 && bits === 8) return (b) => decodeUlaw(b);
  return undefined;
}

/**
 * Parses a WAV buffer. Every declared figure is checked before any work
 * that depends on it: the rate a standard one (8–48 kHz), the encoding one we decode,
 * the data chunk present in full and no longer than `maxSeconds`. So the
 * work done (and the samples produced) is bounded by the limits, not by
 * what a header claims.
 */
export function parseWav(buf: Buffer, limits: WavLimits = {}): Wav {
  const maxSeconds = limits.maxSeconds ?? WAV_DEFAULT_MAX_SECONDS;
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') throw new WavError('not a RIFF/WAVE file');
  let pos = 12;
  let fmt: { format: number; channels: number; rate: number; bits: number } | undefined;
  while (pos + 8 <= buf.length) {
    const id = buf.toString('ascii', pos, pos + 4);
    const declared = buf.readUInt32LE(pos + 4);
    const present = buf.length - pos - 8;
    if (id === 'fmt ') {
      if (declared < 16) throw new WavError('fmt chunk too short');
      if (declared > present) throw new WavError('fmt chunk is truncated');
      const body = buf.subarray(pos + 8, pos + 8 + declared);
      fmt = { format: body.readUInt16LE(0), channels: body.readUInt16LE(2), rate: body.readUInt32LE(4), bits: body.readUInt16LE(14) };
      if (fmt.channels < 1 || fmt.channels > MAX_CHANNELS) throw new WavError(`${fmt.channels} channels (1 to ${MAX_CHANNELS} are supported)`);
      if (!WAV_RATES.includes(fmt.rate)) throw new WavError(`sample rate ${fmt.rate} Hz is not supported (${WAV_RATES.join(', ')} Hz)`);
      if (!decoder(fmt.format, fmt.bits)) throw new WavError(`unsupported WAV encoding (format ${fmt.format}, ${fmt.bits} bits): send PCM 16-bit or 8-bit, A-law or µ-law`);
    } else if (id === 'data') {
      if (!fmt) throw new WavError('data before fmt');
      // 0xFFFFFFFF is what streaming writers put before they know the length: the data runs to the end.
      if (declared !== 0xffffffff && declared > present) throw new WavError(`data chunk declares ${declared} bytes but the file holds ${present}`);
      const size = declared === 0xffffffff ? present : declared;
      const frameBytes = (fmt.bits / 8) * fmt.channels;
      const seconds = Math.floor(size / frameBytes) / fmt.rate;
      if (seconds > maxSeconds) throw new WavError(`audio is ${Math.ceil(seconds)} s long; at most ${maxSeconds} s is accepted`);
      const all = decoder(fmt.format, fmt.bits)!(buf.subarray(pos + 8, pos + 8 + size));
      const n = fmt.channels;
      const samples = n === 1 ? all : all.filter((_, i) => i % n === 0);
      return { rate: fmt.rate, channels: n, samples };
    }
    if (declared > present) throw new WavError(`'${id.replace(/[^\x20-\x7e]/g, '?')}' chunk is truncated`);
    pos += 8 + declared + (declared % 2);
  }
  throw new WavError(fmt ? 'no data chunk' : 'no fmt chunk');
}

/** Parses a WAV and converts it to mono slin at `rate` (within `limits`, as parseWav). */
export function wavToSlin(buf: Buffer, rate: number, limits: WavLimits = {}): Int16Array {
  const w = parseWav(buf, limits);
  return w.rate === rate ? w.samples : resample(w.samples, w.rate, rate);
}

/** A 44-byte header for 16-bit mono PCM with `dataBytes` of samples. */
export function wavHeader(dataBytes: number, rate: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}
