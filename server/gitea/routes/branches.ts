import * as ops from '../../../protocol/gitea/operations/branches.js';
import { notFound } from '../../errors.js';
import { goTime } from '../../util/go-format.js';
import type { GiteaBinder } from '../http/gitea-bind.js';
import { Reply } from '../http/gitea-bind.js';
import { paged } from '../http/paginate.js';
import type { Gitea } from '../gitea.js';
import type { RepoContext } from '../services/repos.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { UNSIGNED } from '../services/files.js';

/** Branches (read) and branch protection rules. */
export function mountBranches(b: GiteaBinder, g: Gitea): void {
  async function branchJson(repo: RepoContext, name: string, sha: string, doer: UserRow | null) {
    const c = await g.git.commit(repo.gitDir, sha);
    const rule = g.protections.matchFor(repo.row.id, name);
    const canPush = repo.perm.write && !repo.row.is_archived && !repo.row.is_mirror && (!rule || g.protections.canUserPush(rule, doer, repo.perm));
    const html = g.site.repoHtml(repo.owner, repo.row);
    return {
      name,
      commit: c
        ? {
            id: c.sha,
            message: c.message,
            url: `${html}/commit/${c.sha}`,
            author: { name: c.author.name, email: c.author.email, username: '' },
            committer: { name: c.committer.name, email: c.committer.email, username: '' },
            verification: UNSIGNED,
            timestamp: goTime(c.committer.when, c.committer.tzMinutes),
            added: null,
            removed: null,
            modified: null,
          }
        : null,
      protected: !!rule,
      required_approvals: rule?.data.required_approvals ?? 0,
      enable_status_check: rule?.data.enable_status_check ?? false,
      status_check_contexts: rule?.data.status_check_contexts ?? [],
      user_can_push: canPush,
      user_can_merge: canPush,
      effective_branch_protection_name: rule && repo.perm.admin ? rule.row.rule_name : '',
    };
  }
  b.mount(ops.repoListBranches, async ({ page, limit }, ctx) => {
    const repo = ctx.repo!;
    const refs = await g.git.refs(repo.gitDir);
    const names = [...refs.branches.keys()].sort();
    const all = await Promise.all(names.map((n) => branchJson(repo, n, refs.branches.get(n)!, ctx.doer)));
    return paged(all, ctx.url, g.site, page, limit);
  });

  b.mount(ops.repoGetBranch, async ({ branch }, ctx) => {
    const repo = ctx.repo!;
    const sha = (await g.git.refs(repo.gitDir)).branches.get(branch);
    if (!sha) throw notFound(`branch does not exist [repo_id: ${repo.row.id} name: ${branch}]`);
    return branchJson(repo, branch, sha, ctx.doer);
  });

  b.mount(ops.repoListBranchProtection, (_a, ctx) => g.protections.list(ctx.repo!.row.id).map(g.protections.toApi));
  b.mount(ops.repoCreateBranchProtection, ({ body }, ctx) => new Reply(201, g.protections.toApi(g.protections.create(ctx.repo!.row.id, body))));
  b.mount(ops.repoGetBranchProtection, ({ name }, ctx) => g.protections.toApi(g.protections.get(ctx.repo!.row.id, name)));
  b.mount(ops.repoEditBranchProtection, ({ name, body }, ctx) => g.protections.toApi(g.protections.edit(ctx.repo!.row.id, name, body)));
  b.mount(ops.repoDeleteBranchProtection, ({ name }, ctx) => {
    g.protections.remove(ctx.repo!.row.id, name);
  });
}
