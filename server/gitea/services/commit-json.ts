import type { Commit as CommitModel, User } from '../../../protocol/gitea/index.js';
import type { ModelOf } from '../../../protocol/model.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { notFound } from '../../errors.js';
import { GO_ZERO_TIME, goPathEscape, goTime } from '../../util/go-format.js';
import { Lru } from '../../util/lru.js';
import type { Commit } from '../git/commit.js';
import { fileStatuses, lineStats, type FileStatus, type LineStats } from '../git/log.js';
import type { GitStore } from '../git/store.js';
import type { Site } from '../site.js';
import { UNSIGNED } from './files.js';
import type { RepoContext } from './repos.js';

/** One Commit as the API shows it. */
export type CommitJson = ModelOf<typeof CommitModel>;

/** Which optional parts of a Commit to compute (each defaults to on, as in Gitea). */
export interface CommitParts {
  stat: boolean;
  verification: boolean;
  files: boolean;
}

/** What building Commit answers needs besides git: the account behind an email, shown to a viewer. */
export interface CommitJsonDeps {
  git: GitStore;
  site: Site;
  userByEmail(email: string): UserRow | undefined;
  /** Changes whenever an account may have changed (the accounts shown beside commits). */
  usersGeneration(): number;
  userJson(u: UserRow, viewer: UserRow | null): ModelOf<typeof User>;
}

/** Turns a query flag into Gitea's default-on option: absent is true. */
export const flag = (x: boolean | undefined, raw: string | null): boolean => raw === null || raw === '' || x === true;

/**
 * Builds Gitea's Commit answers. A commit's files and line counts never change,
 * so they are cached by commit id; a page's missing ones come from one git
 * process each, not one per commit.
 */
export function createCommitJson(deps: CommitJsonDeps) {
  const { git, site } = deps;
  const files = new Lru<string, FileStatus>(4096, { maxWeight: 400_000, weigh: (f) => 1 + f.added.length + f.removed.length + f.modified.length });
  const stats = new Lru<string, LineStats>(16_384);

  async function fill<T>(cache: Lru<string, T>, gitDir: string, shas: readonly string[], load: (gitDir: string, shas: readonly string[]) => Promise<Map<string, T>>): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    const missing: string[] = [];
    for (const sha of shas) {
      const hit = cache.get(`${gitDir}\0${sha}`);
      if (hit) out.set(sha, hit);
      else missing.push(sha);
    }
    if (missing.length) {
      for (const [sha, val] of await load(gitDir, missing)) {
        cache.set(`${gitDir}\0${sha}`, val);
        out.set(sha, val);
      }
    }
    return out;
  }

  /** The commits named by full ids, read from the object store (a missing one is an error of ours). */
  async function load(repo: RepoContext, shas: readonly string[]): Promise<Commit[]> {
    return Promise.all(
      shas.map(async (sha) => {
        const c = await git.commit(repo.gitDir, sha);
        if (!c) throw notFound(sha);
        return c;
      }),
    );
  }

  /** Commits as Gitea's ToCommit shows them to `viewer`, in the order given. */
  async function toJson(repo: RepoContext, commits: readonly Commit[], parts: CommitParts, viewer: UserRow | null): Promise<CommitJson[]> {
    const shas = commits.map((c) => c.sha);
    const [fileMap, statMap] = await Promise.all([
      parts.files ? fill(files, repo.gitDir, shas, fileStatuses) : undefined,
      parts.stat ? fill(stats, repo.gitDir, shas, lineStats) : undefined,
    ]);
    const api = site.repoApi(repo.owner, repo.row);
    const html = site.repoHtml(repo.owner, repo.row);
    const person = (email: string) => {
      const u = email ? deps.userByEmail(email) : undefined;
      return u ? deps.userJson(u, viewer) : null;
    };
    return commits.map((c) => {
      const url = `${api}/git/commits/${goPathEscape(c.sha)}`;
      const created = goTime(c.committer.when, c.committer.tzMinutes);
      const fs = fileMap?.get(c.sha) ?? { added: [], removed: [], modified: [] };
      const st = statMap?.get(c.sha) ?? { additions: 0, deletions: 0 };
      return {
        url,
        sha: c.sha,
        created,
        html_url: `${html}/commit/${goPathEscape(c.sha)}`,
        commit: {
          url,
          author: { name: c.author.name, email: c.author.email, date: goTime(c.author.when, c.author.tzMinutes) },
          committer: { name: c.committer.name, email: c.committer.email, date: created },
          message: c.message,
          // Gitea names the commit here, not its tree (the trees endpoint resolves a commit id to its tree).
          tree: { url: `${api}/git/trees/${goPathEscape(c.sha)}`, sha: c.sha, created },
          verification: parts.verification ? UNSIGNED : null,
        },
        author: person(c.author.email),
        committer: person(c.committer.email),
        parents: c.parents.map((p) => ({ url: `${api}/git/commits/${goPathEscape(p)}`, sha: p, created: GO_ZERO_TIME })),
        // Gitea groups by kind from a map (no fixed order); here: added, removed, modified, each in git's order.
        files: parts.files
          ? [
              ...fs.added.map((filename) => ({ filename, status: 'added' })),
              ...fs.removed.map((filename) => ({ filename, status: 'removed' })),
              ...fs.modified.map((filename) => ({ filename, status: 'modified' })),
            ]
          : null,
        stats: parts.stat ? { total: st.additions + st.deletions, additions: st.additions, deletions: st.deletions } : null,
      };
    });
  }

  /** Built pages of commit lists, frozen so the binder encodes each once. */
  const pages = new Lru<string, CommitJson[]>(128, { maxWeight: 20_000, weigh: (p) => p.length + 1 });

  /**
   * `toJson` of a page of history, kept for the next request of the same page by the
   * same viewer. `key` names what chose the commits (a resolved history and its slice);
   * a page built while an account changed is not kept, and one kept before is never
   * found again (the accounts' generation is in the key).
   */
  async function page(repo: RepoContext, key: string, shas: readonly string[], parts: CommitParts, viewer: UserRow | null): Promise<CommitJson[]> {
    const generation = deps.usersGeneration();
    const partsKey = `${+parts.stat}${+parts.verification}${+parts.files}`;
    const k = `${repo.gitDir}\0${site.repoApi(repo.owner, repo.row)}\0${key}\0${partsKey}\0${viewer?.id ?? 0}\0${generation}`;
    const hit = pages.get(k);
    if (hit) return hit;
    const built = await toJson(repo, await load(repo, shas), parts, viewer);
    Object.freeze(built); // shared by every answer of this page from now on
    if (deps.usersGeneration() === generation) pages.set(k, built);
    return built;
  }

  return { load, toJson, page };
}

/** The Commit builder's interface. */
export type CommitJsonBuilder = ReturnType<typeof createCommitJson>;
