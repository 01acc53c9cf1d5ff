import { refUpdater } from './ref-updater.js';
import { runGit } from './run.js';

/** Branch and tag tips of a repository at one moment. */
export interface Refs {
  /** Branch name → commit. */
  branches: Map<string, string>;
  /** Tag name → the commit it points to (annotated tags peeled). */
  tags: Map<string, string>;
}

/** Reads every branch and tag with one for-each-ref. */
export async function readRefs(gitDir: string): Promise<Refs> {
  const { stdout } = await runGit(['for-each-ref', '--format=%(objectname) %(*objectname) %(refname)', 'refs/heads/', 'refs/tags/'], { gitDir });
  const branches = new Map<string, string>();
  const tags = new Map<string, string>();
  for (const line of stdout.toString('utf8').split('\n')) {
    if (!line) continue;
    const [sha, peeled, ref] = line.split(' ') as [string, string, string]; // ref names cannot contain spaces
    if (ref.startsWith('refs/heads/')) branches.set(ref.slice(11), sha);
    else if (ref.startsWith('refs/tags/')) tags.set(ref.slice(10), peeled || sha);
  }
  return { branches, tags };
}

/** The all-zero id git uses for a ref that does not exist (before a create, after a delete). */
export const ZERO_SHA = '0000000000000000000000000000000000000000';

/**
 * Moves a ref from `oldSha` to `newSha` only if it still points at `oldSha`
 * (`null`: only if it does not exist yet): git's own compare-and-swap, which
 * also holds against pushes running at the same moment. Returns false when
 * the ref had moved.
 */
export function casRef(gitDir: string, ref: string, newSha: string, oldSha: string | null): Promise<boolean> {
  return refUpdater(gitDir).update(ref, newSha, oldSha ?? ZERO_SHA);
}
