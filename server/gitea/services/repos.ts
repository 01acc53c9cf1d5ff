import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStaleRefLocks } from '../git/locks.js';
import type { RepositoryRepo, RepositoryRow } from '../../db/repos/repository-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { conflict, forbidden, notFound, unprocessable } from '../../errors.js';
import type { GitStore } from '../git/store.js';
import { runGit } from '../git/run.js';
import { validRefName } from '../../../protocol/gitea/request.js';
import type { Perm } from './perm.js';
import type { Accounts, Authenticated } from './accounts.js';
import { accountVisibleTo, publicOnlyRefuses } from './visibility.js';

/** A repository as a request sees it: its row, owner, where it lives, and what the caller may do. */
export interface RepoContext {
  row: RepositoryRow;
  owner: UserRow;
  gitDir: string;
  perm: Perm;
}

/** What the API shows about a repository's git side (computed per request). */
export interface RepoFacts {
  empty: boolean;
  branchCount: number;
  sizeKiB: number;
  /** Published releases (Gitea's release_counter). */
  releaseCount: number;
}

const RESERVED_REPO_NAMES = new Set(['.', '..', '-']);
const RESERVED_REPO_PATTERNS = ['*.git', '*.wiki', '*.rss', '*.atom'];

/** A collaborator's access level. */
export type CollaboratorMode = 'read' | 'write' | 'admin';

/** What the repository service needs. */
export interface RepoServiceDeps {
  repos: RepositoryRepo;
  accounts: Accounts;
  git: GitStore;
  dataDir: string;
  now?: () => number;
  /** What `userId` gets from its teams in organisation `orgId` (null: not a member). */
  teamAccess?: (orgId: number, userId: number) => 'read' | 'write' | 'admin' | 'owner' | null;
  /** How many published releases a repository has (none without it). */
  releaseCount?: (repoId: number) => number;
  /** A repository's release files: collected before its row goes, removed after (none without it). */
  releaseFiles?: { uuids(repoId: number): string[]; discard(uuids: readonly string[]): Promise<void> };
}

const RANK = { read: 1, write: 2, admin: 3, owner: 4 } as const;

