import * as ops from '../../../protocol/gitea/operations/raw.js';
import { notFound } from '../../errors.js';
import type { GiteaBinder, GiteaContext } from '../http/gitea-bind.js';
import type { GitStore } from '../git/store.js';
import { resolveLegacy } from '../services/refs.js';
import { serveBlob, type ServeBlobDeps } from '../services/serve-blob.js';

/** Gitea's RepoRefForAPI for /raw and /media: an empty repository has no ref to guess. */
async function target(g: { git: GitStore }, ctx: GiteaContext, filepath: string, ref: string | undefined) {
  const repo = ctx.repo!;
  if ((await g.git.refs(repo.gitDir)).branches.size === 0) throw notFound('repository is empty');
  return { repo, ...(await resolveLegacy(g.git, repo, filepath, ref)) };
}

/** /raw and /media: a file (or its LFS object) with Gitea's serving headers. */
export function mountRaw(b: GiteaBinder, g: ServeBlobDeps): void {
  b.mount(ops.repoGetRawFile, async ({ filepath, ref }, ctx) => serveBlob(g, ctx.req, { ...(await target(g, ctx, filepath, ref)), media: false }));
  b.mount(ops.repoGetRawFileOrLFS, async ({ filepath, ref }, ctx) => serveBlob(g, ctx.req, { ...(await target(g, ctx, filepath, ref)), media: true }));
}
