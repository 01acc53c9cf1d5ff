import * as mirrorOps from '../../../protocol/gitea/operations/mirrors.js';
import * as ops from '../../../protocol/gitea/operations/repos.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { toUser } from '../convert.js';
import type { GiteaBinder } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { paged } from '../http/paginate.js';
import type { Accounts } from '../services/accounts.js';
import type { Files } from '../services/files.js';
import { initialCommit } from '../services/initial-commit.js';
import type { Languages } from '../services/languages.js';
import type { MirrorScheduler } from '../services/mirror-scheduler.js';
import type { PullMirrors } from '../services/pull-mirrors.js';
import type { RepoService } from '../services/repos.js';
import type { Site } from '../site.js';
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

  b.mount(ops.createCurrentUserRepo, async ({ body }, ctx) => {
    const doer = ctx.doer!;
    // Gitea reads the templates only for auto_init: it has readmes, gitignores and licenses, we the
    // default readme only. Gitea fails an unknown gitignore or license with a 500; a 400 says why.
    if (body.auto_init) {
      if (body.readme && body.readme !== 'Default') throw badRequest('readme template does not exist, available templates: [Default]');
      if (body.gitignores) throw badRequest(`gitignore template does not exist [name: ${body.gitignores}]`);
      if (body.license) throw badRequest(`license template does not exist [name: ${body.license}]`);
    }
    // Git here stores sha1 objects only; a sha256 repository would silently become sha1.
    if (body.object_format_name === 'sha256') throw badRequest('object format sha256 is not supported, use sha1');
    const repo = await g.repos.create(doer, {
      name: body.name ?? '',
      description: body.description ?? '',
      private: body.private ?? false,
      defaultBranch: body.default_branch ?? '',
      template: body.template ?? false,
    });
    if (!body.auto_init) return new Reply(201, await repoJson(repo));
    await initialCommit(g.files, repo, doer, body.name ?? '', body.description ?? '');
    // The first commit moved updated_at (and the default branch): answer with the row as it is now.
    return new Reply(201, await repoJson(g.repos.byId(repo.row.id, doer) ?? repo));
  });

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
