import { validRefName } from '../../../protocol/gitea/request.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { DomainError, notFound, unprocessable } from '../../errors.js';
import { Lru } from '../../util/lru.js';
import { rawDiff, revList } from '../git/log.js';
import type { GitStore } from '../git/store.js';
import type { CommitJson, CommitJsonBuilder, CommitParts } from './commit-json.js';
import { cleanTreePath } from './refs.js';
import type { RepoContext } from './repos.js';

/** Gitea's commit list sizes: DEFAULT_PAGING_NUM, and MAX_RESPONSE_ITEMS / [git] COMMITS_RANGE_SIZE (both 50). */
const DEFAULT_LIMIT = 30;
const RANGE_SIZE = 50;

/** Gitea's IsValidRefPattern: what may name a commit at all (a ref name, `HEAD`, an id). */
export const validRefPattern = (s: string) => s === 'HEAD' || validRefName(s);

/** One page of a commit list and what its headers report. */
export interface CommitListPage {
  commits: CommitJson[];
  total: number;
  page: number;
  limit: number;
}

/** Reading commits: one, a page of history, a comparison, a diff. */
export function createCommits(git: GitStore, json: CommitJsonBuilder) {
  /**
   * Histories by (start commit, excluded commit, path): immutable once the
   * names are resolved to ids, so the walk that counts them also serves every
   * page after it.
   */
  const histories = new Lru<string, readonly string[]>(256, { maxWeight: 500_000, weigh: (h) => h.length + 1 });
  async function history(repo: RepoContext, start: string, not: string | undefined, path: string | undefined): Promise<readonly string[]> {
    const key = `${repo.gitDir}\0${start}\0${not ?? ''}\0${path ?? ''}`;
    let hit = histories.get(key);
    if (!hit) histories.set(key, (hit = await revList(repo.gitDir, start, not, path)));
    return hit;
  }

  /** The commit a name resolves to (an id, abbreviated or not, a branch, a tag, `HEAD`), or undefined. */
  async function resolve(repo: RepoContext, name: string): Promise<string | undefined> {
    if (!name || name.startsWith('-') || /[\s\0]/.test(name)) return undefined;
    return (await git.info(repo.gitDir, `${name}^{commit}`))?.sha;
  }

  async function one(repo: RepoContext, name: string, parts: CommitParts, viewer: UserRow | null): Promise<CommitJson> {
    if (!validRefPattern(name)) throw unprocessable(`no valid ref or sha: ${name}`);
    const sha = await resolve(repo, name);
    if (!sha) throw notFound(name);
    const [c] = await json.toJson(repo, await json.load(repo, [sha]), parts, viewer);
    return c!;
  }

  return {
    resolve,
    one,

    /**
     * GET /commits as Gitea pages it: from `sha` (default branch when empty),
     * without what `not` reaches; with `path`, only commits touching it and 50
     * to a page whatever the limit (the headers still use the limit).
     */
    async list(repo: RepoContext, q: { sha?: string; path?: string; not?: string; page?: number; limit?: number }, parts: CommitParts, viewer: UserRow | null): Promise<CommitListPage> {
      if (await git.isEmpty(repo.gitDir)) throw new DomainError('conflict', 'Git Repository is empty.');
      const page = !q.page || q.page <= 0 ? 1 : q.page;
      const limit = Math.min(!q.limit || q.limit <= 0 ? DEFAULT_LIMIT : q.limit, RANGE_SIZE);
      const startName = q.sha || repo.row.default_branch;
      const start = await resolve(repo, startName);
      // Gitea: 404 for an unknown start without a path; with one, git fails and Gitea answers 500 (a 4xx here).
      if (!start) throw notFound(q.path ? 'FileCommitsCount' : 'not found');
      let not: string | undefined;
      if (q.not) {
        not = await resolve(repo, q.not);
        if (!not) throw notFound(q.not);
      }
      // Cleaned as tree paths are: a path that cannot name an entry (`.git`, NUL, above the root) touches nothing.
      const path = q.path ? cleanTreePath(q.path) || null : undefined;
      if (path === null) throw notFound('FileCommitsCount');
      const all = await history(repo, start, not, path);
      const total = all.length;
      if (path && total === 0) throw notFound('FileCommitsCount');
      const size = path ? RANGE_SIZE : limit;
      const skip = (page - 1) * size;
      const shas = skip < total ? all.slice(skip, skip + size) : [];
      const key = `${start}\0${not ?? ''}\0${path ?? ''}\0${skip}\0${size}`;
      return { commits: await json.page(repo, key, shas, parts, viewer), total, page, limit };
    },

    /** GET /compare/{base...head}: what head has that base lacks, newest first. */
    async compare(repo: RepoContext, basehead: string, parts: CommitParts, viewer: UserRow | null): Promise<{ total_commits: number; commits: CommitJson[] }> {
      let pair = basehead.split('...');
      if (pair.length < 2) pair = basehead.split('..');
      const [baseName, headName] = pair.length >= 2 ? [pair[0]!, pair.slice(1).join(pair.length > 2 ? '...' : '..')] : [repo.row.default_branch, basehead];
      const base = await resolve(repo, baseName || repo.row.default_branch);
      if (!base) throw notFound('BaseNotExist');
      const head = await resolve(repo, headName || repo.row.default_branch);
      if (!head) throw notFound('HeadNotExist');
      const shas = await history(repo, head, base, undefined);
      return { total_commits: shas.length, commits: await json.toJson(repo, await json.load(repo, shas), parts, viewer) };
    },

    /** GET /git/commits/{sha}.{diff|patch}: the commit's changes as git prints them. */
    async diff(repo: RepoContext, name: string, kind: string): Promise<Buffer> {
      const sha = await resolve(repo, name);
      if (!sha || (kind !== 'diff' && kind !== 'patch')) throw notFound(name);
      const c = await git.commit(repo.gitDir, sha);
      return rawDiff(repo.gitDir, sha, c?.parents[0], kind);
    },
  };
}

/** The commit reader's interface. */
export type Commits = ReturnType<typeof createCommits>;
