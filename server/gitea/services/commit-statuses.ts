import type { CombinedStatus, CommitStatus, Repository, User } from '../../../protocol/gitea/index.js';
import type { ModelOf } from '../../../protocol/model.js';
import type { CommitStatusRepo, CommitStatusRow } from '../../db/repos/commit-status-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { badRequest, notFound } from '../../errors.js';
import { goPathEscape, goTime } from '../../util/go-format.js';
import type { Commits } from './commits.js';
import type { RepoContext } from './repos.js';

type StatusJson = ModelOf<typeof CommitStatus>;

/** States a listing may be filtered by (another value filters nothing, as in Gitea). */
const FILTERABLE = new Set(['pending', 'success', 'error', 'failure', 'warning']);

/**
 * Gitea's combined state of the newest status per context: failure when one
 * reports error or failure, success when all report success, warning or
 * skipped, pending otherwise.
 */
export function combineStates(states: readonly string[]): string {
  let ok = 0;
  for (const s of states) {
    if (s === 'error' || s === 'failure') return 'failure';
    if (s === 'success' || s === 'warning' || s === 'skipped') ok++;
  }
  return ok > 0 && ok === states.length ? 'success' : 'pending';
}

/** What commit statuses need: their rows, commit names, and how accounts and repositories are shown. */
export interface CommitStatusDeps {
  rows: CommitStatusRepo;
  commits: Commits;
  userById(id: number): UserRow | undefined;
  userJson(u: UserRow, viewer: UserRow | null): ModelOf<typeof User>;
  repoJson(repo: RepoContext): Promise<ModelOf<typeof Repository>>;
  repoApi(repo: RepoContext): string;
}

/** Commit statuses: recorded by outside services, listed, and combined per commit. */
export function createCommitStatuses(deps: CommitStatusDeps) {
  function toJson(repo: RepoContext, r: CommitStatusRow, viewer: UserRow | null): StatusJson {
    const creator = r.creator_id ? deps.userById(r.creator_id) : undefined;
    const at = goTime(r.created_at);
    return {
      id: r.idx,
      status: r.state,
      target_url: r.target_url,
      description: r.description,
      url: `${deps.repoApi(repo)}/statuses/${goPathEscape(r.sha)}`,
      context: r.context,
      creator: creator ? deps.userJson(creator, viewer) : null,
      created_at: at,
      updated_at: at,
    };
  }

  /** The commit a ref or id names; 404 when it names none. */
  async function commitOf(repo: RepoContext, ref: string, missing: string): Promise<string> {
    if (!ref) throw badRequest(missing);
    const sha = await deps.commits.resolve(repo, ref);
    if (!sha) throw notFound(`object does not exist [id: ${ref}, rel_path: ]`);
    return sha;
  }

  return {
    /** POST /statuses/{sha}: stored for the commit the name resolves to, numbered within that commit. */
    async create(repo: RepoContext, doer: UserRow, ref: string, body: { state?: string; target_url?: string; description?: string; context?: string }): Promise<StatusJson> {
      const sha = await commitOf(repo, ref, 'sha not given');
      const row = deps.rows.insert({
        repo_id: repo.row.id,
        sha,
        state: body.state ?? '',
        target_url: body.target_url ?? '',
        description: body.description ?? '',
        context: body.context ?? '',
        creator_id: doer.id,
        created_at: Math.floor(Date.now() / 1000),
      });
      return toJson(repo, row, doer);
    },

    /** A page of a commit's statuses (sorted and filtered as asked) and how many match. */
    async list(repo: RepoContext, ref: string, q: { sort?: string; state?: string; offset: number; limit: number }, viewer: UserRow | null) {
      const sha = await commitOf(repo, ref, 'ref/sha not given');
      const state = q.state && FILTERABLE.has(q.state) ? q.state : undefined;
      const { rows, total } = deps.rows.list(repo.row.id, sha, { ...(state ? { state } : {}), ...(q.sort ? { sort: q.sort } : {}), offset: q.offset, limit: q.limit });
      return { statuses: rows.map((r) => toJson(repo, r, viewer)), total };
    },

    /** GET /commits/{ref}/status: the newest status per context and their combined state. */
    async combined(repo: RepoContext, ref: string, viewer: UserRow | null): Promise<ModelOf<typeof CombinedStatus>> {
      const sha = await commitOf(repo, ref, 'ref/sha not given');
      const latest = deps.rows.latest(repo.row.id, sha);
      const commitUrl = `${deps.repoApi(repo)}/commits/${goPathEscape(sha)}`;
      return {
        // Gitea leaves the state empty for a commit without statuses (the list stays a list here).
        state: latest.length ? combineStates(latest.map((r) => r.state)) : '',
        sha,
        total_count: latest.length,
        statuses: latest.map((r) => toJson(repo, r, viewer)),
        repository: await deps.repoJson(repo),
        commit_url: commitUrl,
        url: `${commitUrl}/status`,
      };
    },
  };
}

/** The commit status service's interface. */
export type CommitStatuses = ReturnType<typeof createCommitStatuses>;
