import type { GlobNode } from './program.js';
import { NUMERIC_RANGE, Tally, cp, lit, numericRange } from './syntax.js';

const SLASH = lit('/');

/**
 * An EditorConfig section name as a pattern over `/` + the file's path from
 * the directory of the .editorconfig: `*` any run without `/`, `**` any run,
 * `/**\/` one or more directory levels or none, `?` one character but `/`,
 * `[abc]` / `[a-z]` / `[!…]` one character (never `/`; a `[` whose class
 * would hold a `/`, or is not closed, is literal), `{s1,s2}` alternatives
 * (nesting), `{n1..n2}` an integer between, `\x` a literal x. A `{…}` with
 * neither a comma nor a range is literal (`{word}` matches "{word}"), as is an
 * unclosed `{`. A section without `/` matches the file's name at any depth,
 * one with a leading `/` or an inner `/` from the directory of the file.
 */
export function parseEditorConfig(section: string): GlobNode[] {
  const full = !section.includes('/') ? `/**/${section}` : section.startsWith('/') ? section : `/${section}`;
  const s = [...full];
  const tally = new Tally();
  return seq(s, 0, s.length, 0, tally);
}

/** Index of the `]` closing the class opened at `open`, or -1 (none, or a `/` inside). */
function classEnd(s: string[], open: number, end: number): number {
  let i = open + 1;
  if (s[i] === '!' || s[i] === '^') i++;
  if (s[i] === ']') i++; // a leading ] is a member
  for (; i < end; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '/') return -1;
    else if (s[i] === ']') return i;
  }
  return -1;
}

/** Index of the `}` closing the group opened at `open`, or -1. */
function braceEnd(s: string[], open: number, end: number): number {
  let depth = 0;
  for (let i = open; i < end; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** The top-level commas of a group's inside. */
function commas(s: string[], from: number, to: number): number[] {
  const out: number[] = [];
  let depth = 0;
  for (let i = from; i < to; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '{') depth++;
    else if (s[i] === '}') depth--;
    else if (s[i] === ',' && depth === 0) out.push(i);
  }
  return out;
}

function klass(s: string[], from: number, to: number): GlobNode {
  let i = from;
  let negated = false;
  if (s[i] === '!' || s[i] === '^') {
    negated = true;
    i++;
  }
  const ranges: number[] = [];
  let first = true;
  while (i < to) {
    let c = s[i]!;
    if (c === '\\' && i + 1 < to) c = s[++i]!;
    else if (c === ']' && !first) break;
    first = false;
    i++;
    if (s[i] === '-' && i + 1 < to) {
      let hi = s[i + 1]!;
      i += 2;
      if (hi === '\\' && i < to) hi = s[i++]!;
      ranges.push(cp(c), cp(hi));
    } else ranges.push(cp(c), cp(c));
  }
  return { kind: 'class', ranges, negated, noSep: true };
}

function seq(s: string[], from: number, to: number, depth: number, tally: Tally): GlobNode[] {
  const out: GlobNode[] = [];
  let i = from;
  while (i < to) {
    const c = s[i]!;
    if (c === '\\' && i + 1 < to) {
      out.push(lit(s[i + 1]!));
      i += 2;
    } else if (c === '*') {
      tally.wildcard();
      let k = i;
      while (k < to && s[k] === '*') k++;
      if (k - i === 1) out.push({ kind: 'star' });
      else if (i > from && s[i - 1] === '/' && s[k] === '/' && k < to) {
        out.push({ kind: 'alt', alts: [[], [{ kind: 'super' }, SLASH]] }); // `/**/`: no level or any
        k++;
      } else out.push({ kind: 'super' });
      i = k;
    } else if (c === '?') {
      tally.wildcard();
      out.push({ kind: 'one' });
      i++;
    } else if (c === '[') {
      const end = classEnd(s, i, to);
      if (end < 0) {
        out.push(lit('['));
        i++;
      } else {
        tally.wildcard();
        out.push(klass(s, i + 1, end));
        i = end + 1;
      }
    } else if (c === '{') {
      const end = braceEnd(s, i, to);
      if (end < 0) {
        out.push(lit('{'));
        i++;
        continue;
      }
      tally.brace(depth + 1);
      const range = NUMERIC_RANGE.exec(s.slice(i + 1, end).join(''));
      const cut = commas(s, i + 1, end);
      if (range) out.push(numericRange(range[1]!, range[2]!));
      else if (!cut.length) out.push(lit('{'), ...seq(s, i + 1, end, depth + 1, tally), lit('}'));
      else {
        const bounds = [i, ...cut, end];
        const alts: GlobNode[][] = [];
        for (let k = 0; k + 1 < bounds.length; k++) alts.push(seq(s, bounds[k]! + 1, bounds[k + 1]!, depth + 1, tally));
        out.push({ kind: 'alt', alts });
      }
      i = end + 1;
    } else {
      out.push(lit(c));
      i++;
    }
  }
  return out;
}
