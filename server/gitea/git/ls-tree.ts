import { runGit } from './run.js';

/** One entry of a tree listing, with its path below the listed tree and the blob's size. */
export interface ListedEntry {
  path: string;
  /** Six octal digits, as ls-tree writes them (`040000` for trees). */
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  /** Bytes of a blob; 0 for trees and submodules. */
  size: number;
  sha: string;
}

/**
 * Lists a tree with one `git ls-tree -l` (with `-r -t` for every entry below
 * it, each directory before its contents), sizes included: a 20,000-file tree
 * is one process and one pass over its output.
 */
export async function listTree(gitDir: string, treeSha: string, recursive: boolean): Promise<ListedEntry[]> {
  const args = ['ls-tree', '-z', '-l', ...(recursive ? ['-r', '-t'] : []), treeSha];
  const { stdout } = await runGit(args, { gitDir, maxBuffer: 512 * 1024 * 1024 });
  const out: ListedEntry[] = [];
  // One decode of the whole output; each record is `<mode> <type> <sha> <size padded>\t<path>`.
  for (const rec of stdout.toString('utf8').split('\0')) {
    const tab = rec.indexOf('\t');
    if (tab < 0) continue;
    const s1 = rec.indexOf(' ');
    const s2 = rec.indexOf(' ', s1 + 1);
    const s3 = rec.indexOf(' ', s2 + 1);
    const size = rec.slice(s3 + 1, tab).trim();
    out.push({ path: rec.slice(tab + 1), mode: rec.slice(0, s1), type: rec.slice(s1 + 1, s2) as ListedEntry['type'], size: size === '-' ? 0 : Number(size), sha: rec.slice(s2 + 1, s3) });
  }
  return out;
}
