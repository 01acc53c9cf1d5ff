import * as ops from '../../../protocol/gitea/operations/contents.js';
import { badRequest, forbidden, unprocessable } from '../../errors.js';
import type { GiteaBinder, GiteaContext } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { decodeBase64 } from '../../util/go-base64.js';
import type { ContentsReader } from '../services/contents.js';
import { type ContentsBatch, DEFAULT_MAX_RESPONSE_SIZE } from '../services/contents-batch.js';
import { DEFAULT_PAGE_SIZE } from '../http/paginate.js';
import type { Files } from '../services/files.js';
import type { ChangeFile, ChangeRequest, Operation } from '../services/change-request.js';

type FileOpts = {
  message?: string;
  branch?: string;
  new_branch?: string;
  force_push?: boolean;
  author?: { name?: string; email?: string };
  committer?: { name?: string; email?: string };
  dates?: { author?: string; committer?: string };
  signoff?: boolean;
};

/** Gitea's ReqChangeRepoFileOptionsAndCheck: the caller must be able to write to the target branch. */
function request(ctx: GiteaContext, body: FileOpts, files: ChangeFile[], extra: Partial<ChangeRequest> = {}): ChangeRequest {
  const repo = ctx.repo!;
  if (!repo.perm.write) throw forbidden('user should have a permission to write to the target branch');
  return {
    files,
    message: body.message ?? '',
    branch: body.branch ?? '',
    newBranch: body.new_branch ?? '',
    forcePush: body.force_push ?? false,
    ...(body.author ? { author: body.author } : {}),
    ...(body.committer ? { committer: body.committer } : {}),
    dates: body.dates ?? {},
    signoff: body.signoff ?? false,
    ...extra,
  };
}

/** The batch read's limits, as /settings/api announces them. */
const BATCH_LIMITS = { maxItems: DEFAULT_PAGE_SIZE, maxBytes: DEFAULT_MAX_RESPONSE_SIZE };

/** A file-contents body's paths; anything else is Gitea's 400. */
function batchPaths(json: string | undefined): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? '');
  } catch {
    throw badRequest('invalid body parameter');
  }
  const files = parsed && typeof parsed === 'object' ? (parsed as { files?: unknown }).files : undefined;
  if (files !== undefined && files !== null && !(Array.isArray(files) && files.every((f) => typeof f === 'string'))) throw badRequest('invalid body parameter');
  return (files as string[] | null | undefined) ?? [];
}

/** The contents API (read and write, single and batch) and git blobs. */
export function mountContents(b: GiteaBinder, g: { files: Files; contents: ContentsReader; batch: ContentsBatch }): void {
  b.mount(ops.repoGetFileContentsPost, ({ ref, body }, ctx) => g.batch.files(ctx.repo!, ref, body.files ?? [], BATCH_LIMITS));
  b.mount(ops.repoGetFileContents, ({ ref, body }, ctx) => g.batch.files(ctx.repo!, ref, batchPaths(body), BATCH_LIMITS));
  b.mount(ops.repoGetContentsExt, ({ filepath, ref, includes }, ctx) => g.batch.ext(ctx.repo!, ref, filepath, includes));
  b.mount(ops.repoGetContentsExtRoot, ({ ref, includes }, ctx) => g.batch.ext(ctx.repo!, ref, '', includes));

  b.mount(ops.repoGetContentsList, async ({ ref }, ctx) => {
    const res = await g.contents.get(ctx.repo!, ref, '');
    ctx.replayable();
    return Array.isArray(res) ? res : [res];
  });
  b.mount(ops.repoGetContents, async ({ filepath, ref }, ctx) => {
    const res = await g.contents.get(ctx.repo!, ref, filepath);
    ctx.replayable();
    return res;
  });

  b.mount(ops.repoChangeFiles, async ({ body }, ctx) => {
    const files: ChangeFile[] = (body.files ?? []).map((f) => {
      if (!f) throw unprocessable('[Files]: Required');
      return {
        operation: f.operation as Operation,
        path: f.path ?? '',
        ...(f.from_path ? { fromPath: f.from_path } : {}),
        // Gitea decodes every entry's content, a delete's too (an invalid one is 422 all the same).
        content: decodeBase64(f.content ?? ''),
        ...(f.sha ? { sha: f.sha } : {}),
      };
    });
    const res = await g.files.change(ctx.repo!, ctx.doer!, request(ctx, body, files));
    return new Reply(201, res);
  });

  b.mount(ops.repoCreateFile, async ({ filepath, body }, ctx) => {
    const res = await g.files.change(ctx.repo!, ctx.doer!, request(ctx, body, [{ operation: 'create', path: filepath, content: decodeBase64(body.content ?? '') }]));
    return new Reply(201, { content: res.files[0] ?? null, commit: res.commit, verification: res.verification });
  });

  b.mount(ops.repoUpdateFile, async ({ filepath, body }, ctx) => {
    // Spec rule 7: updating in an empty repository is 422.
    if (await g.contents.isEmpty(ctx.repo!)) {
      if (!ctx.repo!.perm.write) throw forbidden('user should have a permission to write to the target branch');
      throw unprocessable('repo is empty');
    }
    // Current Gitea: without a sha the file is written whether or not it exists, and the answer is 201.
    const operation: Operation = body.sha ? 'update' : 'upload';
    const file: ChangeFile = { operation, path: filepath, content: decodeBase64(body.content ?? ''), ...(body.sha ? { sha: body.sha } : {}), ...(body.from_path ? { fromPath: body.from_path } : {}) };
    if (!body.sha && body.from_path) file.operation = 'rename';
    const res = await g.files.change(ctx.repo!, ctx.doer!, request(ctx, body, [file]));
    return new Reply(body.sha ? 200 : 201, { content: res.files[0] ?? null, commit: res.commit, verification: res.verification });
  });

  b.mount(ops.repoDeleteFile, async ({ filepath, body }, ctx) => {
    const res = await g.files.change(ctx.repo!, ctx.doer!, request(ctx, body, [{ operation: 'delete', path: filepath, ...(body.sha ? { sha: body.sha } : {}) }], { deleteEndpoint: true }));
    return { content: null, commit: res.commit, verification: res.verification };
  });

  b.mount(ops.getBlob, ({ sha }, ctx) => {
    if (!sha) throw badRequest('sha not provided');
    return g.contents.blob(ctx.repo!, sha);
  });
}
