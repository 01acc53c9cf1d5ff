/**
 * Just enough of gitattributes to answer "is this path `filter=lfs`?", the
 * question Gitea asks before storing a written file in LFS: patterns follow
 * gitignore's matching (a pattern without a slash matches the name at any
 * depth below its file; `**` spans directories), files deeper in the tree and
 * later lines win, `-filter` and `!filter` unset.
 */
export interface AttributesFile {
  /** Directory holding the `.gitattributes` ('' for the root). */
  dir: string;
  text: string;
}

function globToRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        re += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        let cls = glob.slice(i + 1, end);
        if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
        re += `[${cls.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '\\' && i + 1 < glob.length) re += `\\${glob[++i]}`;
    else re += c.replace(/[.+^${}()|\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** A pattern as a test; one too large for a regular expression (V8 says so on first use) matches nothing, as a literal compares. */
function compilePattern(pat: string): (s: string) => boolean {
  if (!/[*?[\\]/.test(pat)) return (s) => s === pat;
  const re = globToRegex(pat);
  try {
    re.test('');
  } catch {
    return () => false;
  }
  return (s) => re.test(s);
}

function matches(pattern: string, relPath: string): boolean {
  const anchored = pattern.includes('/') && !pattern.endsWith('/') ? true : pattern.startsWith('/');
  const pat = pattern.replace(/^\//, '');
  if (!anchored) {
    const base = relPath.slice(relPath.lastIndexOf('/') + 1);
    return compilePattern(pat)(base);
  }
  return compilePattern(pat)(relPath);
}

/** The value of the `filter` attribute for `path`, given the attribute files from the root down. */
export function filterAttribute(files: readonly AttributesFile[], path: string): string | undefined {
  let value: string | undefined;
  for (const f of files) {
    const prefix = f.dir ? `${f.dir}/` : '';
    if (!path.startsWith(prefix)) continue;
    const rel = path.slice(prefix.length);
    for (const raw of f.text.split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const [pattern, ...attrs] = line.split(/\s+/);
      if (!pattern || pattern.startsWith('[attr]') || !matches(pattern, rel)) continue;
      for (const a of attrs) {
        if (a === '-filter' || a === '!filter') value = undefined;
        else if (a.startsWith('filter=')) value = a.slice(7);
      }
    }
  }
  return value;
}
