/**
 * PCM primitives for 16-bit signed linear audio ("slin"): G.711 µ-law and
 * A-law, resampling, mixing and levels. Channels move 8 kHz slin in 20 ms
 * frames of 160 samples.
 */
export const RATE = 8000;
export const FRAME_MS = 20;
export const FRAME_SAMPLES = (RATE * FRAME_MS) / 1000;

const BIAS = 0x84;
const CLIP = 32635;

/** ITU-T G.711 µ-law encoding of one sample. */
export function linearToUlaw(sample: number): number {
  let s = sample;
  const sign = s < 0 ? 0x80 : 0;
  if (sign) s = -s;
  if (s > CLIP) s = CLIP;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

export function ulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const t = (((u & 0x0f) << 3) + BIAS) << ((u & 0x70) >> 4);
  return u & 0x80 ? BIAS - t : t - BIAS;
}

/** ITU-T G.711 A-law encoding of one sample. */
export function linearToAlaw(sample: number): number {
  let s = sample >> 3;
  let mask: number;
  if (s >= 0) mask = 0xd5;
  else {
    mask = 0x55;
    s = -s - 1;
  }
  let seg = 0;
  for (let end = 0x1f; seg < 8 && s > end; end = (end << 1) | 1) seg++;
  if (seg >= 8) return 0x7f ^ mask;
  const aval = seg < 2 ? (s >> 1) & 0x0f : (s >> seg) & 0x0f;
  return ((seg << 4) | aval) ^ mask;
}

export function alawToLinear(byte: number): number {
  const a = byte ^ 0x55;
  let t = (a & 0x0f) << 4;
  const seg = (a & 0x70) >> 4;
  if (seg === 0) t += 8;
  else if (seg === 1) t += 0x108;
  else t = (t + 0x108) << (seg - 1);
  return a & 0x80 ? t : -t;
}

const ULAW_DECODE = Int16Array.from({ length: 256 }, (_, i) => ulawToLinear(i));
const ALAW_DECODE = Int16Array.from({ length: 256 }, (_, i) => alawToLinear(i));
const ULAW_ENCODE = new Uint8Array(65536);
const ALAW_ENCODE = new Uint8Array(65536);
for (let i = 0; i < 65536; i++) {
  ULAW_ENCODE[i] = linearToUlaw(i - 32768);
  ALAW_ENCODE[i] = linearToAlaw(i - 32768);
}

export function encodeUlaw(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = ULAW_ENCODE[pcm[i]! + 32768]!;
  return out;
}
export function decodeUlaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = ULAW_DECODE[bytes[i]!]!;
  return out;
}
export function encodeAlaw(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = ALAW_ENCODE[pcm[i]! + 32768]!;
  return out;
}
export function decodeAlaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = ALAW_DECODE[bytes[i]!]!;
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Little-endian bytes of slin samples (the .sln file format and RTP L16 after a byte swap). */
export function slinBytes(pcm: Int16Array): Buffer {
  // On little-endian hosts (all we run on in practice) this is one copy of the sample memory.
  if (LITTLE_ENDIAN) return Buffer.from(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  const b = Buffer.allocUnsafe(pcm.length * 2);
  for (let i = 0; i < pcm.length; i++) b.writeInt16LE(pcm[i]!, i * 2);
  return b;
}

export function slinFromBytes(b: Uint8Array, bigEndian = false): Int16Array {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = new Int16Array(b.byteLength >> 1);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, !bigEndian);
  return out;
}

/**
 * Band-limited resampling (windowed-sinc interpolation, Blackman window).
 * Good enough for speech and tones between 8, 16, 22.05 and 48 kHz.
 */
export function resample(input: Int16Array | Float32Array, from: number, to: number): Int16Array {
  if (from === to) return Int16Array.from(input);
  const ratio = from / to;
  const outLen = Math.floor((input.length * to) / from);
  const out = new Int16Array(outLen);
  const cutoff = Math.min(1, to / from) * 0.92;
  const half = 16;
  for (let n = 0; n < outLen; n++) {
    const center = n * ratio;
    const lo = Math.max(0, Math.ceil(center - half / cutoff));
    const hi = Math.min(input.length - 1, Math.floor(center + half / cutoff));
    let acc = 0;
    for (let k = lo; k <= hi; k++) {
      const x = (k - center) * cutoff;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const w = 0.42 + 0.5 * Math.cos((Math.PI * x) / half) + 0.08 * Math.cos((2 * Math.PI * x) / half);
      acc += input[k]! * sinc * (Math.abs(x) < half ? w : 0);
    }
    const v = Math.round(acc * cutoff);
    out[n] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}

/** Adds `src` into `dst` in place, saturating. */
export function mixInto(dst: Int16Array, src: Int16Array): void {
  for (let i = 0; i < dst.length; i++) {
    const v = dst[i]! + src[i]!;
    dst[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
}

/** Mean absolute amplitude: Asterisk's DSP calls a frame silent below 256 by default. */
export function level(frame: Int16Array): number {
  let acc = 0;
  for (let i = 0; i < frame.length; i++) acc += Math.abs(frame[i]!);
  return frame.length ? acc / frame.length : 0;
}

export const SILENCE_THRESHOLD = 256;

/**
 * Power of one frequency in a signal (Goertzel), normalised to 0..1 of a
 * full-scale sine: how tests and the recorder find a tone in audio.
 */
export function tonePower(pcm: Int16Array, freq: number, rate = RATE): number {
  const k = (2 * Math.cos((2 * Math.PI * freq) / rate));
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < pcm.length; i++) {
    const s = pcm[i]! / 32768 + k * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  const power = s1 * s1 + s2 * s2 - k * s1 * s2;
  return (4 * power) / (pcm.length * pcm.length);
}
