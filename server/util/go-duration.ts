/**
 * Go's time.ParseDuration and Duration.String, to the letter: push mirror
 * intervals arrive and leave in Go's syntax (`8h0m0s`, `10m0s`, `0s`) and
 * Gitea's 400s quote Go's error texts. Nanoseconds as bigint (Go's int64).
 */

const MAX = 1n << 63n;
const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5
  'μs': 1_000n, // U+03BC
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

export const SECOND_NS = 1_000_000_000n;

/** Go's quote() in package time: printable ASCII as is, the rest escaped. */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else out += [...Buffer.from(ch, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
  }
  return `${out}"`;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** time.ParseDuration: nanoseconds, or Go's error text. */
export function parseGoDuration(orig: string): { ns: bigint } | { error: string } {
  const invalid = { error: `time: invalid duration ${quote(orig)}` };
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ns: 0n };
  if (s === '') return invalid;
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return invalid;
    // [0-9]*
    let i = 0;
    let v = 0n;
    while (isDigit(s[i])) {
      if (v > MAX / 10n) return invalid;
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > MAX) return invalid;
      i++;
    }
    const pre = i > 0;
    s = s.slice(i);
    // (\.[0-9]*)?
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      while (isDigit(s[j])) {
        if (!overflow) {
          if (f > (MAX - 1n) / 10n) overflow = true;
          else {
            f = f * 10n + BigInt(s.charCodeAt(j) - 48);
            scale *= 10;
          }
        }
        j++;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return invalid;
    let u = 0;
    while (u < s.length && !(s[u] === '.' || isDigit(s[u]))) u++;
    if (u === 0) return { error: `time: missing unit in duration ${quote(orig)}` };
    const unitName = s.slice(0, u);
    s = s.slice(u);
    const unit = UNITS[unitName];
    if (unit === undefined) return { error: `time: unknown unit ${quote(unitName)} in duration ${quote(orig)}` };
    if (v > MAX / unit) return invalid;
    v *= unit;
    if (f > 0n) {
      // float64 arithmetic, as Go does it
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > MAX) return invalid;
    }
    d += v;
    if (d > MAX) return invalid;
  }
  if (neg) return { ns: -d };
  if (d > MAX - 1n) return invalid;
  return { ns: d };
}

/** The fraction v / 10^prec without trailing zeros (and no point when it is zero); returns it and v / 10^prec. */
function frac(v: bigint, prec: number): [string, bigint] {
  let out = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    print ||= digit !== 0n;
    if (print) out = String(digit) + out;
    v /= 10n;
  }
  return [print ? `.${out}` : '', v];
}

/** Duration.String: `8h0m0s`, `1m30s`, `1.5s`, `2ms`, `0s`. */
export function formatGoDuration(d: bigint): string {
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < SECOND_NS) {
    if (u === 0n) return '0s';
    let prec: number;
    let unit: string;
    if (u < 1_000n) {
      prec = 0;
      unit = 'ns';
    } else if (u < 1_000_000n) {
      prec = 3;
      unit = 'µs';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const [f, whole] = frac(u, prec);
    out = `${whole}${f}${unit}`;
  } else {
    const [f, secs] = frac(u, 9);
    u = secs;
    out = `${u % 60n}${f}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}
