import * as ops from '../../../protocol/gitea/operations/raw.js';
import type { GiteaBinder, GiteaContext } from '../http/bind.js';
import type { RefResolver } from '../services/ref-resolver.js';
import { serveBlob, type ServeBlobDeps } from '../web/serve-blob.js';

/** Gitea's RepoRefForAPI for /raw and /media: an empty repository has no ref to guess. */
async function target(g: { refs: RefResolver }, ctx: GiteaContext, filepath: string, ref: string | undefined) {
  const repo = ctx.repo!;
  return { repo, ...(await g.refs.forApi(repo, filepath, ref)) };
}

/** /raw and /media: a file (or its LFS object) with Gitea's serving headers. */
export function mountRaw(b: GiteaBinder, g: ServeBlobDeps & { refs: RefResolver }): void {
  b.mount(ops.repoGetRawFile, async ({ filepath, ref }, ctx) => serveBlob(g, ctx.req, { ...(await target(g, ctx, filepath, ref)), media: false }));
  b.mount(ops.repoGetRawFileOrLFS, async ({ filepath, ref }, ctx) => serveBlob(g, ctx.req, { ...(await target(g, ctx, filepath, ref)), media: true }));
}
