import { setFlagsFromString } from 'node:v8';

/**
 * Asterisk `$[ … ]` expressions, the subset dialplans commonly use: | & = !=
 * < > <= >= + - * / % and parentheses. Operands compare numerically when both
 * are numbers, else as strings; comparisons yield "1" or "0".
 */
const OPS = ['!=', '<=', '>=', '=~', '|', '&', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', '!'];

function tokenize(src: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t') { i++; continue; }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (op) { out.push(op); i += op.length; continue; }
    if (c === '"') {
      const end = src.indexOf('"', i + 1);
      const stop = end < 0 ? src.length : end;
      out.push(src.slice(i + 1, stop));
      i = stop + 1;
      continue;
    }
    let j = i;
    while (j < src.length && src[j] !== ' ' && src[j] !== '\t' && !OPS.some((o) => src.startsWith(o, j))) j++;
    out.push(src.slice(i, j));
    i = j;
  }
  return out;
}

/**
 * The right side of `=~` may come from channel variables, which ARI callers
 * and the far end set: such a regular expression runs on V8's linear-time
 * engine (the `l` flag, behind a V8 flag that only enables it), so `(a+)+$`
 * cannot backtrack for minutes. What that engine cannot run in linear time
 * (back-references, look-arounds: not in POSIX EREs, which Asterisk uses)
 * throws, and the comparison is false.
 */
export const USER_REGEXP_FLAGS = (() => {
  try {
    setFlagsFromString('--enable-experimental-regexp-engine');
    new RegExp('a', 'l');
    return 'l';
  } catch {
    return '';
  }
})();

export function userRegExp(source: string): RegExp {
  if (!USER_REGEXP_FLAGS) throw new Error('no linear-time regular expression engine');
  return new RegExp(source, USER_REGEXP_FLAGS);
}

const num = (s: string): number | undefined => (/^\s*-?\d+(\.\d+)?\s*$/.test(s) ? Number(s) : undefined);
const truthy = (s: string) => s !== '' && s !== '0';
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(6))));

export function evaluate(src: string): string {
  const t = tokenize(src);
  let p = 0;
  const peek = () => t[p];
  const next = () => t[p++] ?? '';

  function primary(): string {
    const tok = next();
    if (tok === '(') {
      const vl = or();
      if (peek() === ')') p++;
      return vl;
    }
    if (tok === '!') return truthy(primary()) ? '0' : '1';
    if (tok === '-' && num(peek() ?? '') !== undefined) return fmt(-num(next())!);
    return tok;
  }
  function mul(): string {
    let l = primary();
    while (peek() === '*' || peek() === '/' || peek() === '%') {
      const op = next();
      const a = num(l) ?? 0;
      const b = num(primary()) ?? 0;
      l = fmt(op === '*' ? a * b : b === 0 ? 0 : op === '/' ? a / b : a % b);
    }
    return l;
  }
  function add(): string {
    let l = mul();
    while (peek() === '+' || peek() === '-') {
      const op = next();
      const a = num(l) ?? 0;
      const b = num(mul()) ?? 0;
      l = fmt(op === '+' ? a + b : a - b);
    }
    return l;
  }
  function cmp(): string {
    let l = add();
    while (['=', '!=', '<', '>', '<=', '>=', '=~'].includes(peek() ?? '')) {
      const op = next();
      const r = add();
      if (op === '=~') {
        let m: RegExpExecArray | null = null;
        try { m = userRegExp(`^(?:${r})`).exec(l); } catch { m = null; }
        l = m ? (m[1] ?? String(m[0].length)) : '0';
        continue;
      }
      const a = num(l);
      const b = num(r);
      const c = a !== undefined && b !== undefined ? a - b : l < r ? -1 : l > r ? 1 : 0;
      const res = op === '=' ? c === 0 : op === '!=' ? c !== 0 : op === '<' ? c < 0 : op === '>' ? c > 0 : op === '<=' ? c <= 0 : c >= 0;
      l = res ? '1' : '0';
    }
    return l;
  }
  function and(): string {
    let l = cmp();
    while (peek() === '&') {
      p++;
      const r = cmp();
      l = truthy(l) && truthy(r) ? l : '0';
    }
    return l;
  }
  function or(): string {
    let l = and();
    while (peek() === '|') {
      p++;
      const r = and();
      l = truthy(l) ? l : r;
    }
    return l;
  }
  return t.length ? or() : '';
}
