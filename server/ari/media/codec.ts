import type { Fixtures } from '../fixtures.js';
import { decodeAlaw, decodeUlaw, encodeAlaw, encodeUlaw, RATE, resample, slinBytes, slinFromBytes } from './pcm.js';
import { wavHeader, wavToSlin } from './wav.js';

/**
 * A media format from the fixtures, turned into an encoder/decoder between
 * the engine's 8 kHz slin and the bytes of a file (or an RTP payload).
 */
export interface Codec {
  name: string;
  /** File extension of recordings in this format. */
  extension: string;
  contentType: string;
  /** Samples per second in the encoded form. */
  rate: number;
  /** Bytes per encoded sample (RTP payload sizes, file durations). */
  bytesPerSample: number;
  /** WAV-style container: a 44-byte header to write first and rewrite at the end. */
  header?: (dataBytes: number) => Buffer;
  encode(pcm: Int16Array): Buffer;
  /** Decodes a whole file (header included) to 8 kHz slin. */
  decodeFile(buf: Buffer): Int16Array;
  /** Decodes raw payload bytes (no header) to 8 kHz slin. */
  decode(buf: Uint8Array): Int16Array;
}

export class Codecs {
  private readonly byName = new Map<string, Codec>();
  private readonly byExtension = new Map<string, Codec>();

  constructor(formats: Fixtures['formats']) {
    for (const [name, f] of formats) {
      const to = (pcm: Int16Array) => (f.sampleRate === RATE ? pcm : resample(pcm, RATE, f.sampleRate));
      const from = (pcm: Int16Array) => (f.sampleRate === RATE ? pcm : resample(pcm, f.sampleRate, RATE));
      const raw = {
        pcm16: { bytes: 2, enc: (p: Int16Array) => slinBytes(p), dec: (b: Uint8Array) => slinFromBytes(b) },
        ulaw: { bytes: 1, enc: (p: Int16Array) => Buffer.from(encodeUlaw(p)), dec: (b: Uint8Array) => decodeUlaw(b) },
        alaw: { bytes: 1, enc: (p: Int16Array) => Buffer.from(encodeAlaw(p)), dec: (b: Uint8Array) => decodeAlaw(b) },
      }[f.encoding];
      const codec: Codec = {
        name,
        extension: f.extension,
        contentType: f.contentType,
        rate: f.sampleRate,
        bytesPerSample: raw.bytes,
        ...(f.container === 'riff' ? { header: (n: number) => wavHeader(n, f.sampleRate) } : {}),
        encode: (pcm) => raw.enc(to(pcm)),
        decode: (buf) => from(raw.dec(buf)),
        decodeFile: (buf) => (f.container === 'riff' ? wavToSlin(buf, RATE) : from(raw.dec(buf))),
      };
      this.byName.set(name, codec);
      this.byExtension.set(f.extension, codec);
    }
  }

  get(name: string): Codec | undefined {
    return this.byName.get(name);
  }

  byFileExtension(ext: string): Codec | undefined {
    return this.byExtension.get(ext);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}
