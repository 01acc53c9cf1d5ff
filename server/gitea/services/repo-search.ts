import type { RepositoryRepo, RepositoryRow } from '../../db/repos/repository-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { unprocessable } from '../../errors.js';
import type { Accounts } from './accounts.js';
import type { RepoContext, RepoService } from './repos.js';

/** What a repository search asks for (Gitea's SearchRepoOptions, the parts this server has). */
export interface RepoQuery {
  /** Comma-separated terms, each matched as a substring of the name (and of the description with `includeDesc`). */
  keyword?: string;
  /** Match terms against topics only (repositories here have none). */
  topicOnly?: boolean;
  includeDesc?: boolean;
  /** Repositories this user owns or collaborates on (see `collaborate`). */
  ownerId?: number;
  /** Sort this owner's repositories first, the others by owner id. */
  priorityOwnerId?: number;
  /** With `ownerId`: only the repositories that user owns. */
  exclusive?: boolean;
  /** `fork`, `source` (neither fork nor mirror), `mirror` or `collaborative` (with `ownerId`: shared with that user, not owned; no mirrors). */
  mode?: string;
  /** Include private repositories the caller may read (a signed-in caller's default). */
  private: boolean;
  isPrivate?: boolean;
  template?: boolean;
  archived?: boolean;
  /** Teams and stars do not exist here: asking for either finds nothing. */
  teamId?: number;
  starredBy?: number;
  sort?: string;
  order?: string;
}

/** Most comma-separated terms a keyword may hold: each is matched against every repository. */
export const MAX_KEYWORD_TERMS = 32;

type Key = (r: RepositoryRow) => number | string;
const byOwnerThenName = (owner: (r: RepositoryRow) => string): Key[] => [owner, (r) => r.lower_name];

/**
 * Gitea's repository search over the rows: visibility first (private repositories only for
 * callers who may read them, and only when asked for), then the filters, then Gitea's orderings
 * (`alpha` is owner name then name; ties fall back to the id, which Gitea leaves to the database).
 */