/** Repositories: the rows, their bare git directories, and the permission model. */
export function createRepoService(deps: RepoServiceDeps) {
  const { repos, accounts, git } = deps;
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  // Directories are named by id, so renaming a repository or its owner never moves files under a live reader.
  const gitDirOf = (id: number) => join(deps.dataDir, 'git', `${id}.git`);

  /**
   * What `doer` may do with a repository of `owner`. A public repository is
   * readable by whoever can see its owner (a limited or private owner hides
   * even its public repositories, as Gitea's GetUserRepoPermission); a
   * collaborator reads whatever the owner's visibility. A member of an organisation's team gets the
   * team's access to every repository of the organisation (its Owners team: all an owner may do).
   */
  function permission(row: RepositoryRow, owner: UserRow, doer: UserRow | null): Perm {
    if (doer && (doer.is_admin || doer.id === row.owner_id)) return { read: true, write: true, admin: true, owner: true };
    const team = doer && owner.type === 1 ? (deps.teamAccess?.(owner.id, doer.id) ?? null) : null;
    if (team === 'owner') return { read: true, write: true, admin: true, owner: true };
    const collab = doer ? repos.collaborator(row.id, doer.id) : undefined;
    const mode = team && (!collab || RANK[team] > RANK[collab.mode]) ? team : collab?.mode;
    return {
      read: (!row.is_private && accountVisibleTo(owner, doer)) || !!mode,
      write: mode === 'write' || mode === 'admin',
      admin: mode === 'admin',
      owner: false,
    };
  }

  /** Gitea's IsUsableRepoName: the characters (no `..` anywhere) first, then reserved names, then reserved patterns. */
  function checkRepoName(name: string): void {
    // Gitea answers 500 here (ErrNameCharsNotAllowed is not mapped); bad input deserves a 4xx.
    if (!/^[-.\w]+$/.test(name) || /[.]{2,}/.test(name)) throw unprocessable(`name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`);
    const lower = name.toLowerCase();
    if (RESERVED_REPO_NAMES.has(lower)) throw unprocessable(`name is reserved [name: ${lower}]`);
    for (const pat of RESERVED_REPO_PATTERNS) if (lower.endsWith(pat.slice(1))) throw unprocessable(`name pattern is not allowed [pattern: ${pat}]`);
  }

  function context(row: RepositoryRow, doer: UserRow | null): RepoContext {
    const owner = accounts.byId(row.owner_id)!;
    return { row, owner, gitDir: gitDirOf(row.id), perm: permission(row, owner, doer) };
  }

  return {
    gitDirOf,
    permission,

    /**
     * Finds a repository for a caller. One the caller cannot read does not
     * exist for them (404, as Gitea hides private repositories and the
     * repositories of owners the caller cannot see); a public-only token may
     * not reach a private one, nor one whose owner is not public (403).
     */
    lookup(ownerName: string, repoName: string, auth: Authenticated | null): RepoContext {
      const owner = accounts.byName(ownerName);
      const row = owner ? repos.byOwnerName(owner.id, repoName) : undefined;
      if (!owner || !row) throw notFound('not found');
      const ctx = context(row, auth?.user ?? null);
      if (!ctx.perm.read) throw notFound('not found');
      if (publicOnlyRefuses(auth, row, ctx.owner)) throw forbidden('token scope is limited to public repos');
      return ctx;
    },

    byId(id: number, doer: UserRow | null): RepoContext | undefined {
      const row = repos.byId(id);
      return row ? context(row, doer) : undefined;
    },

    async facts(ctx: RepoContext): Promise<RepoFacts> {
      const refs = await git.refs(ctx.gitDir);
      return { empty: await git.isEmpty(ctx.gitDir), branchCount: refs.branches.size, sizeKiB: await repoSize(ctx.gitDir), releaseCount: deps.releaseCount?.(ctx.row.id) ?? 0 };
    },

    /** Creates a repository owned by `owner` (Gitea's checks in its order), with an empty bare git repository. */
    async create(owner: UserRow, opts: { name: string; description?: string; private?: boolean; defaultBranch?: string; template?: boolean }): Promise<RepoContext> {
      checkRepoName(opts.name);
      if (repos.byOwnerName(owner.id, opts.name)) throw conflict('The repository with the same name already exists.');
      const defaultBranch = opts.defaultBranch || 'main';
      const id = repos.insert({
        owner_id: owner.id,
        name: opts.name,
        description: opts.description ?? '',
        website: '',
        default_branch: defaultBranch,
        is_private: opts.private ? 1 : 0,
        is_mirror: 0,
        is_template: opts.template ? 1 : 0,
        original_url: '',
        created_at: now(),
      });
      try {
        await git.init(gitDirOf(id), defaultBranch);
      } catch (err) {
        repos.remove(id);
        throw err;
      }
      return context(repos.byId(id)!, owner);
    },

    /**
     * PATCH: name, then basic properties, then archiving, as Gitea applies them
     * (except that nothing is applied when one of them is refused).
     */
    async edit(
      ctx: RepoContext,
      doer: UserRow,
      opts: { name?: string; description?: string; website?: string; private?: boolean; template?: boolean; default_branch?: string; archived?: boolean },
    ): Promise<RepoContext> {
      let newDefault: string | undefined;
      if (opts.default_branch !== undefined && opts.default_branch !== ctx.row.default_branch) {
        // As Gitea: an empty repository takes any name (any valid one: HEAD must hold it); otherwise
        // a branch that does not exist is ignored.
        const refs = await git.refs(ctx.gitDir);
        if ((refs.branches.size === 0 && validRefName(opts.default_branch)) || refs.branches.has(opts.default_branch)) newDefault = opts.default_branch;
      }
      // From here to the update nothing yields, so a concurrent create or rename cannot take the name in between.
      const row = repos.byId(ctx.row.id);
      if (!row) throw notFound('not found');
      const patch: Parameters<RepositoryRepo['update']>[1] = {};
      if (opts.name !== undefined && opts.name !== '' && opts.name !== row.name) {
        checkRepoName(opts.name);
        const other = repos.byOwnerName(row.owner_id, opts.name);
        if (other && other.id !== row.id) throw unprocessable(`repository already exists [uname: ${ctx.owner.name}, name: ${opts.name}]`);
        patch.name = opts.name;
      }
      if (opts.description !== undefined) patch.description = opts.description;
      if (opts.website !== undefined) patch.website = opts.website;
      if (opts.private !== undefined) patch.is_private = opts.private ? 1 : 0;
      if (opts.template !== undefined) patch.is_template = opts.template ? 1 : 0;
      if (newDefault !== undefined) patch.default_branch = newDefault;
      if (opts.archived !== undefined) {
        // As Gitea: a mirror refuses the field even when it would change nothing.
        if (row.is_mirror) throw unprocessable('repo is a mirror, cannot archive/un-archive');
        if (opts.archived !== !!row.is_archived) {
          patch.is_archived = opts.archived ? 1 : 0;
          patch.archived_at = opts.archived ? now() : 0;
        }
      }
      if (Object.keys(patch).length) repos.update(row.id, patch, now());
      if (newDefault !== undefined) await git.setHead(ctx.gitDir, newDefault);
      return context(repos.byId(row.id)!, doer);
    },

    /** Deletes the row (and with it collaborators, rules, LFS links, releases), then the directory and the release files. */
    async remove(ctx: RepoContext): Promise<void> {
      if (!ctx.perm.owner) throw forbidden('user should be the owner of the repo');
      const files = deps.releaseFiles?.uuids(ctx.row.id) ?? [];
      repos.remove(ctx.row.id);
      await deps.releaseFiles?.discard(files);
      const doomed = `${ctx.gitDir}.deleted-${Date.now()}`;
      git.forget(ctx.gitDir);
      await rename(ctx.gitDir, doomed).catch(() => {});
      await git.remove(doomed);
    },

    /**
     * At start: a repository row without its directory (a crash between the two) gets an empty
     * repository, and ref locks left by git processes that died with the last run are cleared.
     */
    async repair(startedAt = Date.now()): Promise<string[]> {
      const cleared: string[] = [];
      for (const row of repos.all()) {
        if (!existsSync(gitDirOf(row.id))) await git.init(gitDirOf(row.id), row.default_branch);
        else cleared.push(...removeStaleRefLocks(gitDirOf(row.id), startedAt));
      }
      return cleared;
    },

    touch: (ctx: RepoContext) => repos.touch(ctx.row.id, now()),

    /** Marks a migrated repository: a pull mirror (content writes and pushes refused) or a plain copy, with where it came from. */
    async markMirror(ctx: RepoContext, originalUrl: string, mirror = true): Promise<void> {
      repos.update(ctx.row.id, { is_mirror: mirror ? 1 : 0, original_url: originalUrl }, now());
      ctx.row = repos.byId(ctx.row.id)!;
    },

    /** The first branch of an empty repository becomes its default (as Gitea does on the first commit). */
    async setDefaultBranch(ctx: RepoContext, branch: string): Promise<void> {
      await git.setHead(ctx.gitDir, branch);
      repos.update(ctx.row.id, { default_branch: branch }, now());
      ctx.row = { ...ctx.row, default_branch: branch }; // rows are shared (read cache): never edited in place
    },

    collaborators: (ctx: RepoContext) => repos.collaborators(ctx.row.id).map((c) => ({ user: accounts.byId(c.user_id)!, mode: c.mode })),

    /** Gitea answers 422 when the named user does not exist. */
    collaboratorUser(name: string): UserRow {
      const user = accounts.byName(name);
      if (!user) throw unprocessable(`user does not exist [uid: 0, name: ${name}]`);
      return user;
    },

    isCollaborator: (ctx: RepoContext, user: UserRow) => !!repos.collaborator(ctx.row.id, user.id),

    setCollaborator(ctx: RepoContext, user: UserRow, permission: string | undefined): void {
      const mode = (permission ?? 'write') as CollaboratorMode;
      if (!['read', 'write', 'admin'].includes(mode)) throw unprocessable(`invalid permission [${permission}]: must be read, write or admin`);
      repos.setCollaborator(ctx.row.id, user.id, mode, now());
    },

    removeCollaborator: (ctx: RepoContext, user: UserRow) => void repos.removeCollaborator(ctx.row.id, user.id),

    /** The access mode name Gitea reports for a user on a repository. */
    accessMode(ctx: RepoContext, user: UserRow): 'owner' | 'admin' | 'write' | 'read' | 'none' {
      if (user.id === ctx.row.owner_id) return 'owner';
      if (user.is_admin) return 'admin';
      const p = permission(ctx.row, ctx.owner, user);
      return p.owner ? 'owner' : p.admin ? 'admin' : p.write ? 'write' : p.read ? 'read' : 'none';
    },
  };
}

/** Size on disk in KiB (loose + packed objects), as Gitea reports `size`. */
async function repoSize(gitDir: string): Promise<number> {
  try {
    const { stdout } = await runGit(['count-objects', '-v'], { gitDir });
    const kv = Object.fromEntries(stdout.toString().split('\n').filter(Boolean).map((l) => l.split(': ') as [string, string]));
    return Number(kv.size ?? 0) + Number(kv['size-pack'] ?? 0);
  } catch {
    return 0;
  }
}

/** The repository service's interface. */
export type RepoService = ReturnType<typeof createRepoService>;
