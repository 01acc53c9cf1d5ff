/**
 * Gitea's glob (gobwas-compatible) with a chosen separator set: `*` matches
 * within a segment, `**` across separators, `?` one non-separator character,
 * `[abc]`/`[!abc]` classes, `{a,b}` alternatives, `\x` a literal. Used for
 * branch rule names (separator `/`) and protected file patterns (`.` and `/`).
 */
export function compileGlob(pattern: string, separators: string): RegExp {
  const sep = separators.replace(/[\\\]^-]/g, '\\$&');
  const notSep = `[^${sep}]`;
  let re = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        re += '.*';
        i++;
      } else re += `${notSep}*`;
    } else if (c === '?') re += notSep;
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) throw new Error('unclosed character class');
      let cls = pattern.slice(i + 1, end);
      if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
      re += `[${cls.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else if (c === '{') {
      re += '(?:';
      depth++;
    } else if (c === '}' && depth > 0) {
      re += ')';
      depth--;
    } else if (c === ',' && depth > 0) re += '|';
    else if (c === '\\' && i + 1 < pattern.length) re += pattern[++i]!.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    else re += c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  if (depth) throw new Error('unclosed alternative');
  const compiled = new RegExp(`^${re}$`);
  // V8 compiles a regular expression on first use: a huge pattern ("Regular expression too
  // large") must fail here, where callers treat it as an invalid glob, not in every later match.
  compiled.test('');
  return compiled;
}

/** Whether a rule name is a glob (Gitea's IsRuleNameSpecial). */
export const isGlobRule = (name: string) => /[*?\\[\]{}]/.test(name);
