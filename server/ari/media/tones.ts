import { RATE } from './pcm.js';

/** One part of an Asterisk tone list: up to two frequencies (added or modulated) for a duration (ms; 0 = forever). */
export interface TonePart {
  freqs: number[];
  ms: number;
  modulate: boolean;
  /** `!` parts play once; the rest of the list then repeats from the first part without `!`. */
  once: boolean;
}

export class ToneError extends Error {}

/**
 * Parses Asterisk's tone-list syntax: `f1[+f2|*f2][/ms]`, comma separated,
 * `!` for play-once parts, `0` for silence (e.g. `440+480/2000,0/4000`).
 */
export function parseToneList(spec: string): TonePart[] {
  const parts = spec.split(',').map((s) => s.trim()).filter(Boolean);
  if (!parts.length) throw new ToneError('empty tone list');
  return parts.map((p) => {
    const m = /^(!)?(\d+(?:\.\d+)?)(?:([+*])(\d+(?:\.\d+)?))?(?:\/(\d+))?$/.exec(p);
    if (!m) throw new ToneError(`invalid tone '${p}'`);
    const f1 = Number(m[2]);
    const f2 = m[4] !== undefined ? Number(m[4]) : undefined;
    if (f1 > 4000 || (f2 ?? 0) > 4000) throw new ToneError(`tone '${p}' is above the 4 kHz an 8 kHz channel carries`);
    return { freqs: [f1, ...(f2 !== undefined ? [f2] : [])].filter((f) => f > 0), ms: m[5] !== undefined ? Number(m[5]) : 0, modulate: m[3] === '*', once: !!m[1] };
  });
}

/** Total length of a tone list in ms, or Infinity when it repeats (any part without `!`) or holds a part forever. */
export function toneListDuration(parts: TonePart[]): number {
  if (parts.some((p) => !p.once || p.ms === 0)) return Infinity;
  return parts.reduce((a, p) => a + p.ms, 0);
}

function synth(p: TonePart, n: number, amplitude: number): Int16Array {
  const out = new Int16Array(n);
  if (!p.freqs.length) return out;
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    let v = 0;
    if (p.freqs.length === 2 && p.modulate) v = Math.sin(2 * Math.PI * p.freqs[0]! * t) * (0.5 + 0.5 * Math.sin(2 * Math.PI * p.freqs[1]! * t));
    else for (const f of p.freqs) v += Math.sin(2 * Math.PI * f * t) / p.freqs.length;
    out[i] = Math.round(v * amplitude * 32767);
  }
  return out;
}

/**
 * A tone list ready to render: the play-once prefix and one period of the
 * repeating part are synthesised once, so rendering is a copy. A part that
 * lasts forever (no duration) is kept as one second that repeats.
 */
export class Tone {
  private readonly prefix: Int16Array;
  private readonly loop: Int16Array | null;
  /** Samples in the whole tone, or Infinity. */
  readonly length: number;

  constructor(readonly parts: TonePart[], amplitude = 0.25) {
    const seg = (p: TonePart) => synth(p, p.ms ? Math.round((p.ms * RATE) / 1000) : RATE, amplitude);
    const concat = (list: Int16Array[]) => {
      const out = new Int16Array(list.reduce((a, b) => a + b.length, 0));
      let o = 0;
      for (const b of list) {
        out.set(b, o);
        o += b.length;
      }
      return out;
    };
    const forever = parts.findIndex((p) => p.ms === 0);
    const head = forever >= 0 ? parts.slice(0, forever) : parts.filter((p) => p.once);
    this.prefix = concat(head.map(seg));
    if (forever >= 0) this.loop = seg(parts[forever]!);
    else {
      const rep = parts.filter((p) => !p.once);
      this.loop = rep.length ? concat(rep.map(seg)) : null;
    }
    this.length = this.loop ? Infinity : this.prefix.length;
  }

  static parse(spec: string, amplitude?: number): Tone {
    return new Tone(parseToneList(spec), amplitude);
  }

  /** Samples [from, from + n); silence past the end of a once-only list. */
  render(from: number, n: number, out: Int16Array = new Int16Array(n), at = 0): Int16Array {
    for (let i = 0; i < n; ) {
      const t = from + i;
      if (t < this.prefix.length) {
        const take = Math.min(n - i, this.prefix.length - t);
        out.set(this.prefix.subarray(t, t + take), at + i);
        i += take;
      } else if (this.loop && this.loop.length) {
        const lt = (t - this.prefix.length) % this.loop.length;
        const take = Math.min(n - i, this.loop.length - lt);
        out.set(this.loop.subarray(lt, lt + take), at + i);
        i += take;
      } else {
        out.fill(0, at + i, at + n);
        break;
      }
    }
    return out;
  }
}
