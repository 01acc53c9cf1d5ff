import type { BranchProtection, CreateBranchProtectionOption, EditBranchProtectionOption } from '../../../protocol/gitea/index.js';
import type { ProtectionRepo, ProtectionRow } from '../../db/repos/protection-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { badRequest, forbidden, notFound, unprocessable } from '../../errors.js';
import { goTime } from '../../util/go-format.js';
import type { Perm } from './perm.js';
import type { ModelOf } from '../../../protocol/model.js';
import type { Accounts } from './accounts.js';
import { type Glob, type GlobBudget, GlobBudgetError } from '../../util/glob/glob.js';
import { Lru } from '../../util/lru.js';
import { giteaGlob, isGlobRule } from './glob.js';

type Options = NonNullable<ModelOf<typeof EditBranchProtectionOption>>;
type RuleData = { -readonly [K in keyof Required<Omit<Options, 'priority'>>]-?: NonNullable<Options[K]> };

/** A stored rule with its options filled in. */
export interface Rule {
  row: ProtectionRow;
  data: RuleData;
}

const DEFAULTS: RuleData = {
  enable_push: false,
  enable_push_whitelist: false,
  push_whitelist_usernames: [],
  push_whitelist_teams: [],
  push_whitelist_deploy_keys: false,
  enable_force_push: false,
  enable_force_push_allowlist: false,
  force_push_allowlist_usernames: [],
  force_push_allowlist_teams: [],
  force_push_allowlist_deploy_keys: false,
  enable_merge_whitelist: false,
  merge_whitelist_usernames: [],
  merge_whitelist_teams: [],
  enable_status_check: false,
  status_check_contexts: [],
  required_approvals: 0,
  enable_approvals_whitelist: false,
  approvals_whitelist_username: [],
  approvals_whitelist_teams: [],
  block_on_rejected_reviews: false,
  block_on_official_review_requests: false,
  block_on_outdated_branch: false,
  dismiss_stale_approvals: false,
  ignore_stale_approvals: false,
  require_signed_commits: false,
  protected_file_patterns: '',
  unprotected_file_patterns: '',
  block_admin_merge_override: false,
};

const USER_LISTS = ['push_whitelist_usernames', 'force_push_allowlist_usernames', 'merge_whitelist_usernames', 'approvals_whitelist_username'] as const;
/** Edit fields that are simply set when sent. */
const SIMPLE_FIELDS = [
  'enable_merge_whitelist', 'enable_status_check', 'status_check_contexts', 'enable_approvals_whitelist', 'block_on_rejected_reviews',
  'block_on_official_review_requests', 'block_on_outdated_branch', 'dismiss_stale_approvals', 'ignore_stale_approvals', 'require_signed_commits',
  'protected_file_patterns', 'unprotected_file_patterns', 'block_admin_merge_override',
] as const;

const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, val]) => val !== undefined)) as Partial<T>;

/**
 * Steps (see server/util/glob) that choosing a branch's rule, or checking one
 * path against a rule's file patterns, may take: far above what any real rule
 * needs. A check that runs out fails closed: the rule applies, the file is
 * protected and not unprotected.
 */
export const RULE_CHECK_STEPS = 200_000;

/** Compiled pattern lists by their text, up to 4 MiB of text in all. */
const patternLists = new Lru<string, { globs: Glob[]; chars: number }>(256, { maxWeight: 4 << 20, weigh: (v) => v.chars });

/** `;`-separated globs, lower-cased, with `.` and `/` as separators (Gitea's file patterns), compiled once. */
function filePatterns(spec: string): Glob[] {
  const hit = patternLists.get(spec);
  if (hit) return hit.globs;
  const globs: Glob[] = [];
  for (const p of spec.split(';')) {
    const pat = p.trim().toLowerCase();
    if (!pat) continue;
    try {
      globs.push(giteaGlob(pat, './'));
    } catch {
      // an invalid pattern (or one over the glob limits) protects nothing, as in Gitea
    }
  }
  patternLists.set(spec, { globs, chars: spec.length });
  return globs;
}

/** Whether `path` matches one of `spec`'s patterns; `exhausted` is the answer when the budget runs out. */
function anyPattern(spec: string, path: string, exhausted: boolean, budget: GlobBudget = { steps: RULE_CHECK_STEPS }): boolean {
  const name = path.trim().toLowerCase();
  try {
    return filePatterns(spec).some((glob) => glob.test(name, budget));
  } catch (e) {
    if (e instanceof GlobBudgetError) return exhausted;
    throw e;
  }
}

/** Gitea's rule order: lower priority first, then plain names before globs, then the older rule. */
function byPrecedence(a: ProtectionRow, b: ProtectionRow): number {
  return a.priority - b.priority || Number(isGlobRule(a.rule_name)) - Number(isGlobRule(b.rule_name)) || a.id - b.id;
}

