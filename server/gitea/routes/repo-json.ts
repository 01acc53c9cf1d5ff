import { formatGoDuration } from '../../util/go-duration.js';
import { goTime } from '../../util/go-format.js';
import { toRepository } from '../convert.js';
import type { PullMirrors } from '../services/pull-mirrors.js';
import type { RepoContext, RepoService } from '../services/repos.js';
import type { Site } from '../site.js';

/** Builds a repository's JSON as the caller sees it; a pull mirror also shows its interval and last sync, as Gitea does. */
export function repoJsonOf(g: { site: Site; repos: Pick<RepoService, 'facts'>; pullMirrors: Pick<PullMirrors, 'get'> }) {
  return async (ctx: RepoContext) => {
    const json = toRepository(ctx.row, ctx.owner, ctx.perm, await g.repos.facts(ctx), g.site);
    const pull = ctx.row.is_mirror ? g.pullMirrors.get(ctx.row.id) : undefined;
    if (pull) Object.assign(json, { mirror_interval: formatGoDuration(pull.interval_ns), mirror_updated: goTime(pull.last_update) });
    return json;
  };
}
