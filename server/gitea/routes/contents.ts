import * as ops from '../../../protocol/gitea/operations/contents.js';
import { badRequest, forbidden, notFound, unprocessable } from '../../errors.js';
import type { GiteaBinder, GiteaContext } from '../http/gitea-bind.js';
import { Reply } from '../http/gitea-bind.js';
import type { GitStore } from '../git/store.js';
import type { ContentsReader } from '../services/contents.js';
import type { Files } from '../services/files.js';
import type { Site } from '../site.js';
import type { ChangeFile, ChangeRequest, Operation } from '../services/files.js';
import { LFS_POINTER_MAX, parsePointer } from '../services/lfs-pointer.js';

const B64 = /[A-Za-z0-9+/]/;

/**
 * Go's base64.StdEncoding.DecodeString: padded standard alphabet, line feeds
 * and carriage returns skipped anywhere; a bad input is Go's error text with
 * the offset Go reports (422).
 */
export function decodeBase64(s: string): Buffer {
  const bad = (at: number) => unprocessable(`illegal base64 data at input byte ${at}`);
  const isNl = (c: string | undefined) => c === '\n' || c === '\r';
  let clean = '';
  let si = 0;
  while (si < s.length) {
    // One quantum of four characters, as Go's decodeQuantum reads it.
    let j = 0;
    let quantum = '';
    for (; j < 4; j++) {
      if (si === s.length) {
        if (j === 0) break;
        throw bad(si - j); // padding is required: a short last quantum is corrupt
      }
      const c = s[si++]!;
      if (isNl(c)) {
        j--;
        continue;
      }
      if (B64.test(c)) {
        quantum += c;
        continue;
      }
      if (c !== '=') throw bad(si - 1);
      // Padding: only as the third or fourth character, "==" after two.
      if (j < 2) throw bad(si - 1);
      if (j === 2) {
        while (si < s.length && isNl(s[si])) si++;
        if (si === s.length) throw bad(s.length);
        if (s[si] !== '=') throw bad(si - 1);
        si++;
      }
      while (si < s.length && isNl(s[si])) si++;
      if (si < s.length) throw bad(si); // anything after the padding
      clean += quantum;
      return Buffer.from(clean, 'base64');
    }
    clean += quantum;
  }
  return Buffer.from(clean, 'base64');
}

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

/** The contents API (read and write) and git blobs. */
export function mountContents(b: GiteaBinder, g: { files: Files; contents: ContentsReader; git: GitStore; site: Site; config: { apiMaxBlobSize: number } }): void {
  b.mount(ops.repoGetContentsList, async ({ ref }, ctx) => {
    const res = await g.contents.get(ctx.repo!, ref, '');
    return Array.isArray(res) ? res : [res];
  });
  b.mount(ops.repoGetContents, ({ filepath, ref }, ctx) => g.contents.get(ctx.repo!, ref, filepath));

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
    if ((await g.git.refs(ctx.repo!.gitDir)).branches.size === 0) {
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

  b.mount(ops.getBlob, async ({ sha }, ctx) => {
    const repo = ctx.repo!;
    if (!sha) throw badRequest('sha not provided');
    const info = /^[0-9a-f]{4,40}$/.test(sha) ? await g.git.info(repo.gitDir, sha) : null;
    if (!info || info.type !== 'blob') throw notFound(`object does not exist [id: ${sha}, rel_path: ]`);
    const url = `${g.site.repoApi(repo.owner, repo.row)}/git/blobs/${info.sha}`;
    if (info.size > g.config.apiMaxBlobSize) return { content: null, encoding: null, url, sha: info.sha, size: info.size };
    const data = (await g.git.blob(repo.gitDir, info.sha)) ?? Buffer.alloc(0);
    const pointer = data.length > 0 && data.length < LFS_POINTER_MAX ? parsePointer(data) : null;
    return {
      content: data.toString('base64'),
      encoding: 'base64',
      url,
      sha: info.sha,
      size: info.size,
      ...(pointer ? { lfs_oid: pointer.oid, lfs_size: pointer.size } : {}),
    };
  });
}
