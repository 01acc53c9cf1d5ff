import type { Commit } from './commit.js';
import type { TreeEntry } from './tree.js';

/** What the walk reads, through the store's caches and its long-lived cat-file. */
export interface HistoryReader {
  commit(sha: string): Promise<Commit | null>;
  /** The directory at `dir` (its parts; none for the root) in a commit: its tree id and entries, or null when it is not a directory there. */
  dirAt(commit: Commit, dir: readonly string[]): Promise<{ sha: string; entries: readonly TreeEntry[] } | null>;
}

/**
 * For each of `names` (entries of the directory `dir` at `tip`), the newest
 * commit that changed it, found by comparing the directory with its parent's
 * commit by commit, which costs a few object reads per commit and no process
 * to start. It answers what `git log --name-only` would on a straight line of
 * history: an entry is changed by a commit when its id or mode differs from
 * the parent's, or the parent lacks it (a root commit adds everything). It
 * stops at the first merge (git's history simplification decides there),
 * after `maxCommits`, or once every name is found; what it leaves out is for
 * `git log` (history.ts) to find.
 */
export async function lastCommitsNearby(read: HistoryReader, tip: string, dir: readonly string[], names: readonly string[], maxCommits: number): Promise<Map<string, string>> {
  const want = new Set(names);
  const found = new Map<string, string>();
  let commit = await read.commit(tip);
  let here = commit ? await read.dirAt(commit, dir) : null;
  for (let step = 0; commit && here && step < maxCommits && found.size < want.size; step++) {
    if (commit.parents.length > 1) break;
    const parent = commit.parents.length ? await read.commit(commit.parents[0]!) : null;
    if (commit.parents.length && !parent) break;
    const there = parent ? await read.dirAt(parent, dir) : null;
    if (!there || there.sha !== here.sha) {
      const before = new Map((there?.entries ?? []).map((e) => [e.name, e]));
      for (const e of here.entries) {
        if (!want.has(e.name) || found.has(e.name)) continue;
        const old = before.get(e.name);
        if (!old || old.sha !== e.sha || old.mode !== e.mode) found.set(e.name, commit.sha);
      }
    }
    commit = parent;
    here = there;
  }
  return found;
}
