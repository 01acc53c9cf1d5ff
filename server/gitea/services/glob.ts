import { Lru } from '../../util/lru.js';
import { GLOB_LIMITS, type Glob, compileGlob } from '../../util/glob/glob.js';

/** Compiled patterns by separators and source; a compile failure is remembered too. */
const cache = new Lru<string, Glob | Error>(512);

/**
 * Gitea's glob (gobwas/glob) with a chosen separator set: `*` within a
 * segment, `**` across separators, `?` one non-separator character,
 * `[abc]`/`[a-z]`/`[!…]` classes, `{a,b}` alternatives, `\x` a literal. Used
 * for branch rule names (separator `/`) and protected file patterns (`.` and
 * `/`). Matching never backtracks (server/util/glob); a malformed pattern, or
 * one over the glob limits, throws.
 */
export function giteaGlob(pattern: string, separators: string): Glob {
  if (pattern.length > GLOB_LIMITS.length) return compileGlob(pattern, 'gobwas', separators); // throws, uncached
  const key = `${separators}\0${pattern}`;
  let hit = cache.get(key);
  if (!hit) {
    try {
      hit = compileGlob(pattern, 'gobwas', separators);
    } catch (e) {
      hit = e instanceof Error ? e : new Error(String(e));
    }
    cache.set(key, hit);
  }
  if (hit instanceof Error) throw hit;
  return hit;
}

/** Whether a rule name is a glob (Gitea's IsRuleNameSpecial). */
export const isGlobRule = (name: string) => /[*?\\[\]{}]/.test(name);
