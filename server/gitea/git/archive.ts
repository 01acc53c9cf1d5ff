import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ChildOutput } from './child-output.js';
import { gitEnv } from './run.js';

/**
 * `git archive` of one commit, streamed: every entry under `prefix`, limited
 * to `paths` when given (taken literally, not as pathspec globs).
 */
export function gitArchive(gitDir: string, opts: { format: 'zip' | 'tar.gz'; prefix: string; commit: string; paths?: readonly string[] }): ChildOutput {
  const args = ['archive', `--format=${opts.format}`, `--prefix=${opts.prefix}`, opts.commit, ...(opts.paths?.length ? ['--', ...opts.paths] : [])];
  const child = spawn('git', ['--git-dir', gitDir, ...args], { env: gitEnv({ GIT_LITERAL_PATHSPECS: '1' }), stdio: ['ignore', 'pipe', 'pipe'] });
  return new ChildOutput(child, args);
}

/**
 * A bundle of everything reachable from `commit`, whose `HEAD` (and branch
 * `bundle`, as Gitea's) is that commit, streamed by `git bundle create -`.
 *
 * The refs a bundle names must exist in the repository it is made from, and
 * the served repository must not grow refs for it (pushes, mirrors and
 * clones would see them; a crash would leave them behind). So the bundle is
 * made in a throwaway bare repository that borrows the served objects
 * through `objects/info/alternates`: it reads them without any write ever
 * landing in the served repository, and deleting the directory afterwards
 * is the whole cleanup. The directory is written by hand (four small files)
 * rather than with `git init`, sparing a process per download.
 */
export async function gitBundle(gitDir: string, commit: string): Promise<ChildOutput> {
  const tmp = await mkdtemp(join(tmpdir(), 'trunkline-bundle-'));
  try {
    await mkdir(join(tmp, 'objects', 'info'), { recursive: true });
    await mkdir(join(tmp, 'refs', 'heads'), { recursive: true });
    await writeFile(join(tmp, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = true\n');
    await writeFile(join(tmp, 'HEAD'), 'ref: refs/heads/bundle\n');
    await writeFile(join(tmp, 'refs', 'heads', 'bundle'), `${commit}\n`);
    await writeFile(join(tmp, 'objects', 'info', 'alternates'), `${resolve(gitDir, 'objects')}\n`);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
  const args = ['bundle', 'create', '--quiet', '-', 'bundle', 'HEAD'];
  const child = spawn('git', ['--git-dir', tmp, ...args], { env: gitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const out = new ChildOutput(child, args);
  void out.done.then(() => rm(tmp, { recursive: true, force: true }));
  return out;
}
