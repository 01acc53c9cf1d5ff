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

/** Half-width of the resampling kernel, in zero crossings. */
const HALF = 16;

/** Interpolation work done so far (kernel taps summed): tests bound it for hostile input. */
export const resampleWork = { taps: 0 };

/** The kernel's weight at distance `x` (in output-rate samples, already scaled by the cutoff). */
function weight(x: number): number {
  if (Math.abs(x) >= HALF) return 0;
  const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
  return sinc * (0.42 + 0.5 * Math.cos((Math.PI * x) / HALF) + 0.08 * Math.cos((2 * Math.PI * x) / HALF));
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Precomputed kernels for one integer rate pair: output sample n sits at
 * input position n·from/to, whose fractional part takes only to/g values
 * (g = gcd(from, to)), so each phase's weights are computed once.
 */
interface Kernel {
  period: number;
  step: number;
  taps: number;
  /** First input offset (relative to floor(position)) of each phase. */
  first: Int32Array;
  /** `taps` weights per phase, zero-padded. */
  weights: Float64Array;
}

const KERNEL_CACHE_LIMIT = 16;
/** Largest table (phases × taps, 2 MB) worth keeping; beyond it (odd rate pairs) weights are computed per sample. */
const KERNEL_MAX_ENTRIES = 262_144;
const kernels = new Map<string, Kernel | null>();

function kernelFor(from: number, to: number): Kernel | null {
  const key = `${from}/${to}`;
  let k = kernels.get(key);
  if (k !== undefined) return k;
  k = null;
  if (Number.isInteger(from) && Number.isInteger(to) && from > 0 && to > 0) {
    const g = gcd(from, to);
    const period = to / g;
    const step = from / g;
    const cutoff = Math.min(1, to / from) * 0.92;
    const reach = HALF / cutoff;
    const taps = Math.floor(2 * reach) + 2;
    if (period * taps <= KERNEL_MAX_ENTRIES) {
      const first = new Int32Array(period);
      const weights = new Float64Array(period * taps);
      for (let p = 0; p < period; p++) {
        const frac = p / period;
        const lo = Math.ceil(frac - reach);
        first[p] = lo;
        for (let t = 0; t < taps; t++) weights[p * taps + t] = weight((lo + t - frac) * cutoff);
      }
      k = { period, step, taps, first, weights };
    }
  }
  if (kernels.size >= KERNEL_CACHE_LIMIT) kernels.delete(kernels.keys().next().value!);
  kernels.set(key, k);
  return k;
}

/**
 * Band-limited resampling (windowed-sinc interpolation, Blackman window).
 * Good enough for speech and tones between 8, 16, 22.05 and 48 kHz. The
 * work is output length × kernel taps, the taps growing with from/to
 * (about 210 from 48 to 8 kHz).
 */
export function resample(input: Int16Array | Float32Array, from: number, to: number): Int16Array {
  if (from === to) return Int16Array.from(input);
  const outLen = Math.floor((input.length * to) / from);
  const out = new Int16Array(outLen);
  const cutoff = Math.min(1, to / from) * 0.92;
  const k = kernelFor(from, to);
  const len = input.length;
  let work = 0;
  for (let n = 0; n < outLen; n++) {
    let acc = 0;
    if (k) {
      const num = n * k.step;
      const base = Math.floor(num / k.period);
      const p = num - base * k.period;
      const start = base + k.first[p]!;
      const t0 = Math.max(0, -start);
      const t1 = Math.min(k.taps, len - start);
      const w = p * k.taps;
      for (let t = t0; t < t1; t++) acc += input[start + t]! * k.weights[w + t]!;
      work += Math.max(0, t1 - t0);
    } else {
      const center = (n * from) / to;
      const lo = Math.max(0, Math.ceil(center - HALF / cutoff));
      const hi = Math.min(len - 1, Math.floor(center + HALF / cutoff));
      for (let i = lo; i <= hi; i++) acc += input[i]! * weight((i - center) * cutoff);
      work += Math.max(0, hi - lo + 1);
    }
    const v = Math.round(acc * cutoff);
    out[n] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  resampleWork.taps += work;
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
