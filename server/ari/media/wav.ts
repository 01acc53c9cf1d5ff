/** RIFF/WAVE PCM files: parse any 16-bit PCM (or 8-bit G.711) WAV, and write 16-bit mono headers. */
import { decodeAlaw, decodeUlaw, resample, slinFromBytes } from './pcm.js';

export interface Wav {
  rate: number;
  channels: number;
  /** Samples of the first channel, as 16-bit linear. */
  samples: Int16Array;
}

export class WavError extends Error {}

/** Parses a WAV buffer (PCM 8/16-bit, µ-law, A-law; the first channel is kept). */
export function parseWav(buf: Buffer): Wav {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') throw new WavError('not a RIFF/WAVE file');
  let pos = 12;
  let fmt: { format: number; channels: number; rate: number; bits: number } | undefined;
  while (pos + 8 <= buf.length) {
    const id = buf.toString('ascii', pos, pos + 4);
    // A streamed or truncated file may declare more than it holds: read what is there.
    const size = Math.min(buf.readUInt32LE(pos + 4), buf.length - pos - 8);
    const body = buf.subarray(pos + 8, pos + 8 + size);
    if (id === 'fmt ') {
      if (size < 16) throw new WavError('fmt chunk too short');
      fmt = { format: body.readUInt16LE(0), channels: body.readUInt16LE(2), rate: body.readUInt32LE(4), bits: body.readUInt16LE(14) };
    } else if (id === 'data') {
      if (!fmt) throw new WavError('data before fmt');
      if (fmt.channels < 1) throw new WavError('no channels');
      let all: Int16Array;
      if (fmt.format === 1 && fmt.bits === 16) all = slinFromBytes(body.subarray(0, body.length - (body.length % 2)));
      else if (fmt.format === 1 && fmt.bits === 8) all = Int16Array.from(body, (b) => (b - 128) << 8);
      else if (fmt.format === 7) all = decodeUlaw(body);
      else if (fmt.format === 6) all = decodeAlaw(body);
      else throw new WavError(`unsupported WAV encoding (format ${fmt.format}, ${fmt.bits} bits)`);
      const samples = fmt.channels === 1 ? all : all.filter((_, i) => i % fmt!.channels === 0);
      return { rate: fmt.rate, channels: fmt.channels, samples };
    }
    pos += 8 + size + (size % 2);
  }
  throw new WavError('no data chunk');
}

/** Parses a WAV and converts it to mono slin at `rate`. */
export function wavToSlin(buf: Buffer, rate: number): Int16Array {
  const w = parseWav(buf);
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
