import type { PullMirrorRepo, PullMirrorRow } from '../../db/repos/mirror-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { badRequest, DomainError, forbidden, notFound, unauthorized, unprocessable } from '../../errors.js';
import type { Logger } from '../../log.js';
import { parseGoDuration } from '../../util/go-duration.js';
import type { SecretBox } from '../../util/secret-box.js';
import type { Accounts } from './accounts.js';
import type { GitStore } from '../git/store.js';
import { runGit } from '../git/run.js';
import { ZERO_SHA } from '../git/refs.js';
import { OutboundError } from '../mirrors/outbound-http.js';
import { warnAddressRefused } from '../mirrors/policy-warning.js';
import { checkMirrorAddress, type AddressCheck, type MirrorUrlPolicy } from '../mirrors/url-policy.js';
import { lfsSourceOf, type LfsMirroring, type LfsSource } from './lfs-mirror.js';
import { RemoteGitError, type RemoteGit } from '../mirrors/remote-git.js';
import { mirrorSyncError } from './push-mirrors.js';
import type { RepoEvents } from '../repo-events.js';
import type { RepoContext, RepoService } from './repos.js';
import type { CommitPublisher } from './commit-bus.js';

/** A migration request (Gitea's MigrateRepoOptions, the fields we use). */
export interface MigrateOptions {
  clone_addr: string;
  repo_name: string;
  repo_owner?: string;
  auth_username?: string;
  auth_password?: string;
  auth_token?: string;
  mirror?: boolean;
  private?: boolean;
  description?: string;
  mirror_interval?: string;
  lfs?: boolean;
  lfs_endpoint?: string;
}

/** What is sealed in pull_mirrors.credentials (the lfs_* pair only when lfs_endpoint had its own). */
interface SealedCredentials {
  username: string;
  password: string;
  lfs_username?: string;
  lfs_password?: string;
}

/** What pull mirrors need. */
export interface PullMirrorDeps {
  rows: PullMirrorRepo;
  box: SecretBox;
  repos: RepoService;
  accounts: Accounts;
  /** Whether `user` owns organisation `org` (site admins do); a migration may target an organisation its owners own. */
  isOrgOwner?: (org: UserRow, user: UserRow) => boolean;
  git: GitStore;
  dataDir: string;
  log: Logger;
  config: { mirrorEnabled: boolean; mirrorMinInterval: bigint; mirrorDefaultInterval: bigint; lfsEnabled: boolean };
  policy: MirrorUrlPolicy;
  /** Runs git against the remote (policy checked again, limits, credentials for its host only). */
  remoteGit: RemoteGit;
  resolveHost?: (host: string) => Promise<string[]>;
  /** Sync started/finished/failed events for /api/v1/events. */
  events?: RepoEvents;
  /** Where each branch a fetch moved is published (sync-on-commit of push mirrors, live events). */
  commits?: CommitPublisher;
  /** Fetches the LFS objects of migrations and mirrors asked to copy them (`lfs: true`). */
  lfs?: LfsMirroring;
}

const refusal = (check: Extract<AddressCheck, { ok: false }>) => (check.status === 401 ? unauthorized(check.message) : badRequest(check.message));

/**
 * Migration (a plain copy, or a pull mirror) by fetching every ref of the
 * remote into a new bare repository, and pull-mirror syncs by
 * `git fetch --prune`. The remote `origin` holds the address without
 * credentials; they reach git through remote-git.ts at fetch time, which
 * also checks the address again and bounds the fetch in time.
 * With `lfs: true` the LFS objects the fetched refs point to are copied
 * too, at migration and after every sync (lfs-mirror.ts says how, and
 * what Gitea does when the source has no LFS server).
 */