export function createRepoSearch(deps: {
  rows: Pick<RepositoryRepo, 'all' | 'collaborator'>;
  repos: Pick<RepoService, 'byId'>;
  accounts: Pick<Accounts, 'byId'>;
  /** A team of organisation `ownerId` that `userId` is in (its repositories are shared with the user). */
  teamAccess?: (ownerId: number, userId: number) => unknown;
}) {
  const ownerName = (r: RepositoryRow) => deps.accounts.byId(r.owner_id)?.lower_name ?? '';

  function orderKeys(sort: string | undefined, order: string | undefined, sizes: (r: RepositoryRow) => number): { keys: Key[]; desc: boolean } {
    if (!sort) return { keys: byOwnerThenName(ownerName), desc: false };
    const dir = order || 'asc';
    if (dir !== 'asc' && dir !== 'desc') throw unprocessable(`Invalid sort order: "${dir}"`);
    const zero: Key = () => 0;
    const keys: Record<string, Key[]> = {
      alpha: byOwnerThenName(ownerName),
      created: [(r) => r.created_at],
      updated: [(r) => r.updated_at],
      size: [sizes],
      git_size: [sizes],
      lfs_size: [zero],
      id: [(r) => r.id],
      stars: [zero],
      forks: [zero],
    };
    const chosen = keys[sort];
    if (!chosen) throw unprocessable(`Invalid sort mode: "${sort}"`);
    return { keys: chosen, desc: dir === 'desc' };
  }

  function matchesKeyword(r: RepositoryRow, q: RepoQuery, terms: string[]): boolean {
    if (!terms.length) return true;
    if (q.topicOnly) return false;
    const owner = ownerName(r);
    const desc = q.includeDesc ? r.description.toLowerCase() : '';
    const pair = (q.keyword ?? '').split('/');
    return terms.some(
      (t) =>
        r.lower_name.includes(t) ||
        (pair.length === 2 && owner.includes(pair[0]!.toLowerCase()) && r.lower_name.includes(pair[1]!.toLowerCase())) ||
        (!!q.includeDesc && desc.includes(t)),
    );
  }

  /** Gitea's mode and exclusive switches as filters: collaborate (undefined both, false owned, true shared), mirror, fork. */
  function modeFilters(q: RepoQuery): { collaborate?: boolean; mirror?: boolean; fork?: boolean } {
    const f: { collaborate?: boolean; mirror?: boolean; fork?: boolean } = q.exclusive ? { collaborate: false } : {};
    switch (q.mode ?? '') {
      case '':
        return f;
      case 'source':
        return { ...f, fork: false, mirror: false };
      case 'fork':
        return { ...f, fork: true };
      case 'mirror':
        return { ...f, mirror: true };
      case 'collaborative':
        return { ...f, mirror: false, collaborate: true };
      default:
        throw unprocessable(`Invalid search mode: "${q.mode}"`);
    }
  }

  function ownedOrShared(r: RepositoryRow, ownerId: number | undefined, collaborate: boolean | undefined): boolean {
    if (!ownerId) return true;
    const owns = r.owner_id === ownerId;
    const shares = !owns && (!!deps.rows.collaborator(r.id, ownerId) || !!deps.teamAccess?.(r.owner_id, ownerId));
    return collaborate === undefined ? owns || shares : collaborate ? shares : owns;
  }

  return {
    /**
     * Every repository matching `q` that `doer` may see, in the requested order, with the
     * caller's permission on each. `size(ctx)` is asked only when sorting by size.
     */
    async search(q: RepoQuery, doer: UserRow | null, size: (ctx: RepoContext) => Promise<number>): Promise<RepoContext[]> {
      const m = modeFilters(q);
      const sizes = new Map<number, number>();
      const { keys, desc } = orderKeys(q.sort, q.order, (r) => sizes.get(r.id) ?? 0);
      const terms = q.keyword ? q.keyword.split(',').map((t) => t.toLowerCase()) : [];
      if (terms.length > MAX_KEYWORD_TERMS) throw unprocessable(`q holds ${terms.length} comma-separated terms; at most ${MAX_KEYWORD_TERMS} are searched`);
      // Nothing here is a fork, in a team or starred.
      if (q.teamId || q.starredBy || m.fork === true) return [];
      const found: RepoContext[] = [];
      for (const row of deps.rows.all()) {
        if (q.isPrivate !== undefined && !!row.is_private !== q.isPrivate) continue;
        if (q.template !== undefined && !!row.is_template !== q.template) continue;
        if (q.archived !== undefined && !!row.is_archived !== q.archived) continue;
        if (m.mirror !== undefined && !!row.is_mirror !== m.mirror) continue;
        if (!ownedOrShared(row, q.ownerId, m.collaborate) || !matchesKeyword(row, q, terms)) continue;
        const ctx = deps.repos.byId(row.id, doer);
        if (!ctx) continue;
        // Without `private` only public repositories of public owners; with it, what the caller may read
        // (all of them for an admin, and for a user asking about their own).
        const visible = q.private
          ? !!doer && (doer.is_admin || doer.id === q.ownerId || ctx.perm.read)
          : !row.is_private && ctx.owner.visibility === 'public';
        if (visible) found.push(ctx);
      }
      if (q.sort === 'size' || q.sort === 'git_size') for (const ctx of found) sizes.set(ctx.row.id, await size(ctx));
      const priority = q.priorityOwnerId ?? 0;
      const cmp = (a: number | string, b: number | string) => (a < b ? -1 : a > b ? 1 : 0);
      return found.sort((x, y) => {
        if (priority > 0) {
          const p = cmp(x.row.owner_id === priority ? 0 : x.row.owner_id, y.row.owner_id === priority ? 0 : y.row.owner_id);
          if (p) return p;
        }
        for (const k of keys) {
          const c = cmp(k(x.row), k(y.row));
          if (c) return desc ? -c : c;
        }
        return x.row.id - y.row.id;
      });
    },
  };
}

/** The repository search's interface. */
export type RepoSearch = ReturnType<typeof createRepoSearch>;
