import * as ops from '../../../protocol/gitea/operations/commits.js';
import type { GiteaBinder, GiteaContext } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { pageHeaders, pageOf } from '../http/paginate.js';
import type { CommitStatuses } from '../services/commit-statuses.js';
import type { Commits } from '../services/commits.js';
import type { Site } from '../site.js';
import { commitParts } from './git-data.js';

/** The commit list, comparisons and commit statuses. */
export function mountCommits(b: GiteaBinder, g: { site: Site; commits: Commits; statuses: CommitStatuses }): void {
  b.mount(ops.repoGetAllCommits, async ({ sha, path, not, page, limit, ...a }, ctx) => {
    const res = await g.commits.list(ctx.repo!, { ...(sha ? { sha } : {}), ...(path ? { path } : {}), ...(not ? { not } : {}), ...(page ? { page } : {}), ...(limit ? { limit } : {}) }, commitParts(ctx, a), ctx.doer);
    const pages = Math.ceil(res.total / res.limit);
    // Gitea still sends its older paging headers beside Link and X-Total-Count.
    const headers = pageHeaders(ctx.url, g.site, res.total, res.limit, page, {
      'X-Page': String(res.page),
      'X-PerPage': String(res.limit),
      'X-Total': String(res.total),
      'X-PageCount': String(pages),
      'X-HasMore': String(res.page < pages),
    });
    ctx.replayable();
    return new Reply(200, res.commits, headers);
  });

  b.mount(ops.repoCompareDiff, ({ basehead, ...a }, ctx) => g.commits.compare(ctx.repo!, basehead, commitParts(ctx, { ...a, stat: true }), ctx.doer));

  b.mount(ops.repoCreateStatus, async ({ sha, body }, ctx) => new Reply(201, await g.statuses.create(ctx.repo!, ctx.doer!, sha, body)));

  const listStatuses = async (ref: string, q: { sort?: string | undefined; state?: string | undefined; page?: number | undefined; limit?: number | undefined }, ctx: GiteaContext) => {
    const p = pageOf(q.page, q.limit);
    const res = await g.statuses.list(ctx.repo!, ref, { ...(q.sort ? { sort: q.sort } : {}), ...(q.state ? { state: q.state } : {}), offset: (p.page - 1) * p.limit, limit: p.limit }, ctx.doer);
    return new Reply(200, res.statuses, pageHeaders(ctx.url, g.site, res.total, p.limit, q.page));
  };
  b.mount(ops.repoListStatuses, ({ sha, ...q }, ctx) => listStatuses(sha, q, ctx));
  b.mount(ops.repoListStatusesByRef, ({ ref, ...q }, ctx) => listStatuses(ref, q, ctx));

  b.mount(ops.repoGetCombinedStatusByRef, async ({ ref, page, limit }, ctx) => {
    const res = await g.statuses.combined(ctx.repo!, ref, ctx.doer);
    const p = pageOf(page, limit);
    const statuses = (res.statuses ?? []).slice((p.page - 1) * p.limit, p.page * p.limit);
    const total = res.total_count;
    return new Reply(200, { ...res, statuses, total_count: statuses.length }, { 'X-Total-Count': String(total), 'Access-Control-Expose-Headers': 'X-Total-Count' });
  });
}
