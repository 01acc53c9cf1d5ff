import type { UserRow } from '../../db/repos/user-repo.js';
import { everyInSlices, findInSlices } from '../../util/slices.js';
import type { Protections, Rule } from './protections.js';
import type { RepoContext } from './repos.js';

/**
 * One ref update of a push as the pre-receive hook reports it, with the
 * facts the hook computed inside the quarantine when we asked for them.
 */
export interface RefUpdate {
  old: string;
  new: string;
  ref: string;
  /** The update is not a fast-forward (old is not an ancestor of new). */
  forced?: boolean;
  /** Paths that differ between old and new (for a new branch: since it left existing history). */
  paths?: string[];
  /** The newest commit the update brings, null when it brings none. */
  firstCommit?: string | null;
}

/** Which facts the hook must compute for update `index` before we can decide. */
export interface FactRequest {
  index: number;
  forced: boolean;
  paths: boolean;
  firstCommit: boolean;
}

/** The hook's answer: accept, refuse with a message, or ask for more facts. */
export type PushDecision = { ok: true } | { ok: false; message: string } | { need: FactRequest[] };

const isZero = (sha: string) => /^0+$/.test(sha);

type Verdict = { kind: 'ok' } | { kind: 'deny'; message: string } | { kind: 'need'; request: FactRequest };

/**
 * Gitea's pre-receive rules (routers/private/hook_pre_receive.go), update by
 * update, first refusal wins: write permission for every ref, the default
 * branch and protected branches cannot be deleted, force pushes, signed
 * commits, protected and unprotected file patterns, push allow-lists. Admins
 * get no bypass (there are no pull-request merges here).
 *
 * Facts that need the pushed objects are asked of the hook only for updates
 * a rule applies to; until they are known, a later update's refusal is held
 * back, so the message is always the one Gitea would give first.
 */
export async function decidePush(protections: Protections, repo: RepoContext, doer: UserRow, updates: readonly RefUpdate[]): Promise<PushDecision> {
  const need: FactRequest[] = [];
  for (let i = 0; i < updates.length; i++) {
    const v = await judge(protections, repo, doer, updates[i]!, i);
    if (v.kind === 'need') need.push(v.request);
    else if (v.kind === 'deny') return need.length ? { need } : { ok: false, message: v.message };
  }
  return need.length ? { need } : { ok: true };
}

async function judge(protections: Protections, repo: RepoContext, doer: UserRow, u: RefUpdate, index: number): Promise<Verdict> {
  // Gitea defers the write check to the hook (so a read-only collaborator gets this message, not an HTTP 403).
  if (!repo.perm.write) return { kind: 'deny', message: 'User permission denied for writing.' };
  if (!u.ref.startsWith('refs/heads/')) return { kind: 'ok' }; // tags and other refs: writers may (no protected tags here)

  const branch = u.ref.slice('refs/heads/'.length);
  if (branch === repo.row.default_branch && isZero(u.new)) return { kind: 'deny', message: `Branch ${branch} is the default branch and cannot be deleted` };
  const rule = protections.matchFor(repo.row.id, branch);
  if (!rule) return { kind: 'ok' };
  if (isZero(u.new)) return { kind: 'deny', message: `Branch ${branch} is protected from deletion` };

  const wants: FactRequest = {
    index,
    forced: !isZero(u.old) && u.forced === undefined,
    paths: hasFilePatterns(rule) && u.paths === undefined,
    firstCommit: rule.data.require_signed_commits && u.firstCommit === undefined,
  };
  if (wants.forced || wants.paths || wants.firstCommit) return { kind: 'need', request: wants };

  const isForce = !isZero(u.old) && !!u.forced;
  if (isForce && !rule.data.enable_force_push) return { kind: 'deny', message: `Branch ${branch} is protected from force push` };
  // We verify no signatures, so every new commit counts as unverified (Gitea refuses unsigned ones alike).
  if (rule.data.require_signed_commits && u.firstCommit) return { kind: 'deny', message: `Branch ${branch} is protected from unverified commit ${u.firstCommit}` };

  const paths = u.paths ?? [];
  // Gitea reports the protected path lower-cased (it matches on the lower-cased name).
  // A push may list very many paths: the checks let other requests run between slices.
  const protectedPath = rule.data.protected_file_patterns.trim() ? (await findInSlices(paths, (p) => protections.isProtectedFile(rule, p)))?.toLowerCase() : undefined;
  const canPush = protectedPath === undefined && (isForce ? protections.canForcePush(rule, doer, repo.perm) : protections.canUserPush(rule, doer, repo.perm));
  if (canPush) return { kind: 'ok' };
  if (protectedPath !== undefined) return { kind: 'deny', message: `Branch ${branch} is protected from changing file ${protectedPath}` };
  if (rule.data.unprotected_file_patterns.trim() && (await everyInSlices(paths, (p) => protections.isUnprotectedFile(rule, p)))) return { kind: 'ok' };
  return { kind: 'deny', message: isForce ? `Not allowed to force-push to protected branch ${branch}` : `Not allowed to push to protected branch ${branch}` };
}

const hasFilePatterns = (rule: Rule) => rule.data.protected_file_patterns.trim() !== '' || rule.data.unprotected_file_patterns.trim() !== '';
