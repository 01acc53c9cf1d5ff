import type { BranchProtection, CreateBranchProtectionOption, EditBranchProtectionOption } from '../../../protocol/gitea/index.js';
import type { ProtectionRepo, ProtectionRow } from '../../db/repos/protection-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { badRequest, forbidden, notFound, unprocessable } from '../../errors.js';
import { goTime } from '../../util/go-format.js';
import type { Perm } from '../convert.js';
import type { ModelOf } from '../model-of.js';
import type { Accounts } from './accounts.js';
import { compileGlob, isGlobRule } from './glob.js';

type Options = NonNullable<ModelOf<typeof EditBranchProtectionOption>>;
type RuleData = Required<Omit<Options, 'priority'>>;

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
const TEAM_LISTS = ['push_whitelist_teams', 'force_push_allowlist_teams', 'merge_whitelist_teams', 'approvals_whitelist_teams'] as const;

/** `;`-separated globs, lower-cased, with `.` and `/` as separators (Gitea's file patterns). */
function filePatterns(spec: string): RegExp[] {
  const out: RegExp[] = [];
  for (const p of spec.split(';')) {
    const pat = p.trim().toLowerCase();
    if (!pat) continue;
    try {
      out.push(compileGlob(pat, './'));
    } catch {
      // an invalid pattern protects nothing, as in Gitea
    }
  }
  return out;
}

/** Branch protection rules: storage, Gitea's rule choice, and the push and file checks they impose. */
export function createProtections(repo: ProtectionRepo, accounts: Accounts, now: () => number = () => Math.floor(Date.now() / 1000)) {
  const parse = (row: ProtectionRow): Rule => ({ row, data: { ...DEFAULTS, ...(JSON.parse(row.data) as Partial<RuleData>) } });

  /** Gitea's create/edit normalisation plus existence checks of listed users and teams (422). */
  function normalise(d: RuleData): RuleData {
    const out = { ...d };
    out.enable_push_whitelist = d.enable_push && d.enable_push_whitelist;
    out.push_whitelist_deploy_keys = out.enable_push_whitelist && d.push_whitelist_deploy_keys;
    out.enable_force_push = d.enable_push && d.enable_force_push;
    out.enable_force_push_allowlist = out.enable_force_push && d.enable_force_push_allowlist;
    out.required_approvals = Math.max(0, d.required_approvals);
    for (const key of USER_LISTS) {
      out[key] = d[key].map((name) => {
        const u = accounts.byName(name);
        if (!u) throw unprocessable(`user does not exist [uid: 0, name: ${name}]`);
        return u.name;
      });
    }
    for (const key of TEAM_LISTS) if (d[key].length) throw unprocessable(`team does not exist [name: ${d[key][0]}]`);
    return out;
  }

  const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, val]) => val !== undefined)) as Partial<T>;

  function toApi(rule: Rule): ModelOf<typeof BranchProtection> {
    const { row, data } = rule;
    const existing = (names: string[]) => names.filter((n) => accounts.byName(n));
    return {
      branch_name: isGlobRule(row.rule_name) ? '' : row.rule_name,
      rule_name: row.rule_name,
      priority: row.priority,
      ...data,
      push_whitelist_usernames: existing(data.push_whitelist_usernames),
      force_push_allowlist_usernames: existing(data.force_push_allowlist_usernames),
      merge_whitelist_usernames: existing(data.merge_whitelist_usernames),
      approvals_whitelist_username: existing(data.approvals_whitelist_username),
      created_at: goTime(row.created_at),
      updated_at: goTime(row.updated_at),
    } as ModelOf<typeof BranchProtection>;
  }

  function get(repoId: number, name: string): Rule {
    const row = repo.byName(repoId, name);
    if (!row) throw notFound('not found');
    return parse(row);
  }

  return {
    toApi,
    list: (repoId: number) => repo.list(repoId).map(parse),
    get,

    create(repoId: number, body: NonNullable<ModelOf<typeof CreateBranchProtectionOption>>): Rule {
      const ruleName = body.rule_name || body.branch_name || '';
      if (!ruleName) throw badRequest('both rule_name and branch_name are empty');
      if (repo.byName(repoId, ruleName)) throw forbidden('Branch protection already exist');
      const { rule_name: _r, branch_name: _b, priority, ...rest } = body;
      const data = normalise({ ...DEFAULTS, ...defined(rest) });
      repo.insert({ repo_id: repoId, rule_name: ruleName, priority: priority || repo.maxPriority(repoId) + 1, data: JSON.stringify(data), created_at: now() });
      return get(repoId, ruleName);
    },

    edit(repoId: number, name: string, body: Options): Rule {
      const rule = get(repoId, name);
      const { priority, ...rest } = body;
      const data = normalise({ ...rule.data, ...defined(rest) });
      repo.update({ id: rule.row.id, priority: priority ?? rule.row.priority, data: JSON.stringify(data), updated_at: now() });
      return get(repoId, name);
    },

    remove(repoId: number, name: string): void {
      repo.remove(get(repoId, name).row.id);
    },

    /** The one rule that applies to a branch: lowest priority, plain names before globs, then the oldest. */
    matchFor(repoId: number, branch: string): Rule | undefined {
      const rules = repo.list(repoId);
      const sorted = [...rules].sort((a, b) => a.priority - b.priority || Number(isGlobRule(a.rule_name)) - Number(isGlobRule(b.rule_name)) || a.id - b.id);
      for (const row of sorted) {
        if (!isGlobRule(row.rule_name)) {
          if (row.rule_name.toLowerCase() === branch.toLowerCase()) return parse(row);
          continue;
        }
        let re: RegExp;
        try {
          re = compileGlob(row.rule_name, '/');
        } catch {
          if (row.rule_name === branch) return parse(row); // an invalid glob matches literally
          continue;
        }
        if (re.test(branch)) return parse(row);
      }
      return undefined;
    },

    canUserPush(rule: Rule, user: UserRow | null, perm: Perm): boolean {
      if (!user || !rule.data.enable_push) return false;
      if (!rule.data.enable_push_whitelist) return perm.write;
      return rule.data.push_whitelist_usernames.some((n) => n.toLowerCase() === user.lower_name);
    },

    canForcePush(rule: Rule, user: UserRow | null, perm: Perm): boolean {
      if (!rule.data.enable_force_push) return false;
      const canPush = this.canUserPush(rule, user, perm);
      if (!rule.data.enable_force_push_allowlist) return canPush;
      return canPush && !!user && rule.data.force_push_allowlist_usernames.some((n) => n.toLowerCase() === user.lower_name);
    },

    isProtectedFile: (rule: Rule, path: string) => filePatterns(rule.data.protected_file_patterns).some((re) => re.test(path.trim().toLowerCase())),
    isUnprotectedFile: (rule: Rule, path: string) => filePatterns(rule.data.unprotected_file_patterns).some((re) => re.test(path.trim().toLowerCase())),
  };
}

export type Protections = ReturnType<typeof createProtections>;
