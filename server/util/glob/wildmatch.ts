import type { GlobNode } from './program.js';
import { POSIX_CLASSES, Tally, cp, lit } from './syntax.js';

/**
 * git's wildmatch with WM_PATHNAME, as .gitattributes patterns use it: `*`
 * and `?` never match `/`; `**` is special only as a whole path component
 * (`**\/x` at any depth, `x/**` everything inside, `x/**\/y` zero or more
 * levels between) and is a plain `*` elsewhere; `[…]` classes (`!` or `^`
 * negates, a leading `]` is a member, ranges, `[:alpha:]`-style names) never
 * match `/`; `\x` is a literal x. A `[` with no closing `]` is literal.
 */
export function parseWildmatch(pattern: string): GlobNode[] {
  const s = [...pattern];
  const tally = new Tally();
  const out: GlobNode[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\' && i + 1 < s.length) {
      out.push(lit(s[i + 1]!));
      i += 2;
    } else if (c === '*') {
      tally.wildcard();
      let k = i;
      while (k < s.length && s[k] === '*') k++;
      const component = k - i >= 2 && (i === 0 || s[i - 1] === '/') && (k === s.length || s[k] === '/');
      if (!component) out.push({ kind: 'star' });
      else if (k === s.length) out.push({ kind: 'super' });
      else {
        out.push({ kind: 'alt', alts: [[], [{ kind: 'super' }, lit('/')]] });
        k++;
      }
      i = k;
    } else if (c === '?') {
      tally.wildcard();
      out.push({ kind: 'one' });
      i++;
    } else if (c === '[') {
      const parsed = klass(s, i);
      if (!parsed) {
        out.push(lit('['));
        i++;
      } else {
        tally.wildcard();
        out.push(parsed.node);
        i = parsed.next;
      }
    } else {
      out.push(lit(c));
      i++;
    }
  }
  return out;
}

function klass(s: string[], open: number): { node: GlobNode; next: number } | undefined {
  let i = open + 1;
  let negated = false;
  if (s[i] === '!' || s[i] === '^') {
    negated = true;
    i++;
  }
  const ranges: number[] = [];
  let first = true;
  while (i < s.length) {
    let c = s[i]!;
    if (c === ']' && !first) return { node: { kind: 'class', ranges, negated, noSep: true }, next: i + 1 };
    first = false;
    if (c === '[' && s[i + 1] === ':') {
      const close = s.slice(i + 2, i + 10).indexOf(':') + i + 2; // names are short: look no further
      const name = close > i + 2 && s[close + 1] === ']' ? s.slice(i + 2, close).join('') : undefined;
      const set = name !== undefined ? POSIX_CLASSES[name] : undefined;
      if (set) {
        ranges.push(...set);
        i = close + 2;
        continue;
      }
    }
    if (c === '\\') {
      if (++i >= s.length) return undefined;
      c = s[i]!;
    }
    i++;
    if (s[i] === '-' && i + 1 < s.length && s[i + 1] !== ']') {
      let hi = s[i + 1]!;
      i += 2;
      if (hi === '\\') {
        if (i >= s.length) return undefined;
        hi = s[i++]!;
      }
      ranges.push(cp(c), cp(hi));
    } else ranges.push(cp(c), cp(c));
  }
  return undefined;
}
