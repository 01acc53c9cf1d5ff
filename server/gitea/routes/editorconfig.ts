import * as ops from '../../../protocol/gitea/operations/raw.js';
import { notFound } from '../../errors.js';
import type { GiteaBinder } from '../http/bind.js';
import type { createEditorConfigReader } from '../services/editorconfig.js';
import type { RefResolver } from '../services/ref-resolver.js';
import { cleanTreePath } from '../services/refs.js';

/**
 * /editorconfig/{filepath}. Gitea's route takes one path segment (a file
 * name); we accept a path, matched from the repository root, which is what
 * an editor asking about `src/main.ts` needs.
 */
export function mountEditorConfig(b: GiteaBinder, g: { refs: RefResolver; editorConfig: ReturnType<typeof createEditorConfigReader> }): void {
  b.mount(ops.repoGetEditorConfig, async ({ filepath, ref }, ctx) => {
    const repo = ctx.repo!;
    // RepoRefForAPI: empty repository, then Gitea's ref guessing with `ref` alone (this route has no `*` path).
    const { ref: resolved } = await g.refs.forApi(repo, '', ref);
    const file = cleanTreePath(filepath);
    if (!file) throw notFound('not found');
    return g.editorConfig.forFile(repo, resolved.commit, file);
  });
}
