import type { GlobNode } from './program.js';
import { GlobSyntaxError, Tally, cp, lit } from './syntax.js';

/**
 * Gitea's glob syntax (the gobwas/glob library it uses for branch rule names
 * and protected file patterns): `*` any run of non-separators, `**` any run,
 * `?` one non-separator, `[abc]` / `[a-z]` one character of a set or a single
 * range (`[!…]` negated; classes ignore separators), `{a,b}` alternatives that
 * may nest and hold globs, `\x` a literal x. Outside braces `,` and `}` are
 * plain characters, and so is `]` outside a class. An unclosed `{` or `[`, a
 * malformed class or a trailing `\` is an error.
 */
export function parseGobwas(pattern: string): GlobNode[] {
  const s = [...pattern];
  const tally = new Tally();
  let i = 0;

  function klass(): GlobNode {
    i++; // [
    tally.wildcard();
    let negated = false;
    if (s[i] === '!') {
      negated = true;
      i++;
    }
    if (i >= s.length) throw new GlobSyntaxError('unclosed character class');
    let ranges: number[];
    if (s[i + 1] === '-') {
      if (i + 2 >= s.length) throw new GlobSyntaxError('unclosed character class');
      ranges = [cp(s[i]!), cp(s[i + 2]!)];
      i += 3;
    } else {
      ranges = [];
      while (i < s.length && s[i] !== ']') {
        if (s[i] === '\\') {
          if (++i >= s.length) throw new GlobSyntaxError('trailing backslash');
        }
        ranges.push(cp(s[i]!), cp(s[i]!));
        i++;
      }
      if (!ranges.length) throw new GlobSyntaxError('empty character class');
    }
    if (s[i] !== ']') throw new GlobSyntaxError('unclosed character class');
    i++;
    return { kind: 'class', ranges, negated, noSep: false };
  }

  function seq(depth: number): GlobNode[] {
    const out: GlobNode[] = [];
    while (i < s.length) {
      const c = s[i]!;
      if (depth > 0 && (c === ',' || c === '}')) return out;
      if (c === '{') {
        tally.brace(depth + 1);
        i++;
        const alts: GlobNode[][] = [];
        for (;;) {
          alts.push(seq(depth + 1));
          if (s[i] === ',') i++;
          else if (s[i] === '}') {
            i++;
            break;
          } else throw new GlobSyntaxError('unclosed alternatives');
        }
        out.push({ kind: 'alt', alts });
      } else if (c === '[') out.push(klass());
      else if (c === '?') {
        tally.wildcard();
        out.push({ kind: 'one' });
        i++;
      } else if (c === '*') {
        tally.wildcard();
        const both = s[i + 1] === '*';
        out.push({ kind: both ? 'super' : 'star' });
        i += both ? 2 : 1;
      } else if (c === '\\') {
        if (i + 1 >= s.length) throw new GlobSyntaxError('trailing backslash');
        out.push(lit(s[i + 1]!));
        i += 2;
      } else {
        out.push(lit(c));
        i++;
      }
    }
    return out;
  }

  return seq(0);
}
