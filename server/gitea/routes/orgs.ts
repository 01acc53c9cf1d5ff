import * as ops from '../../../protocol/gitea/operations/orgs.js';
import { notFound } from '../../errors.js';
import { toUser } from '../convert.js';
import type { GiteaBinder } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { paged } from '../http/paginate.js';
import type { Files } from '../services/files.js';
import type { OrgService } from '../services/orgs.js';
import type { PullMirrors } from '../services/pull-mirrors.js';
import type { RepoSearch } from '../services/repo-search.js';
import type { RepoService } from '../services/repos.js';
import type { Site } from '../site.js';
import { createRepoFor } from './create-repo.js';
import { toOrganization, toTeam } from './org-json.js';
import { repoJsonOf } from './repo-json.js';

/** What the organisation routes use. */
export interface OrgRoutesDeps {
  site: Site;
  orgs: OrgService;
  repos: RepoService;
  files: Files;
  pullMirrors: Pick<PullMirrors, 'get'>;
  search: RepoSearch;
}

/** Organisations, their members and teams, and their repositories. */
export function mountOrgs(b: GiteaBinder, g: OrgRoutesDeps): void {
  const repoJson = repoJsonOf(g);

  b.mount(ops.orgCreate, ({ body }, ctx) => new Reply(201, toOrganization(g.orgs.create(ctx.doer!, { ...body, username: body.username ?? '' }), ctx.doer)));
  b.mount(ops.orgGetAll, ({ page, limit }, ctx) => paged(g.orgs.listVisible(ctx.auth).map((o) => toOrganization(o, ctx.doer)), ctx.url, g.site, page, limit));
  b.mount(ops.orgGet, (_a, ctx) => toOrganization(ctx.org!, ctx.doer));
  b.mount(ops.orgEdit, ({ body }, ctx) => toOrganization(g.orgs.edit(ctx.org!, body), ctx.doer));
  b.mount(ops.orgDelete, (_a, ctx) => g.orgs.remove(ctx.org!));

  b.mount(ops.orgListCurrentUserOrgs, ({ page, limit }, ctx) => paged(g.orgs.orgsOf(ctx.doer!, ctx.auth).map((o) => toOrganization(o, ctx.doer)), ctx.url, g.site, page, limit));
  b.mount(ops.orgListUserOrgs, ({ page, limit }, ctx) => paged(g.orgs.orgsOf(ctx.contextUser!, ctx.auth).map((o) => toOrganization(o, ctx.doer)), ctx.url, g.site, page, limit));

  b.mount(ops.orgListMembers, ({ page, limit }, ctx) => paged(g.orgs.members(ctx.org!, ctx.doer).map((u) => toUser(u, g.site, ctx.doer)), ctx.url, g.site, page, limit));
  b.mount(ops.orgIsMember, (_a, ctx) => {
    const answer = g.orgs.membership(ctx.org!, ctx.doer!, ctx.contextUser!);
    if (answer === 'public') {
      // Gitea's redirect is a path under the site's sub-path, not an absolute address.
      const location = `${g.site.basePath}/api/v1/orgs/${encodeURIComponent(ctx.org!.name)}/public_members/${encodeURIComponent(ctx.contextUser!.name)}`;
      return new Response(null, { status: 303, headers: { location } });
    }
    if (!answer) throw notFound('not found');
  });
  // Memberships are never made public here (Gitea's default for new members).
  b.mount(ops.orgIsPublicMember, () => {
    throw notFound('not found');
  });

  b.mount(ops.orgListTeams, ({ page, limit }, ctx) => paged(g.orgs.teams(ctx.org!).map((t) => toTeam(t, ctx.org!, ctx.doer)), ctx.url, g.site, page, limit));
  b.mount(ops.orgGetTeam, (_a, ctx) => toTeam(ctx.team!, ctx.org!, ctx.doer));
  b.mount(ops.orgListTeamMembers, ({ page, limit }, ctx) => paged(g.orgs.teamMembers(ctx.team!).map((u) => toUser(u, g.site, ctx.doer)), ctx.url, g.site, page, limit));
  b.mount(ops.orgAddTeamMember, (_a, ctx) => g.orgs.addTeamMember(ctx.team!, ctx.contextUser!));
  b.mount(ops.orgRemoveTeamMember, (_a, ctx) => g.orgs.removeTeamMember(ctx.team!, ctx.contextUser!));

  b.mount(ops.createOrgRepo, async ({ body }, ctx) => {
    g.orgs.checkCanCreateRepo(ctx.org!, ctx.doer!);
    return new Reply(201, await repoJson(await createRepoFor(g, ctx.org!, ctx.doer!, body)));
  });
  // As GET /users/{u}/repos: oldest first, what the caller may read (private ones only when signed in
  // with a token that is not limited to public repositories).
  b.mount(ops.orgListRepos, async ({ page, limit }, ctx) => {
    const found = await g.search.search({ ownerId: ctx.org!.id, exclusive: true, private: !!ctx.doer && !ctx.auth?.scopes?.publicOnly, sort: 'id' }, ctx.doer, async () => 0);
    const one = paged(found, ctx.url, g.site, page, limit);
    return new Reply(200, await Promise.all(one.body.map(repoJson)), one.headers);
  });
}
