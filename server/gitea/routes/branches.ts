import * as ops from '../../../protocol/gitea/operations/branches.js';
import * as writeOps from '../../../protocol/gitea/operations/branch-writes.js';
import { goTime } from '../../util/go-format.js';
import type { GiteaBinder } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { paged } from '../http/paginate.js';
import type { Branches } from '../services/branches.js';
import type { BranchWriter } from '../services/branch-writes.js';
import type { Accounts } from '../services/accounts.js';
import type { Protections } from '../services/protections.js';
import { takesWrites } from '../services/repo-access.js';
import type { RepoContext, RepoService } from '../services/repos.js';
import type { Site } from '../site.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import type { Commit } from '../git/commit.js';
import { UNSIGNED } from '../services/files.js';

/** Branches (read, create, delete) and branch protection rules. */
export function mountBranches(b: GiteaBinder, g: { site: Site; branches: Branches; writer: BranchWriter; accounts: Accounts; protections: Protections; repos: RepoService }): void {
  /** Gitea's PayloadUser: the user name is that of the account with the commit's email, if any. */
  const payloadUser = (p: Commit['author']) => ({ name: p.name, email: p.email, username: (p.email && g.accounts.byEmail(p.email)?.name) || '' });

  function branchJson(repo: RepoContext, name: string, c: Commit | null, doer: UserRow | null) {
    const rule = g.protections.matchFor(repo.row.id, name);
    // Gitea computes these from permissions and the rule alone; here an archived or mirror repository takes no push.
    const open = !!doer && takesWrites(repo.row);
    const html = g.site.repoHtml(repo.owner, repo.row);
    return {
      name,
      commit: c
        ? {
            id: c.sha,
            message: c.message,
            url: `${html}/commit/${c.sha}`,
            author: payloadUser(c.author),
            committer: payloadUser(c.committer),
            verification: UNSIGNED,
            // Gitea's ToPayloadCommit stamps the author's time.
            timestamp: goTime(c.author.when, c.author.tzMinutes),
            added: null,
            removed: null,
            modified: null,
          }
        : null,
      protected: !!rule,
      required_approvals: rule?.data.required_approvals ?? 0,
      enable_status_check: rule?.data.enable_status_check ?? false,
      status_check_contexts: rule?.data.status_check_contexts ?? [],
      user_can_push: open && (rule ? g.protections.canUserPush(rule, doer, repo.perm) : repo.perm.write),
      user_can_merge: open && (rule ? g.protections.canUserMerge(rule, doer, repo.perm) : repo.perm.write),
      effective_branch_protection_name: rule && repo.perm.admin ? rule.row.rule_name : '',
    };
  }

  /** Users with explicit access, in Gitea's order (collaborators by id, then the owner): allow-lists hold only them. */
  const readers = (repo: RepoContext) => [...g.repos.collaborators(repo).map((c) => c.user).sort((x, y) => x.id - y.id), repo.owner];

  b.mount(ops.repoListBranches, async ({ page, limit }, ctx) => {
    const repo = ctx.repo!;
    const reply = paged(await g.branches.list(repo), ctx.url, g.site, page, limit);
    return new Reply(200, reply.body.map((x) => branchJson(repo, x.name, x.commit, ctx.doer)), reply.headers);
  });

  b.mount(ops.repoGetBranch, async ({ branch }, ctx) => {
    const head = await g.branches.get(ctx.repo!, branch);
    return branchJson(ctx.repo!, head.name, head.commit, ctx.doer);
  });

  b.mount(writeOps.repoCreateBranch, async ({ body }, ctx) => {
    const made = await g.writer.create(ctx.repo!, ctx.doer!, { ...body, new_branch_name: body.new_branch_name ?? '' });
    const head = await g.branches.get(ctx.repo!, made.name);
    return new Reply(201, branchJson(ctx.repo!, head.name, head.commit, ctx.doer));
  });

  b.mount(writeOps.repoDeleteBranch, ({ branch }, ctx) => g.writer.remove(ctx.repo!, branch));

  b.mount(ops.repoListBranchProtection, (_a, ctx) => {
    const r = readers(ctx.repo!);
    return g.protections.list(ctx.repo!.row.id).map((rule) => g.protections.toApi(rule, r));
  });
  b.mount(ops.repoCreateBranchProtection, ({ body }, ctx) => {
    const repo = ctx.repo!;
    const r = readers(repo);
    return new Reply(201, g.protections.toApi(g.protections.create(repo.row.id, body, r), r));
  });
  b.mount(ops.repoGetBranchProtection, ({ name }, ctx) => g.protections.toApi(g.protections.get(ctx.repo!.row.id, name), readers(ctx.repo!)));
  b.mount(ops.repoEditBranchProtection, ({ name, body }, ctx) => {
    const repo = ctx.repo!;
    const r = readers(repo);
    return g.protections.toApi(g.protections.edit(repo.row.id, name, body, r), r);
  });
  b.mount(ops.repoDeleteBranchProtection, ({ name }, ctx) => {
    g.protections.remove(ctx.repo!.row.id, name);
  });
}
