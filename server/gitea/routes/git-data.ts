import * as ops from '../../../protocol/gitea/operations/git-data.js';
import type { GiteaBinder, GiteaContext } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { flag, type CommitParts } from '../services/commit-json.js';
import type { Commits } from '../services/commits.js';
import type { GitData } from '../services/git-data.js';

/** Gitea's default-on commit flags: a flag left out or empty counts as true. */
export const commitParts = (ctx: GiteaContext, a: { stat?: boolean; verification?: boolean; files?: boolean }): CommitParts => ({
  stat: flag(a.stat, ctx.url.searchParams.get('stat')),
  verification: flag(a.verification, ctx.url.searchParams.get('verification')),
  files: flag(a.files, ctx.url.searchParams.get('files')),
});

/** The git data API: trees, single commits and their diffs, references, annotated tags, notes. */
export function mountGitData(b: GiteaBinder, g: { gitData: GitData; commits: Commits }): void {
  b.mount(ops.getTree, async ({ sha, recursive, page, per_page }, ctx) => {
    const tree = await g.gitData.tree(ctx.repo!, sha, { recursive, page, per_page });
    ctx.replayable();
    return new Reply(200, tree, { 'X-Total-Count': String(tree.total_count), 'Access-Control-Expose-Headers': 'X-Total-Count' });
  });
  // Each diff route before its single commit route: `{sha}.diff` would otherwise be read as a commit name.
  for (const [diffOp, oneOp] of [
    [ops.repoDownloadCommitDiffOrPatch, ops.repoGetSingleCommit],
    [ops.repoDownloadCommitDiffOrPatchByPath, ops.repoGetSingleCommitByPath],
  ] as const) {
    b.mount(diffOp, async ({ sha, diffType }, ctx) =>
      new Response(new Uint8Array(await g.commits.diff(ctx.repo!, sha, diffType)), { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
    );
    b.mount(oneOp, async ({ sha, ...a }, ctx) => {
      const one = await g.commits.one(ctx.repo!, sha, commitParts(ctx, a), ctx.doer);
      ctx.replayable();
      return one;
    });
  }
  b.mount(ops.repoListAllGitRefs, async (_a, ctx) => {
    const refs = await g.gitData.refs(ctx.repo!, '');
    return Array.isArray(refs) ? refs : [refs];
  });
  b.mount(ops.repoListGitRefs, ({ ref }, ctx) => g.gitData.refs(ctx.repo!, ref));
  b.mount(ops.getAnnotatedTag, ({ sha }, ctx) => g.gitData.tag(ctx.repo!, sha));
  b.mount(ops.repoGetNote, ({ sha, ...a }, ctx) => g.gitData.note(ctx.repo!, sha, commitParts(ctx, { ...a, stat: true }), ctx.doer));
}
