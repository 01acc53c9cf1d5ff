import type { GlobNode } from './program.js';

/**
 * What a user's glob may contain. Matching cost is bounded by the program's
 * size times the text's length anyway; these keep the program (and the
 * parser's nesting) small.
 */
export const GLOB_LIMITS = {
  /** UTF-16 length of a pattern. */
  length: 1024,
  /** `*`, `**`, `?` and character classes. */
  wildcards: 64,
  /** `{…}` groups and `{n..m}` ranges. */
  braces: 64,
  /** Nesting of `{…}` groups. */
  depth: 8,
};

/** A pattern that is malformed or over GLOB_LIMITS; callers decide what such a pattern means. */
export class GlobSyntaxError extends Error {}

/** Counts what a parser meets against GLOB_LIMITS. */
export class Tally {
  private wildcards = 0;
  private braces = 0;

  wildcard(): void {
    if (++this.wildcards > GLOB_LIMITS.wildcards) throw new GlobSyntaxError(`more than ${GLOB_LIMITS.wildcards} wildcards`);
  }

  brace(depth: number): void {
    if (++this.braces > GLOB_LIMITS.braces) throw new GlobSyntaxError(`more than ${GLOB_LIMITS.braces} brace groups`);
    if (depth > GLOB_LIMITS.depth) throw new GlobSyntaxError(`braces nested deeper than ${GLOB_LIMITS.depth}`);
  }
}

export const lit = (ch: string): GlobNode => ({ kind: 'char', cp: ch.codePointAt(0)! });
export const cp = (ch: string) => ch.codePointAt(0)!;

/** `{-3..12}`-style bounds: up to 15 digits each, so they stay exact numbers. */
export const NUMERIC_RANGE = /^(-?\d{1,15})\.\.(-?\d{1,15})$/;

/** A brace range as brace expansion writes it: zero-padded to the longer end when an end is written padded. */
export function numericRange(a: string, b: string): GlobNode {
  const x = Number(a);
  const y = Number(b);
  const padded = /^-?0\d/.test(a) || /^-?0\d/.test(b);
  return { kind: 'num', lo: Math.min(x, y), hi: Math.max(x, y), width: padded ? Math.max(a.length, b.length) : 0 };
}

/** POSIX bracket classes git's wildmatch knows, as code point ranges (ASCII, as git's). */
export const POSIX_CLASSES: Record<string, number[]> = {
  alnum: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
  alpha: [0x41, 0x5a, 0x61, 0x7a],
  blank: [0x09, 0x09, 0x20, 0x20],
  cntrl: [0x00, 0x1f, 0x7f, 0x7f],
  digit: [0x30, 0x39],
  graph: [0x21, 0x7e],
  lower: [0x61, 0x7a],
  print: [0x20, 0x7e],
  punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
  space: [0x09, 0x0d, 0x20, 0x20],
  upper: [0x41, 0x5a],
  xdigit: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
};
