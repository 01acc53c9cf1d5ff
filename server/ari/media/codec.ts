import type { Fixtures } from '../fixtures.js';
import { decodeAlaw, decodeUlaw, encodeAlaw, encodeUlaw, FRAME_SAMPLES, RATE, resample, slinBytes, slinFromBytes } from './pcm.js';
import { wavHeader, wavToSlin, type WavLimits } from './wav.js';

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
  /**
   * A stateful encoder for one continuous stream of frames (a recording).
   * `encode` resamples each frame on its own, which cuts the interpolation
   * kernel at every frame edge (a click every 20 ms at 16 kHz); this one
   * resamples each frame with its neighbours' samples as context, so it
   * returns a frame one call late and `end()` returns the last one.
   */
  encoder(): { push(pcm: Int16Array): Buffer; end(): Buffer };
  /** Decodes a whole file (header included) to 8 kHz slin; a WAV is checked against `limits` (WavError). */
  decodeFile(buf: Buffer, limits?: WavLimits): Int16Array;
  /** Decodes raw payload bytes (no header) to 8 kHz slin. */
  decode(buf: Uint8Array): Int16Array;
}

/**
 * Resamples a stream frame by frame with `context` input samples of the
 * previous and next frames around each one (more than the resampler's
 * kernel reaches), so the result equals resampling the whole stream.
 */
function contextEncoder(from: number, to: number, enc: (pcm: Int16Array) => Buffer): { push(pcm: Int16Array): Buffer; end(): Buffer } {
  // 40 samples (5 ms) cover the kernel; a whole 20 ms frame when 5 ms is not a whole number of output samples.
  const context = (40 * to) % from === 0 ? 40 : FRAME_SAMPLES;
  let before = new Int16Array(0);
  let held: Int16Array | null = null;
  const emit = (after: Int16Array): Buffer => {
    const frame = held!;
    const win = new Int16Array(before.length + frame.length + after.length);
    win.set(before, 0);
    win.set(frame, before.length);
    win.set(after, before.length + frame.length);
    const out = resample(win, from, to);
    const start = Math.round((before.length * to) / from);
    const keep = out.subarray(start, start + Math.round((frame.length * to) / from));
    const joined = new Int16Array(before.length + frame.length);
    joined.set(before, 0);
    joined.set(frame, before.length);
    before = joined.slice(Math.max(0, joined.length - context));
    held = null;
    return enc(keep);
  };
  return {
    push(pcm) {
      const out = held ? emit(pcm.subarray(0, context)) : Buffer.alloc(0);
      held = Int16Array.from(pcm);
      return out;
    },
    end: () => (held ? emit(new Int16Array(0)) : Buffer.alloc(0)),
  };
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
        encoder: () => (f.sampleRate === RATE ? { push: (pcm) => raw.enc(pcm), end: () => Buffer.alloc(0) } : contextEncoder(RATE, f.sampleRate, raw.enc)),
        decode: (buf) => from(raw.dec(buf)),
        decodeFile: (buf, limits) => (f.container === 'riff' ? wavToSlin(buf, RATE, limits) : from(raw.dec(buf))),
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
