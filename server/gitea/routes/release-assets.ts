import * as ops from '../../../protocol/gitea/operations/release-assets.js';
import { formBoundary, formFile } from '../../http/multipart-file.js';
import type { GiteaBinder, GiteaContext } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import type { ReleaseAssets, Upload } from '../services/release-assets.js';

/** An empty body stream: what a raw upload without a body carries. */
async function* nothing(): AsyncGenerator<Uint8Array> {}

/**
 * The upload as Gitea reads it: a multipart form's `attachment` file (named by
 * the form unless `name` is given), or else the raw body, named by `name`.
 */
async function upload(ctx: GiteaContext, name: string | undefined): Promise<Upload> {
  const req = ctx.req;
  const boundary = formBoundary(req.headers.get('content-type'));
  if (boundary !== null) {
    const file = await formFile(req.body, boundary, 'attachment');
    return { name: name || file.filename, data: file.data };
  }
  return { name: name ?? '', data: req.body ?? nothing() };
}

/** Release files: list, upload, one, rename, remove. */
export function mountReleaseAssets(b: GiteaBinder, g: { releaseAssets: ReleaseAssets }): void {
  b.mount(ops.repoListReleaseAttachments, ({ id }, ctx) => g.releaseAssets.list(ctx.repo!, id, ctx.doer));
  b.mount(ops.repoCreateReleaseAttachment, async ({ id, name }, ctx) => new Reply(201, await g.releaseAssets.upload(ctx.repo!, ctx.doer!, id, () => upload(ctx, name))));
  b.mount(ops.repoGetReleaseAttachment, ({ id, attachment_id }, ctx) => g.releaseAssets.get(ctx.repo!, id, attachment_id, ctx.doer));
  b.mount(ops.repoEditReleaseAttachment, ({ id, attachment_id, body }, ctx) => g.releaseAssets.edit(ctx.repo!, ctx.doer!, id, attachment_id, body.name));
  b.mount(ops.repoDeleteReleaseAttachment, ({ id, attachment_id }, ctx) => g.releaseAssets.remove(ctx.repo!, ctx.doer!, id, attachment_id));
}