export function createPullMirrors(deps: PullMirrorDeps) {
  const { rows, box, git } = deps;
  const aad = (repoId: number) => `pull_mirror:${repoId}:credentials`;

  /** Fetches from origin at `address`; null when it worked, else our words for why not (RemoteGitError's `interrupted` tells a shutdown). */
  async function fetch(repo: RepoContext, address: string, username: string, password: string, signal?: AbortSignal): Promise<RemoteGitError | null> {
    try {
      await deps.remoteGit.run(['fetch', '--prune', '--tags', '--quiet', 'origin'], { gitDir: repo.gitDir, address, kind: 'pull', username, password, signal });
      return null;
    } catch (err) {
      if (err instanceof RemoteGitError) return err;
      deps.log.error({ err, repo: repo.row.id }, 'pull mirror fetch failed unexpectedly');
      return new RemoteGitError(mirrorSyncError(err));
    } finally {
      git.invalidate(repo.gitDir);
    }
  }

  /** The remote's default branch (its HEAD), if it has one we now hold. */
  async function adoptHead(repo: RepoContext, address: string, username: string, password: string): Promise<void> {
    const refs = await git.refs(repo.gitDir);
    if (refs.branches.size === 0) return;
    const head = await deps.remoteGit.run(['ls-remote', '--symref', 'origin', 'HEAD'], { gitDir: repo.gitDir, address, kind: 'pull', username, password }).catch(() => null);
    const m = head && /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(head.stdout.toString('utf8'));
    const branch = m && refs.branches.has(m[1]!) ? m[1]! : refs.branches.has(repo.row.default_branch) ? repo.row.default_branch : [...refs.branches.keys()][0]!;
    if (branch !== repo.row.default_branch) await deps.repos.setDefaultBranch(repo, branch);
    else await git.setHead(repo.gitDir, branch);
  }

  /** The migration's LFS pass: any failure fails the migration (Gitea), in our words. */
  async function copyLfs(repo: RepoContext, source: LfsSource) {
    try {
      return await deps.lfs!.pass({ id: repo.row.id, gitDir: repo.gitDir }, source, [], []);
    } catch (err) {
      if (err instanceof OutboundError) throw unprocessable(`Migration failed: ${err.message}`);
      throw err;
    }
  }

  /** A mirror sync's LFS pass: a failure is logged and tried again next time (Gitea logs it; the sync stands). */
  async function syncLfs(repo: RepoContext, row: PullMirrorRow, creds: SealedCredentials, signal?: AbortSignal): Promise<void> {
    const given = row.lfs_endpoint ? { endpoint: row.lfs_endpoint, username: creds.lfs_username ?? '', password: creds.lfs_password ?? '' } : undefined;
    const source = lfsSourceOf(row.remote_address, { username: creds.username, password: creds.password }, given);
    if (!source) return;
    const state = rows.lfsState(repo.row.id);
    try {
      const pass = await deps.lfs!.pass({ id: repo.row.id, gitDir: repo.gitDir }, source, state.tips, state.pending, signal);
      rows.saveLfsState(repo.row.id, { tips: pass.tips, pending: pass.missing });
    } catch (err) {
      const error = err instanceof OutboundError ? err.message : 'internal error';
      if (!(err instanceof OutboundError)) deps.log.error({ err, repo: repo.row.id }, 'pull mirror LFS pass failed');
      deps.log.warn({ repo: repo.row.id, error }, 'pull mirror LFS sync failed; the next sync tries again');
    }
  }

  return {
    get: (repoId: number) => rows.get(repoId),
    all: () => rows.all(),

    async migrate(doer: UserRow, opt: MigrateOptions): Promise<RepoContext> {
      let owner = doer;
      if (opt.repo_owner && opt.repo_owner.toLowerCase() !== doer.name.toLowerCase()) {
        const named = deps.accounts.byName(opt.repo_owner);
        if (!named) throw unprocessable(`user does not exist [uid: 0, name: ${opt.repo_owner}]`);
        if (named.type === 1) {
          if (!deps.isOrgOwner?.(named, doer)) throw forbidden('Given user is not owner of organization.');
        } else if (!doer.is_admin) throw forbidden('Given user is not an organization.');
        owner = named;
      }
      if (opt.mirror && !deps.config.mirrorEnabled) throw forbidden('the site administrator has disabled the creation of new pull mirrors');
      let interval = deps.config.mirrorDefaultInterval;
      if (opt.mirror && opt.mirror_interval) {
        const parsed = parseGoDuration(opt.mirror_interval);
        if ('error' in parsed || parsed.ns < 0n) throw badRequest(`invalid interval: ${'error' in parsed ? parsed.error : 'negative'}`);
        if (parsed.ns !== 0n && parsed.ns < deps.config.mirrorMinInterval) throw badRequest('Invalid mirror interval: interval is shorter than the minimum');
        interval = parsed.ns;
      }
      // A token goes in the password slot, as Gitea does with AuthToken.
      const username = opt.auth_username ?? '';
      const password = opt.auth_token || opt.auth_password || '';
      const address = await checkMirrorAddress({ address: opt.clone_addr, username, password, kind: 'pull', isAdmin: !!doer.is_admin }, deps.policy, deps.resolveHost);
      if (!address.ok && address.status === 401) warnAddressRefused(deps.log, { kind: 'pull', address: opt.clone_addr, user: doer.name }, address.setting);
      if (!address.ok) throw refusal(address);
      // As Gitea: `lfs` means nothing while this server's LFS is off; a given lfs_endpoint passes the same address policy.
      const lfs = !!opt.lfs && deps.config.lfsEnabled && !!deps.lfs;
      let lfsGiven: { endpoint: string; username: string; password: string } | undefined;
      if (lfs && opt.lfs_endpoint) {
        const ep = await checkMirrorAddress({ address: opt.lfs_endpoint, kind: 'pull', isAdmin: !!doer.is_admin }, deps.policy, deps.resolveHost);
        if (!ep.ok && ep.status === 401) warnAddressRefused(deps.log, { kind: 'pull', address: opt.lfs_endpoint, user: doer.name }, ep.setting);
        if (!ep.ok) throw refusal(ep);
        lfsGiven = { endpoint: ep.stripped, username: ep.username, password: ep.password };
      }
      const lfsSource = lfs ? lfsSourceOf(address.stripped, { username: address.username, password: address.password }, lfsGiven) : null;
      // Gitea reads a local path's objects from its disk; we fetch LFS over HTTP(S) only.
      if (lfs && !lfsSource) deps.log.warn({ address: address.stripped }, 'LFS objects are not copied from a local path');

      const repo = await deps.repos.create(owner, { name: opt.repo_name, description: opt.description ?? '', private: !!opt.private });
      try {
        await runGit(['remote', 'add', ...(opt.mirror ? ['--mirror=fetch'] : []), 'origin', address.stripped], { gitDir: repo.gitDir });
        if (!opt.mirror) await runGit(['config', 'remote.origin.fetch', '+refs/*:refs/*'], { gitDir: repo.gitDir });
        const error = await fetch(repo, address.stripped, address.username, address.password);
        if (error) throw unprocessable(`Migration failed: ${error.message}`);
        await adoptHead(repo, address.stripped, address.username, address.password);
        const lfsPass = lfsSource ? await copyLfs(repo, lfsSource) : undefined;
        if (opt.mirror) {
          const creds: SealedCredentials = { username: address.username, password: address.password };
          if (lfsGiven?.username || lfsGiven?.password) Object.assign(creds, { lfs_username: lfsGiven.username, lfs_password: lfsGiven.password });
          const sealed = Object.values(creds).some(Boolean) ? box.seal(JSON.stringify(creds), aad(repo.row.id)) : null;
          rows.insert({ repoId: repo.row.id, address: address.stripped, credentials: sealed, intervalNs: interval, lfs, lfsEndpoint: lfsGiven?.endpoint ?? '' });
          if (lfsPass) rows.saveLfsState(repo.row.id, { tips: lfsPass.tips, pending: lfsPass.missing });
          rows.recordResult(repo.row.id, Math.floor(Date.now() / 1000), '');
          await deps.repos.markMirror(repo, address.stripped);
        } else {
          // A plain copy keeps no tie to where it came from.
          await runGit(['remote', 'remove', 'origin'], { gitDir: repo.gitDir });
          await deps.repos.markMirror(repo, address.stripped, false);
        }
      } catch (err) {
        await deps.repos.remove(repo).catch((e) => deps.log.error({ err: e, repo: repo.row.id }, 'could not remove a failed migration'));
        if (err instanceof DomainError) throw err;
        deps.log.error({ err }, 'migration failed');
        throw new DomainError('internal', 'migration failed');
      }
      return deps.repos.byId(repo.row.id, doer)!;
    },

    /** One pull-mirror sync: fetch with prune, record the outcome, tell listeners which branches and tags moved. A shutdown's interruption records nothing. */
    async sync(repoId: number, signal?: AbortSignal): Promise<boolean> {
      const row = rows.get(repoId);
      const repo = deps.repos.byId(repoId, null);
      if (!row || !repo) return true; // gone since it was queued
      if (signal?.aborted) return false;
      const ref = { kind: 'pull' as const, remote_name: 'origin', remote_address: row.remote_address };
      deps.events?.mirrorSync('started', repo, ref);
      const beforeRefs = await git.refs(repo.gitDir);
      const before = new Map(beforeRefs.branches);
      const tagsBefore = new Map(beforeRefs.tags);
      const creds = row.credentials ? (JSON.parse(box.open(row.credentials, aad(repoId))) as SealedCredentials) : { username: '', password: '' };
      const failure = await fetch(repo, row.remote_address, creds.username, creds.password, signal);
      if (failure?.interrupted) {
        deps.log.info({ repo: repoId }, 'pull mirror sync interrupted by shutdown');
        return false;
      }
      if (!failure && row.lfs && deps.config.lfsEnabled && deps.lfs) await syncLfs(repo, row, creds, signal);
      const error = failure?.message ?? '';
      rows.recordResult(repoId, Math.floor(Date.now() / 1000), error);
      if (error) {
        deps.log.warn({ repo: repoId, error }, 'pull mirror sync failed');
        deps.events?.mirrorSync('failed', repo, ref, error);
        return false;
      }
      const afterRefs = await git.refs(repo.gitDir);
      const after = afterRefs.branches;
      for (const [branch, sha] of after) if (before.get(branch) !== sha) deps.commits?.publish(repo, branch, sha);
      // Tags fetched, moved, or pruned because the remote dropped them.
      for (const [tag, sha] of afterRefs.tags) if (tagsBefore.get(tag) !== sha) deps.commits?.publishTag(repo, tag, sha);
      for (const tag of tagsBefore.keys()) if (!afterRefs.tags.has(tag)) deps.commits?.publishTag(repo, tag, ZERO_SHA);
      deps.events?.mirrorSync('finished', repo, ref);
      return true;
    },

    /** The pull mirror of a repository, or 404. */
    require(repoId: number) {
      const row = rows.get(repoId);
      if (!row) throw notFound('not found');
      return row;
    },
  };
}

/** The pull mirror service's interface. */
export type PullMirrors = ReturnType<typeof createPullMirrors>;
