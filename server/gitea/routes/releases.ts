import * as ops from '../../../protocol/gitea/operations/releases.js';
import type { GiteaBinder } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { pageHeaders, pageOf } from '../http/paginate.js';
import type { Releases } from '../services/releases.js';
import type { Site } from '../site.js';

/** Releases: list, latest, one by id or tag, create, edit, delete (their files: release-assets.ts). */
export function mountReleases(b: GiteaBinder, g: { site: Site; releases: Releases }): void {
  b.mount(ops.repoListReleases, ({ draft, 'pre-release': prerelease, page, limit }, ctx) => {
    const p = pageOf(page, limit);
    const res = g.releases.list(ctx.repo!, ctx.auth, { draft, prerelease, ...p });
    return new Reply(200, res.releases, pageHeaders(ctx.url, g.site, res.total, p.limit, page));
  });
  // `latest` before `{id}`: the router takes the first match.
  b.mount(ops.repoGetLatestRelease, (_a, ctx) => g.releases.latest(ctx.repo!, ctx.doer));
  b.mount(ops.repoCreateRelease, async ({ body }, ctx) => new Reply(201, await g.releases.create(ctx.repo!, ctx.doer!, body)));
  b.mount(ops.repoGetReleaseByTag, ({ tag }, ctx) => g.releases.byTag(ctx.repo!, tag, ctx.doer));
  b.mount(ops.repoDeleteReleaseByTag, ({ tag }, ctx) => g.releases.removeByTag(ctx.repo!, tag, ctx.doer!));
  b.mount(ops.repoGetRelease, ({ id }, ctx) => g.releases.get(ctx.repo!, id, ctx.doer));
  b.mount(ops.repoEditRelease, ({ id, body }, ctx) => g.releases.edit(ctx.repo!, ctx.doer!, id, body));
  b.mount(ops.repoDeleteRelease, ({ id }, ctx) => g.releases.remove(ctx.repo!, id, ctx.doer!));
}
