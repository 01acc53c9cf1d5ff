import { runGit } from './run.js';

/** The id of the tree with no entries (what a root commit is compared with). */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Arguments selecting `rev` minus what `not` reaches, limited to `path`; revisions are full ids (never options). */
function range(rev: string, not: string | undefined, path: string | undefined): string[] {
  return [rev, ...(not ? ['--not', not] : []), '--', ...(path ? [path] : [])];
}

/**
 * Every commit `rev` reaches, newest first, without those `not` reaches, and
 * only those touching `path` when given: one walk, git filtering by path itself.
 */
export async function revList(gitDir: string, rev: string, not?: string, path?: string): Promise<string[]> {
  const { stdout } = await runGit(['--literal-pathspecs', 'rev-list', ...range(rev, not, path)], { gitDir, maxBuffer: 1024 * 1024 * 1024 });
  return stdout.toString('latin1').split('\n').filter(Boolean);
}

/** Files a commit added, removed and modified. */
export interface FileStatus {
  added: string[];
  removed: string[];
  modified: string[];
}

/**
 * For each commit, the files it added, removed and modified (a merge: those
 * changed against every parent, as `git log -c`), all in one `git log`.
 */
export async function fileStatuses(gitDir: string, shas: readonly string[]): Promise<Map<string, FileStatus>> {
  const out = new Map<string, FileStatus>();
  if (!shas.length) return out;
  const { stdout } = await runGit(['log', '--no-walk=unsorted', '--format=%x01%H', '--name-status', '-c', '--no-renames', '-z', ...shas], { gitDir, maxBuffer: 256 * 1024 * 1024 });
  const parts = stdout.toString('utf8').split('\0');
  let cur: FileStatus | undefined;
  for (let i = 0; i < parts.length; i++) {
    const tok = parts[i]!.replace(/^\n+/, '');
    if (tok.startsWith('\x01')) {
      cur = { added: [], removed: [], modified: [] };
      out.set(tok.slice(1), cur);
      continue;
    }
    if (!cur || !/^[A-Z]+$/.test(tok) || i + 1 >= parts.length) continue;
    const file = parts[++i]!;
    if (tok[0] === 'A') cur.added.push(file);
    else if (tok[0] === 'D') cur.removed.push(file);
    else if (tok[0] === 'M') cur.modified.push(file);
  }
  return out;
}

/** Lines added and removed by a commit against its first parent. */
export interface LineStats {
  additions: number;
  deletions: number;
}

/** For each commit, lines added and removed against its first parent (binary files count none), in one `git log`. */
export async function lineStats(gitDir: string, shas: readonly string[]): Promise<Map<string, LineStats>> {
  const out = new Map<string, LineStats>();
  if (!shas.length) return out;
  const { stdout } = await runGit(['log', '--no-walk=unsorted', '--format=%x01%H', '--numstat', '-M', '--diff-merges=first-parent', ...shas], { gitDir, maxBuffer: 256 * 1024 * 1024 });
  let cur: LineStats | undefined;
  for (const line of stdout.toString('utf8').split('\n')) {
    if (line.startsWith('\x01')) {
      cur = { additions: 0, deletions: 0 };
      out.set(line.slice(1), cur);
      continue;
    }
    const [a, d] = line.split('\t');
    if (!cur || d === undefined) continue;
    if (a !== '-') cur.additions += Number(a) || 0;
    if (d !== '-') cur.deletions += Number(d) || 0;
  }
  return out;
}

/**
 * A commit's changes as text: `diff` against its first parent (`git show` for a
 * root commit), or `patch` as `git format-patch` writes it.
 */
export async function rawDiff(gitDir: string, sha: string, parent: string | undefined, kind: 'diff' | 'patch', maxBuffer = 256 * 1024 * 1024): Promise<Buffer> {
  let args: string[];
  if (kind === 'diff') args = parent ? ['diff', '-M', parent, sha] : ['show', sha];
  else args = parent ? ['format-patch', '--no-signature', '--stdout', `${sha}...${parent}`] : ['format-patch', '--no-signature', '--stdout', '--root', sha];
  const { stdout } = await runGit(args, { gitDir, maxBuffer });
  return stdout;
}

/** A reference, the type of the object it points to, and that object. */
export interface RefEntry {
  name: string;
  type: string;
  sha: string;
}

/** Every reference of the repository, in name order (for-each-ref's). */
export async function allRefs(gitDir: string): Promise<RefEntry[]> {
  const { stdout } = await runGit(['for-each-ref', '--format=%(objectname) %(objecttype) %(refname)'], { gitDir });
  return stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha, type, name] = line.split(' ') as [string, string, string];
      return { name, type, sha };
    });
}

/** The newest commit reachable from `rev` that touched `path`. */
export async function lastCommitOf(gitDir: string, rev: string, path: string): Promise<string | undefined> {
  const { stdout } = await runGit(['--literal-pathspecs', 'log', '-1', '--format=%H', rev, '--', path], { gitDir });
  return stdout.toString('utf8').trim() || undefined;
}