/**
 * Branch protection rules: storage, Gitea's rule choice, and the push and file checks they impose.
 *
 * `readers` (passed by the caller) are the users with explicit access to the repository, in
 * Gitea's order (collaborators by id, then the owner): allow-lists keep only them, as Gitea's
 * whitelist update and its response conversion do. Teams need an organisation owner, which we
 * do not have, so team lists are ignored and always empty (as Gitea does for a user's repository).
 */
export function createProtections(repo: ProtectionRepo, accounts: Accounts, now: () => number = () => Math.floor(Date.now() / 1000)) {
  const parse = (row: ProtectionRow): Rule => ({ row, data: { ...DEFAULTS, ...(JSON.parse(row.data) as Partial<RuleData>) } });

  /** Names → users (422 for an unknown one), keeping the explicit readers only. */
  function resolveUsers(names: readonly string[], readers: readonly UserRow[]): string[] {
    const ids = new Set<number>();
    for (const name of names) {
      const u = accounts.byName(name);
      if (!u) throw unprocessable(`user does not exist [uid: 0, name: ${name}]`);
      ids.add(u.id);
    }
    return readers.filter((r) => ids.has(r.id)).map((r) => r.name);
  }

  function toApi(rule: Rule, readers: readonly UserRow[]): ModelOf<typeof BranchProtection> {
    const { row, data } = rule;
    const shown = (names: string[]) => {
      const set = new Set(names.map((n) => n.toLowerCase()));
      return readers.filter((r) => set.has(r.lower_name)).map((r) => r.name);
    };
    return {
      branch_name: isGlobRule(row.rule_name) ? '' : row.rule_name,
      rule_name: row.rule_name,
      priority: row.priority,
      ...data,
      push_whitelist_usernames: shown(data.push_whitelist_usernames),
      push_whitelist_teams: [],
      force_push_allowlist_usernames: shown(data.force_push_allowlist_usernames),
      force_push_allowlist_teams: [],
      merge_whitelist_usernames: shown(data.merge_whitelist_usernames),
      merge_whitelist_teams: [],
      approvals_whitelist_username: shown(data.approvals_whitelist_username),
      approvals_whitelist_teams: [],
      created_at: goTime(row.created_at),
      updated_at: goTime(row.updated_at),
    } as ModelOf<typeof BranchProtection>;
  }

  function get(repoId: number, name: string): Rule {
    const row = repo.byName(repoId, name);
    if (!row) throw notFound('not found');
    return parse(row);
  }

  const sorted = (repoId: number) => repo.list(repoId).sort(byPrecedence);

  return {
    toApi,
    list: (repoId: number) => sorted(repoId).map(parse),
    get,

    /** Gitea's CreateBranchProtection: the push and force-push options only count under enable_push. */
    create(repoId: number, body: NonNullable<ModelOf<typeof CreateBranchProtectionOption>>, readers: readonly UserRow[]): Rule {
      const ruleName = body.rule_name || body.branch_name || '';
      if (!ruleName) throw badRequest('both rule_name and branch_name are empty');
      if (repo.byName(repoId, ruleName)) throw forbidden('Branch protection already exist');
      const f = { ...DEFAULTS, ...defined(body) };
      const data: RuleData = {
        ...f,
        enable_push_whitelist: f.enable_push && f.enable_push_whitelist,
        push_whitelist_deploy_keys: f.enable_push && f.enable_push_whitelist && f.push_whitelist_deploy_keys,
        enable_force_push: f.enable_push && f.enable_force_push,
        enable_force_push_allowlist: f.enable_push && f.enable_force_push && f.enable_force_push_allowlist,
        force_push_allowlist_deploy_keys: f.enable_push && f.enable_force_push && f.enable_force_push_allowlist && f.force_push_allowlist_deploy_keys,
        required_approvals: Math.max(0, f.required_approvals),
        push_whitelist_teams: [],
        force_push_allowlist_teams: [],
        merge_whitelist_teams: [],
        approvals_whitelist_teams: [],
      };
      for (const key of USER_LISTS) data[key] = resolveUsers(f[key], readers);
      const { rule_name: _r, branch_name: _b, priority: _p, ...stored } = data as RuleData & { rule_name?: string; branch_name?: string; priority?: number };
      repo.insert({ repo_id: repoId, rule_name: ruleName, priority: body.priority || repo.maxPriority(repoId) + 1, data: JSON.stringify(stored), created_at: now() });
      return get(repoId, ruleName);
    },

    /**
     * Gitea's EditBranchProtection: only fields sent change; the allow-list switches are read only
     * together with the switch above them (enable_push_whitelist only when enable_push is sent and
     * true); a negative required_approvals is ignored; a null list leaves it as it was.
     */
    edit(repoId: number, name: string, body: Options, readers: readonly UserRow[]): Rule {
      const rule = get(repoId, name);
      const d: RuleData = { ...rule.data };
      if (body.enable_push !== undefined) {
        if (!body.enable_push) Object.assign(d, { enable_push: false, enable_push_whitelist: false, push_whitelist_deploy_keys: false });
        else {
          d.enable_push = true;
          if (body.enable_push_whitelist === false) Object.assign(d, { enable_push_whitelist: false, push_whitelist_deploy_keys: false });
          else if (body.enable_push_whitelist === true) {
            d.enable_push_whitelist = true;
            if (body.push_whitelist_deploy_keys !== undefined) d.push_whitelist_deploy_keys = body.push_whitelist_deploy_keys;
          }
        }
      }
      if (body.enable_force_push !== undefined) {
        if (!body.enable_force_push) Object.assign(d, { enable_force_push: false, enable_force_push_allowlist: false, force_push_allowlist_deploy_keys: false });
        else {
          d.enable_force_push = true;
          if (body.enable_force_push_allowlist === false) Object.assign(d, { enable_force_push_allowlist: false, force_push_allowlist_deploy_keys: false });
          else if (body.enable_force_push_allowlist === true) {
            d.enable_force_push_allowlist = true;
            if (body.force_push_allowlist_deploy_keys !== undefined) d.force_push_allowlist_deploy_keys = body.force_push_allowlist_deploy_keys;
          }
        }
      }
      if (body.required_approvals !== undefined && body.required_approvals >= 0) d.required_approvals = body.required_approvals;
      for (const key of SIMPLE_FIELDS) if (body[key] !== undefined) (d as Record<string, unknown>)[key] = body[key];
      for (const key of USER_LISTS) if (body[key] !== undefined) d[key] = resolveUsers(body[key], readers);
      repo.update({ id: rule.row.id, priority: body.priority ?? rule.row.priority, data: JSON.stringify(d), updated_at: now() });
      return get(repoId, name);
    },

    remove(repoId: number, name: string): void {
      repo.remove(get(repoId, name).row.id);
    },

    /** The one rule that applies to a branch: the first match in Gitea's rule order. */
    matchFor(repoId: number, branch: string): Rule | undefined {
      const budget = { steps: RULE_CHECK_STEPS };
      for (const row of sorted(repoId)) {
        if (!isGlobRule(row.rule_name)) {
          if (row.rule_name.toLowerCase() === branch.toLowerCase()) return parse(row);
          continue;
        }
        let glob: Glob;
        try {
          glob = giteaGlob(row.rule_name, '/');
        } catch {
          if (row.rule_name === branch) return parse(row); // an invalid glob matches literally
          continue;
        }
        try {
          if (glob.test(branch, budget)) return parse(row);
        } catch (e) {
          if (e instanceof GlobBudgetError) return parse(row); // fails closed: the rule applies
          throw e;
        }
      }
      return undefined;
    },

    canUserPush(rule: Rule, user: UserRow | null, perm: Perm): boolean {
      if (!user || !rule.data.enable_push) return false;
      if (!rule.data.enable_push_whitelist) return perm.write;
      return rule.data.push_whitelist_usernames.some((n) => n.toLowerCase() === user.lower_name);
    },

    /** Gitea's IsUserMergeWhitelisted: write access, or the merge allow-list when it is on. */
    canUserMerge(rule: Rule, user: UserRow | null, perm: Perm): boolean {
      if (!user) return false;
      if (!rule.data.enable_merge_whitelist) return perm.write;
      return rule.data.merge_whitelist_usernames.some((n) => n.toLowerCase() === user.lower_name);
    },

    canForcePush(rule: Rule, user: UserRow | null, perm: Perm): boolean {
      if (!rule.data.enable_force_push) return false;
      const canPush = this.canUserPush(rule, user, perm);
      if (!rule.data.enable_force_push_allowlist) return canPush;
      return canPush && !!user && rule.data.force_push_allowlist_usernames.some((n) => n.toLowerCase() === user.lower_name);
    },

    /** Whether a change to `path` is refused by the rule's protected file patterns (also when that is too costly to tell). */
    isProtectedFile: (rule: Rule, path: string) => anyPattern(rule.data.protected_file_patterns, path, true),
    /** Whether `path` is free to change under the rule's unprotected file patterns (not when that is too costly to tell). */
    isUnprotectedFile: (rule: Rule, path: string) => anyPattern(rule.data.unprotected_file_patterns, path, false),
  };
}

/** The branch protection service's interface. */
export type Protections = ReturnType<typeof createProtections>;
