import * as ops from '../../../protocol/gitea/operations/discovery.js';
import type { GiteaBinder, GiteaContext } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { paged } from '../http/paginate.js';
import type { PullMirrors } from '../services/pull-mirrors.js';
import type { RepoQuery, RepoSearch } from '../services/repo-search.js';
import type { RepoContext, RepoService } from '../services/repos.js';
import type { Site } from '../site.js';
import { repoJsonOf } from './repo-json.js';

/** Finding repositories: the search, the signed-in user's list and a user's list. */
export function mountDiscovery(b: GiteaBinder, g: { site: Site; repos: Pick<RepoService, 'facts'>; pullMirrors: Pick<PullMirrors, 'get'>; search: RepoSearch }): void {
  const repoJson = repoJsonOf(g);
  const size = async (ctx: RepoContext) => (await g.repos.facts(ctx)).sizeKiB;
  /** A signed-in caller sees private repositories it may read, unless its token is limited to public ones. */
  const mayIncludePrivate = (ctx: GiteaContext) => !!ctx.doer && !ctx.auth?.scopes?.publicOnly;
  const page = async (q: RepoQuery, ctx: GiteaContext, p: number | undefined, limit: number | undefined) => {
    const one = paged(await g.search.search(q, ctx.doer, size), ctx.url, g.site, p, limit);
    return { data: await Promise.all(one.body.map(repoJson)), headers: one.headers };
  };

  b.mount(ops.repoSearch, async (a, ctx) => {
    const q: RepoQuery = {
      ...(a.q ? { keyword: a.q } : {}),
      topicOnly: a.topic === true,
      includeDesc: a.includeDesc === true,
      ...(a.uid ? { ownerId: a.uid } : {}),
      ...(a.priority_owner_id ? { priorityOwnerId: a.priority_owner_id } : {}),
      ...(a.team_id ? { teamId: a.team_id } : {}),
      ...(a.starredBy ? { starredBy: a.starredBy } : {}),
      private: mayIncludePrivate(ctx) && a.private !== false,
      ...(a.is_private !== undefined ? { isPrivate: a.is_private } : {}),
      ...(a.template !== undefined ? { template: a.template } : {}),
      ...(a.archived !== undefined ? { archived: a.archived } : {}),
      ...(a.mode ? { mode: a.mode } : {}),
      exclusive: a.exclusive === true,
      ...(a.sort ? { sort: a.sort } : {}),
      ...(a.order ? { order: a.order } : {}),
    };
    const r = await page(q, ctx, a.page, a.limit);
    return new Reply(200, { ok: true, data: r.data }, r.headers);
  });

  b.mount(ops.userCurrentListRepos, async ({ page: p, limit }, ctx) => {
    const r = await page({ ownerId: ctx.doer!.id, private: mayIncludePrivate(ctx) }, ctx, p, limit);
    return new Reply(200, r.data, r.headers);
  });

  // Gitea counts every repository of the user in X-Total-Count, also private ones the caller cannot
  // see; here the count is of what the list can show, so it reveals nothing more than the list.
  b.mount(ops.userListRepos, async ({ page: p, limit }, ctx) => {
    const r = await page({ ownerId: ctx.contextUser!.id, exclusive: true, private: mayIncludePrivate(ctx), sort: 'id' }, ctx, p, limit);
    return new Reply(200, r.data, r.headers);
  });
}
