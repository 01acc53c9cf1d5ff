/**
 * Just enough of gitattributes to answer "is this path `filter=lfs`?", the
 * question Gitea asks before storing a written file in LFS: patterns follow
 * gitignore's matching (a pattern without a slash matches the name at any
 * depth below its file; `**` as a whole path component spans directories),
 * files deeper in the tree and later lines win, `-filter` and `!filter` unset.
 */
import { GLOB_LIMITS, type Glob, type GlobBudget, GlobBudgetError, compileGlob } from '../../util/glob/glob.js';
import { Lru } from '../../util/lru.js';

/** One .gitattributes file, parsed. */
export interface AttributesFile {
  /** Directory holding the `.gitattributes` ('' for the root). */
  dir: string;
  text: string;
}

/**
 * Steps (see server/util/glob) one path's attribute lookup may take, pattern
 * compiles included: far above what real attribute files need. Lines past the
 * point where it runs out count as not matching.
 */
export const ATTRIBUTE_STEPS = 500_000;

const compiled = new Lru<string, Glob | null>(512);

/** A pattern as a matcher (git's wildmatch); a malformed one, or one over the glob limits, is null: it matches nothing. */
function compilePattern(pat: string, budget: GlobBudget): Glob | null {
  if (pat.length > GLOB_LIMITS.length) return null;
  let glob = compiled.get(pat);
  if (glob !== undefined) return glob;
  budget.steps -= pat.length; // compiling reads the pattern once
  if (budget.steps < 0) throw new GlobBudgetError();
  try {
    glob = compileGlob(pat, 'wildmatch');
  } catch {
    glob = null;
  }
  compiled.set(pat, glob);
  return glob;
}

function matches(pattern: string, relPath: string, budget: GlobBudget): boolean {
  const anchored = pattern.includes('/') && !pattern.endsWith('/') ? true : pattern.startsWith('/');
  const pat = pattern.replace(/^\//, '');
  const glob = compilePattern(pat, budget);
  if (!glob) return false;
  return glob.test(anchored ? relPath : relPath.slice(relPath.lastIndexOf('/') + 1), budget);
}

/** The value of the `filter` attribute for `path`, given the attribute files from the root down. */
export function filterAttribute(files: readonly AttributesFile[], path: string): string | undefined {
  let value: string | undefined;
  const budget = { steps: ATTRIBUTE_STEPS };
  try {
    for (const f of files) {
      const prefix = f.dir ? `${f.dir}/` : '';
      if (!path.startsWith(prefix)) continue;
      const rel = path.slice(prefix.length);
      for (const raw of f.text.split('\n')) {
        budget.steps--;
        const line = raw.trim();
        if (!line || line.startsWith('#')) continue;
        const [pattern, ...attrs] = line.split(/\s+/);
        if (!pattern || pattern.startsWith('[attr]') || !matches(pattern, rel, budget)) continue;
        for (const a of attrs) {
          if (a === '-filter' || a === '!filter') value = undefined;
          else if (a.startsWith('filter=')) value = a.slice(7);
        }
      }
    }
  } catch (e) {
    if (!(e instanceof GlobBudgetError)) throw e;
  }
  return value;
}
