import type { UserRow } from '../../db/repos/user-repo.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { casRef, ZERO_SHA } from '../git/refs.js';
import type { GitStore } from '../git/store.js';
import type { CommitPublisher } from './commit-bus.js';
import type { Protections } from './protections.js';
import { decidePush } from './push-rules.js';
import { resolveCommitish } from './commitish.js';
import type { RepoContext } from './repos.js';

/** Where a new branch starts (Gitea's CreateBranchRepoOption). */
export interface NewBranch {
  new_branch_name: string;
  old_branch_name?: string | undefined;
  old_ref_name?: string | undefined;
}

const MAX_ATTEMPTS = 5;

/**
 * Creating and deleting branches through the API. Each change is a compare-and-swap of the ref
 * (as API commits make), then announced on the commit bus, so push mirrors that sync on commit
 * and the repository event stream see it; a deletion is announced with the all-zero id.
 */
export function createBranchWriter(deps: { git: GitStore; protections: Protections; commits: CommitPublisher; touch: (repo: RepoContext) => void }) {
  const { git } = deps;

  /** Gitea's checks before any branch write: an empty repository has nothing to branch from, a pull mirror takes no writes. */
  async function writable(repo: RepoContext): Promise<void> {
    if (await git.isEmpty(repo.gitDir)) throw notFound('Git Repository is empty.');
    if (repo.row.is_mirror) throw forbidden('Git Repository is a mirror.');
  }

  /** Gitea's checkBranchName: the name, or a path prefix of it, or a name it is a path prefix of, is taken; so is a tag's name. */
  async function checkFree(repo: RepoContext, name: string): Promise<void> {
    const refs = await git.refs(repo.gitDir);
    for (const b of refs.branches.keys()) {
      if (b === name) throw conflict('The branch already exists.');
      if (b.startsWith(`${name}/`) || name.startsWith(`${b}/`)) throw conflict('The branch with the same name already exists.');
    }
    if (refs.tags.has(name)) throw conflict('The branch with the same tag already exists.');
  }

  async function startPoint(repo: RepoContext, opt: NewBranch): Promise<string> {
    if (opt.old_ref_name) return resolveCommitish(git, repo, opt.old_ref_name);
    const refs = await git.refs(repo.gitDir);
    const from = opt.old_branch_name || repo.row.default_branch;
    const sha = refs.branches.get(from);
    if (!sha) throw notFound('The old branch does not exist');
    return sha;
  }

  return {
    /** Creates the branch and answers its name and head. */
    async create(repo: RepoContext, doer: UserRow, opt: NewBranch): Promise<{ name: string; sha: string }> {
      await writable(repo);
      const name = opt.new_branch_name;
      const sha = await startPoint(repo, opt);
      await git.writes.run(`${repo.gitDir}\0${name}`, async () => {
        await checkFree(repo, name);
        // Gitea creates the branch by pushing it, so its pre-receive rules (protected branch patterns) apply.
        const verdict = await decidePush(deps.protections, repo, doer, [{ old: ZERO_SHA, new: sha, ref: `refs/heads/${name}`, forced: false, paths: [], firstCommit: null }]);
        if ('ok' in verdict && !verdict.ok) throw forbidden(verdict.message);
        if (git.beforeRefSwap) await git.beforeRefSwap(repo.gitDir, `refs/heads/${name}`, null);
        if (!(await casRef(repo.gitDir, `refs/heads/${name}`, sha, null))) {
          git.invalidate(repo.gitDir);
          throw conflict('The branch already exists.');
        }
        git.branchMoved(repo.gitDir, name, sha);
      });
      deps.touch(repo);
      deps.commits.publish(repo, name, sha);
      return { name, sha };
    },

    /** Deletes the branch; Gitea refuses the default branch and any branch a protection rule matches. */
    async remove(repo: RepoContext, name: string): Promise<void> {
      await writable(repo);
      if (name === repo.row.default_branch) throw forbidden('can not delete default branch');
      if (deps.protections.matchFor(repo.row.id, name)) throw forbidden('branch protected');
      await git.writes.run(`${repo.gitDir}\0${name}`, async () => {
        for (let i = 0; i < MAX_ATTEMPTS; i++) {
          const sha = (await git.refs(repo.gitDir)).branches.get(name);
          if (!sha) throw notFound('not found');
          if (git.beforeRefSwap) await git.beforeRefSwap(repo.gitDir, `refs/heads/${name}`, sha);
          const swapped = await casRef(repo.gitDir, `refs/heads/${name}`, ZERO_SHA, sha);
          git.invalidate(repo.gitDir);
          if (swapped) return;
        }
        throw new Error(`branch ${name} kept moving; gave up after ${MAX_ATTEMPTS} attempts`);
      });
      deps.touch(repo);
      deps.commits.publish(repo, name, ZERO_SHA);
    },
  };
}

/** The branch writer's interface. */
export type BranchWriter = ReturnType<typeof createBranchWriter>;
