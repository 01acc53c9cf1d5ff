import { notFound } from '../../errors.js';
import type { GitStore } from '../git/store.js';
import { resolveLegacy, resolveTyped, type RefCommit } from './refs.js';
import type { RepoContext } from './repos.js';

/** A ref and the tree path after it, as the raw routes resolve them. */
export interface ResolvedPath {
  ref: RefCommit;
  treePath: string;
}

/** Resolving the refs routes name (see refs.ts for Gitea's rules), for callers that hold no git handle. */
export function createRefResolver(git: GitStore) {
  return {
    /** Whether the repository has no branch yet. */
    isEmpty: (repo: RepoContext): Promise<boolean> => git.isEmpty(repo.gitDir),
    /** Gitea's RepoRefForAPI: an empty repository has no ref to guess (404), else the legacy guess. */
    async forApi(repo: RepoContext, reqPath: string, ref: string | undefined): Promise<ResolvedPath> {
      if (await git.isEmpty(repo.gitDir)) throw notFound('repository is empty');
      return resolveLegacy(git, repo, reqPath, ref);
    },
    /** `{ref-or-path}` guessed as Gitea's legacy raw URLs do. */
    legacy: (repo: RepoContext, reqPath: string, ref: string | undefined): Promise<ResolvedPath> => resolveLegacy(git, repo, reqPath, ref),
    /** `{branch|tag|commit}/{ref}/{path}`, as download_url names a file. */
    typed: (repo: RepoContext, kind: string, rest: string): Promise<ResolvedPath> => resolveTyped(git, repo, kind, rest),
  };
}

/** The ref resolver's interface. */
export type RefResolver = ReturnType<typeof createRefResolver>;
