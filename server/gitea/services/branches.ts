import { notFound } from '../../errors.js';
import type { Commit } from '../git/commit.js';
import type { GitStore } from '../git/store.js';
import type { RepoContext } from './repos.js';

/** A branch and its head commit (null when the commit cannot be read). */
export interface BranchHead {
  name: string;
  commit: Commit | null;
}

/** Reading branches and their head commits. */
export function createBranches(git: GitStore) {
  return {
    /** Every branch, as Gitea lists them: by their head commit's time, newest first, then by name. */
    async list(repo: RepoContext): Promise<BranchHead[]> {
      const refs = await git.refs(repo.gitDir);
      const all = await Promise.all([...refs.branches].map(async ([name, sha]) => ({ name, commit: await git.commit(repo.gitDir, sha) })));
      all.sort((x, y) => (y.commit?.committer.when ?? 0) - (x.commit?.committer.when ?? 0) || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
      return all;
    },
    /** One branch (404 `not found` when there is none of that name). */
    async get(repo: RepoContext, name: string): Promise<BranchHead> {
      const sha = (await git.refs(repo.gitDir)).branches.get(name);
      if (!sha) throw notFound('not found');
      return { name, commit: await git.commit(repo.gitDir, sha) };
    },
  };
}

/** The branch reader's interface. */
export type Branches = ReturnType<typeof createBranches>;
