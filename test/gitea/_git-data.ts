/** Shared set-up of the git data and commits suites: a repository filled by real `git push`es. */
import { cloneUrl, commitFiles, git, gitAsync, gitDirOf, type Account, type GiteaWorld } from '../_helpers/gitea.js';
import { tempDir } from '../_helpers/temp-dir.js';

/** A working copy of `owner/name` (cloned with the owner's token) and the server's bare repository. */
export interface Site {
  work: string;
  bare: string;
  push(...refs: string[]): Promise<void>;
  /** git in the bare repository the server serves. */
  bareGit(args: string[]): string;
}

/** Creates `owner/name` with its initial commit and clones it. */
export async function siteRepo(g: GiteaWorld, owner: Account, name: string, opts: { private?: boolean } = {}): Promise<Site> {
  const repo = await g.repo(name, { owner, ...opts });
  const work = tempDir(`gd-${name}`);
  await gitAsync(['clone', '-q', cloneUrl(g, owner.name, name, owner), work]);
  const bare = gitDirOf(g, repo.id);
  return {
    work,
    bare,
    async push(...refs) {
      await gitAsync(['push', '-q', 'origin', ...(refs.length ? refs : ['main'])], { cwd: work });
    },
    bareGit: (args) => git(['--git-dir', bare, ...args]).stdout,
  };
}

export { commitFiles };
