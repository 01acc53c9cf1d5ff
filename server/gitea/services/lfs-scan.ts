import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { gitEnv, GitError, runGit } from '../git/run.js';
import type { GitStore } from '../git/store.js';
import { LFS_POINTER_MAX, parsePointer, type LfsPointer } from './lfs-pointer.js';

/** The object every ref of a repository points at (deduplicated). */
export async function refTips(gitDir: string): Promise<string[]> {
  const out = await runGit(['for-each-ref', '--format=%(objectname)'], { gitDir });
  return [...new Set(out.stdout.toString('utf8').split('\n').filter((l) => /^[0-9a-f]{40}$/.test(l)))];
}

/** Those of `shas` the repository holds (a tip remembered from an earlier sync may since have been pruned). */
async function present(gitDir: string, shas: readonly string[]): Promise<string[]> {
  if (!shas.length) return [];
  const out = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { gitDir, input: `${shas.join('\n')}\n` });
  return out.stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => / (commit|tag|tree|blob)$/.test(l))
    .map((l) => l.slice(0, 40));
}

/**
 * The LFS pointers among the blobs reachable from `tips` but not from
 * `since` (everything reachable when `since` is empty). `git rev-list
 * --objects` feeds `git cat-file --batch-check` directly; only blobs small
 * enough to be a pointer are read, through the repository's pipelined
 * cat-file, and parsed as Gitea parses pointers.
 */
export async function scanLfsPointers(git: GitStore, gitDir: string, tips: readonly string[], since: readonly string[]): Promise<LfsPointer[]> {
  if (!tips.length) return [];
  const exclude = await present(gitDir, since);
  const input = [...tips, ...exclude.map((s) => `^${s}`)].join('\n') + '\n';

  const revArgs = ['--git-dir', gitDir, 'rev-list', '--objects', '--no-object-names', '--stdin'];
  const checkArgs = ['--git-dir', gitDir, 'cat-file', '--batch-check=%(objecttype) %(objectsize) %(objectname)'];
  const revList = spawn('git', revArgs, { env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  const check = spawn('git', checkArgs, { env: gitEnv(), stdio: [revList.stdout, 'pipe', 'pipe'] });
  // cat-file holds its own copy of the pipe now; ours would keep rev-list's 'close' from ever coming.
  revList.stdout.destroy();
  const exited = (child: typeof revList | typeof check, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => void (stderr.length < 4096 && (stderr += d.toString('utf8'))));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new GitError(args.slice(2), code, stderr))));
    });
  const done = Promise.all([exited(revList, revArgs), exited(check, checkArgs)]);
  done.catch(() => {}); // awaited below, once the output is read
  revList.stdin.on('error', () => {});
  revList.stdin.end(input);

  const candidates: string[] = [];
  for await (const line of createInterface({ input: check.stdout! })) {
    const [type, size, sha] = line.split(' ');
    if (type === 'blob' && Number(size) > 0 && Number(size) <= LFS_POINTER_MAX && sha) candidates.push(sha);
  }
  await done;

  const pointers = new Map<string, LfsPointer>();
  const READ_AT_ONCE = 128;
  for (let i = 0; i < candidates.length; i += READ_AT_ONCE) {
    const blobs = await Promise.all(candidates.slice(i, i + READ_AT_ONCE).map((sha) => git.blob(gitDir, sha)));
    for (const data of blobs) {
      const p = data && parsePointer(data);
      if (p && !pointers.has(p.oid)) pointers.set(p.oid, p);
    }
  }
  return [...pointers.values()];
}
