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
  let i = 0;
  while (i < stdout.length) {
    const nul = stdout.indexOf(0, i);
    const end = nul < 0 ? stdout.length : nul;
    const tab = stdout.indexOf(9, i);
    const head = stdout.toString('latin1', i, tab).split(/ +/);
    out.push({
      mode: head[0]!,
      type: head[1] as ListedEntry['type'],
      sha: head[2]!,
      size: head[3] === '-' || head[3] === undefined ? 0 : Number(head[3]),
      path: stdout.toString('utf8', tab + 1, end),
    });
    i = end + 1;
  }
  return out;
}
