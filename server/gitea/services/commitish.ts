import type { GitStore } from '../git/store.js';
import { resolveRef } from './refs.js';
import type { RepoContext } from './repos.js';

/**
 * The commit a start point names, as Gitea's GetCommit reads it for new branches and tags: a
 * branch, a tag, a full commit id, or an abbreviated one (hex only, so nothing else reaches git).
 * A name that resolves to nothing fails with resolveRef's "object does not exist" error.
 */
export async function resolveCommitish(git: GitStore, repo: RepoContext, name: string): Promise<string> {
  try {
    return (await resolveRef(git, repo, name)).commit;
  } catch (err) {
    if (/^[0-9a-f]{4,39}$/.test(name)) {
      const info = await git.info(repo.gitDir, `${name}^{commit}`);
      if (info) return info.sha;
    }
    throw err;
  }
}
