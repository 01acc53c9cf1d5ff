import { spawn } from 'node:child_process';
import { gitEnv, runGit } from './run.js';

/**
 * For each name in `dir` (a directory path, '' for the root), the newest
 * commit reachable from `commit` that touched it. One `git log` walks history
 * once for all names and is stopped as soon as every name is found, so a
 * 1,000-entry directory costs one process, not a thousand.
 */
export function lastCommitsIn(gitDir: string, commit: string, dir: string, names: readonly string[]): Promise<Map<string, string>> {
  const want = new Set(names);
  const found = new Map<string, string>();
  if (!want.size) return Promise.resolve(found);
  const prefix = dir ? `${dir}/` : '';
  const args = ['--git-dir', gitDir, '--literal-pathspecs', 'log', '--format=%x01%H', '--name-only', '-z', '--no-renames', '-c', commit, '--'];
  // A few names: limit the walk to exactly them; many: to the directory.
  if (want.size <= 32) args.push(...[...want].map((n) => prefix + n));
  else if (dir) args.push(prefix);
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env: gitEnv(), stdio: ['ignore', 'pipe', 'ignore'] });
    let carry = '';
    let current = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      child.kill();
      resolve(found);
    };
    const onPath = (path: string) => {
      if (!path.startsWith(prefix)) return;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf('/');
      const name = slash < 0 ? rest : rest.slice(0, slash);
      if (want.has(name) && !found.has(name)) {
        found.set(name, current);
        if (found.size === want.size) finish();
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (done) return;
      const parts = (carry + chunk).split('\0');
      carry = parts.pop()!;
      for (let part of parts) {
        if (done) return;
        if (part.startsWith('\n')) part = part.slice(1);
        if (part.startsWith('\x01')) current = part.slice(1);
        else if (part) onPath(part);
      }
    });
    child.on('error', (err) => {
      if (!done) {
        done = true;
        reject(err);
      }
    });
    child.on('close', () => finish());
  });
}

/** Whether commit `a` is an ancestor of (or the same as) commit `b`: moving a branch from a to b is then no force push. */
export async function isAncestor(gitDir: string, a: string, b: string): Promise<boolean> {
  if (a === b) return true;
  const r = await runGit(['merge-base', '--is-ancestor', a, b], { gitDir, okCodes: [1] });
  return r.code === 0;
}

/** Paths whose content differs between two commits (what a push from `a` to `b` changes). */
export async function changedPaths(gitDir: string, a: string, b: string): Promise<string[]> {
  const { stdout } = await runGit(['diff-tree', '-r', '-z', '--name-only', '--no-renames', a, b], { gitDir });
  return stdout.toString('utf8').split('\0').filter(Boolean);
}
