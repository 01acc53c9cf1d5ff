import * as mirrorOps from '../../../protocol/gitea/operations/mirrors.js';
import * as ops from '../../../protocol/gitea/operations/repos.js';
import { forbidden, notFound } from '../../errors.js';
import { toUser } from '../convert.js';
import type { GiteaBinder } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { paged } from '../http/paginate.js';
import type { Accounts } from '../services/accounts.js';
import type { Files } from '../services/files.js';
import type { Languages } from '../services/languages.js';
import type { MirrorScheduler } from '../services/mirror-scheduler.js';
import type { PullMirrors } from '../services/pull-mirrors.js';
import type { RepoService } from '../services/repos.js';
import type { Site } from '../site.js';
import { createRepoFor } from './create-repo.js';
import { repoJsonOf } from './repo-json.js';

/** What the repository routes use. */
export interface RepoRoutesDeps {
  site: Site;
  repos: RepoService;
  accounts: Accounts;
  files: Files;
  pullMirrors: PullMirrors;
  mirrors: Pick<MirrorScheduler, 'schedule'>;
  languages: Languages;
}

/** Repositories and their collaborators. */
export function mountRepos(b: GiteaBinder, g: RepoRoutesDeps): void {
  const repoJson = repoJsonOf(g);

  b.mount(mirrorOps.repoMigrate, async ({ body }, ctx) => {
    const repo = await g.pullMirrors.migrate(ctx.doer!, { ...body, clone_addr: body.clone_addr ?? '', repo_name: body.repo_name ?? '' });
    const pull = repo.row.is_mirror ? g.pullMirrors.get(repo.row.id) : undefined;
    if (pull) g.mirrors.schedule('pull', repo.row.id, pull.interval_ns);
    return new Reply(201, await repoJson(repo));
  });

  b.mount(ops.repoGetLanguages, async (_a, ctx) => new Reply(200, Object.fromEntries(await g.languages.stats(ctx.repo!))));

  b.mount(ops.createCurrentUserRepo, async ({ body }, ctx) => new Reply(201, await repoJson(await createRepoFor(g, ctx.doer!, ctx.doer!, body))));

  b.mount(ops.repoGet, (_a, ctx) => repoJson(ctx.repo!));

  b.mount(ops.repoEdit, async ({ body }, ctx) => repoJson(await g.repos.edit(ctx.repo!, ctx.doer!, body)));

  b.mount(ops.repoDelete, async (_a, ctx) => {
    await g.repos.remove(ctx.repo!);
  });

  b.mount(ops.repoListCollaborators, ({ page, limit }, ctx) =>
    paged(
      g.repos.collaborators(ctx.repo!).map((c) => toUser(c.user, g.site, ctx.doer)),
      ctx.url,
      g.site,
      page,
      limit,
    ),
  );

  b.mount(ops.repoCheckCollaborator, ({ collaborator }, ctx) => {
    const user = g.repos.collaboratorUser(collaborator);
    if (!g.repos.isCollaborator(ctx.repo!, user)) throw notFound('not found');
  });

  b.mount(ops.repoAddCollaborator, ({ collaborator, body }, ctx) => {
    g.repos.setCollaborator(ctx.repo!, g.repos.collaboratorUser(collaborator), body.permission);
  });

  b.mount(ops.repoDeleteCollaborator, ({ collaborator }, ctx) => {
    g.repos.removeCollaborator(ctx.repo!, g.repos.collaboratorUser(collaborator));
  });

  b.mount(ops.repoGetRepoPermissions, ({ collaborator }, ctx) => {
    const repo = ctx.repo!;
    // As Gitea: who may ask is decided by name, before the user is looked up (a stranger asking about
    // someone who does not exist gets the 403 too).
    if (!ctx.doer!.is_admin && ctx.doer!.lower_name !== collaborator.toLowerCase() && !repo.perm.admin) {
      throw forbidden('Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own');
    }
    const user = g.accounts.byName(collaborator);
    if (!user) throw notFound(`user does not exist [uid: 0, name: ${collaborator}]`);
    const mode = g.repos.accessMode(repo, user);
    return { permission: mode, role_name: mode, user: toUser(user, g.site, ctx.doer) };
  });
}
