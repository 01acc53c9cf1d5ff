import * as ops from '../../../protocol/gitea/operations/raw.js';
import { notFound } from '../../errors.js';
import type { GiteaBinder } from '../http/gitea-bind.js';
import type { GitStore } from '../git/store.js';
import { editorConfigFor } from '../services/editorconfig.js';
import { cleanTreePath, resolveLegacy } from '../services/refs.js';

/**
 * /editorconfig/{filepath}. Gitea's route takes one path segment (a file
 * name); we accept a path, matched from the repository root, which is what
 * an editor asking about `src/main.ts` needs.
 */
export function mountEditorConfig(b: GiteaBinder, g: { git: GitStore }): void {
  b.mount(ops.repoGetEditorConfig, async ({ filepath, ref }, ctx) => {
    const repo = ctx.repo!;
    // RepoRefForAPI: empty repository, then Gitea's ref guessing with `ref` alone (this route has no `*` path).
    if ((await g.git.refs(repo.gitDir)).branches.size === 0) throw notFound('repository is empty');
    const { ref: resolved } = await resolveLegacy(g.git, repo, '', ref);
    const file = cleanTreePath(filepath);
    if (!file) throw notFound('not found');
    return editorConfigFor(g.git, repo.gitDir, resolved.commit, file);
  });
}
