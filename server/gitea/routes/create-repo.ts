import type * as v from 'valibot';
import type { CreateRepoOption } from '../../../protocol/gitea/models/repository.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { badRequest } from '../../errors.js';
import type { Files } from '../services/files.js';
import { initialCommit } from '../services/initial-commit.js';
import type { RepoContext, RepoService } from '../services/repos.js';

/**
 * POST /user/repos and POST /orgs/{org}/repos: a repository owned by `owner`, made by `doer`
 * (the same user, or a member of the organisation), with its first commit when `auto_init`.
 * Answers the repository as `doer` sees it.
 */
export async function createRepoFor(g: { repos: RepoService; files: Files }, owner: UserRow, doer: UserRow, body: v.InferOutput<(typeof CreateRepoOption)['schema']>): Promise<RepoContext> {
  // Gitea reads the templates only for auto_init: it has readmes, gitignores and licenses, we the
  // default readme only. Gitea fails an unknown gitignore or license with a 500; a 400 says why.
  if (body.auto_init) {
    if (body.readme && body.readme !== 'Default') throw badRequest('readme template does not exist, available templates: [Default]');
    if (body.gitignores) throw badRequest(`gitignore template does not exist [name: ${body.gitignores}]`);
    if (body.license) throw badRequest(`license template does not exist [name: ${body.license}]`);
  }
  // Git here stores sha1 objects only; a sha256 repository would silently become sha1.
  if (body.object_format_name === 'sha256') throw badRequest('object format sha256 is not supported, use sha1');
  const repo = await g.repos.create(owner, {
    name: body.name ?? '',
    description: body.description ?? '',
    private: body.private ?? false,
    defaultBranch: body.default_branch ?? '',
    template: body.template ?? false,
  });
  if (body.auto_init) await initialCommit(g.files, repo, doer, body.name ?? '', body.description ?? '');
  // The first commit moved updated_at (and the default branch): answer with the row as it is now.
  return g.repos.byId(repo.row.id, doer) ?? repo;
}
