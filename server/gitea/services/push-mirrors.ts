import { randomInt } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MirrorRepo, PushMirrorRow } from '../../db/repos/mirror-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { badRequest, DomainError, notFound, unauthorized } from '../../errors.js';
import type { Logger } from '../../log.js';
import { formatGoDuration, parseGoDuration } from '../../util/go-duration.js';
import { goTime } from '../../util/go-format.js';
import { KeyedMutex } from '../../util/keyed-mutex.js';
import type { SecretBox } from '../../util/secret-box.js';
import { runGit } from '../git/run.js';
import { OutboundError } from '../mirrors/outbound-http.js';
import { RemoteGitError, type RemoteGit } from '../mirrors/remote-git.js';
import { warnAddressRefused } from '../mirrors/policy-warning.js';
import { checkMirrorAddress, type MirrorUrlPolicy } from '../mirrors/url-policy.js';
import { findSsh, generateMirrorKeyPair } from '../mirrors/ssh-keys.js';
import type { RepoEvents } from '../repo-events.js';
import type { RepoContext } from './repos.js';

const NAME_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const randomName = () => `remote_mirror_${Array.from({ length: 10 }, () => NAME_CHARS[randomInt(NAME_CHARS.length)]).join('')}`;

/**
 * Why a sync failed, safe to store, log and return: our own words only (the
 * remote's text never gets through, see git-failure.ts); anything unexpected
 * is an internal error (logged by the caller).
 */
export function mirrorSyncError(err: unknown): string {
  if (err instanceof RemoteGitError || err instanceof OutboundError) return err.message;
  return 'internal error';
}

/** A push mirror to add (Gitea's CreatePushMirrorOption, the fields we use). */
export interface CreatePushMirror {
  remote_address?: string;
  remote_username?: string;
  remote_password?: string;
  interval?: string;
  sync_on_commit?: boolean;
  use_ssh?: boolean;
}

/** What push mirrors need. */
export interface PushMirrorDeps {
  rows: MirrorRepo;
  box: SecretBox;
  dataDir: string;
  log: Logger;
  config: { mirrorMinInterval: bigint; lfsEnabled: boolean };
  policy: MirrorUrlPolicy;
  /** Runs git against the remote (policy checked again, limits, credentials for its host only). */
  remoteGit: RemoteGit;
  /** DNS for the address policy (tests inject one). */
  resolveHost?: (host: string) => Promise<string[]>;
  /** Sync started/finished/failed events for /api/v1/events. */
  events?: RepoEvents;
  /** Uploads the repository's LFS objects to the mirror before the refs (as Gitea does). */
  pushLfs?: (repo: RepoContext, remoteAddress: string, username: string, password: string, signal?: AbortSignal) => Promise<void>;
}

/** What a sync did: nothing to report, or the reason it failed (`interrupted`: stopped by a shutdown, nothing recorded). */
export type SyncOutcome = { ok: true } | { ok: false; error: string; interrupted?: boolean };

/**
 * Push mirrors (spec: mirror operations; Gitea's services/mirror): records in
 * SQLite with credentials and keys sealed, a `--mirror=push` remote in the
 * bare repository holding only the credential-free address, and syncs by
 * `git push --mirror` through remote-git.ts (the address checked again,
 * credentials handed over by a helper for the mirror's host only, time
 * limits). One sync of a mirror at a time.
 */
export function createPushMirrors(deps: PushMirrorDeps) {
  const { rows, box } = deps;
  const syncing = new KeyedMutex();
  const sshDir = resolve(deps.dataDir, 'ssh');

  const aad = (row: Pick<PushMirrorRow, 'id'>, what: 'credentials' | 'private_key') => `push_mirror:${row.id}:${what}`;

  function credentialsOf(row: PushMirrorRow): { username: string; password: string } {
    if (!row.credentials) return { username: '', password: '' };
    return JSON.parse(box.open(row.credentials, aad(row, 'credentials'))) as { username: string; password: string };
  }

  function toJson(repo: RepoContext, row: PushMirrorRow) {
    return {
      repo_name: repo.row.name,
      remote_name: row.remote_name,
      remote_address: row.remote_address,
      created: goTime(row.created_at),
      last_update: goTime(row.last_update),
      last_error: row.last_error,
      interval: formatGoDuration(row.interval_ns),
      sync_on_commit: !!row.sync_on_commit,
      public_key: row.public_key,
    };
  }

  /** Runs one sync of `row` now (waiting for one already running); records the outcome on the row unless a shutdown interrupted it. */
  async function sync(repo: RepoContext, row: PushMirrorRow, signal?: AbortSignal): Promise<SyncOutcome> {
    return syncing.run(String(row.id), async () => {
      const current = rows.byId(row.id);
      if (!current) return { ok: true }; // deleted meanwhile: nothing to do
      if (signal?.aborted) return { ok: false, error: 'interrupted by shutdown', interrupted: true };
      const ref = { kind: 'push' as const, remote_name: current.remote_name, remote_address: current.remote_address };
      deps.events?.mirrorSync('started', repo, ref);
      const { username, password } = credentialsOf(current);
      let keyFile: string | undefined;
      let error = '';
      let interrupted = false;
      try {
        if (current.private_key) {
          mkdirSync(sshDir, { recursive: true, mode: 0o700 });
          keyFile = join(sshDir, `key-${current.id}-${process.pid}-${Date.now()}`);
          writeFileSync(keyFile, box.open(current.private_key, aad(current, 'private_key')), { mode: 0o600 });
        }
        if (deps.pushLfs) await deps.pushLfs(repo, current.remote_address, username, password, signal);
        await deps.remoteGit.run(['push', '--mirror', '--force', '--', current.remote_name], {
          gitDir: repo.gitDir,
          address: current.remote_address,
          kind: 'push',
          username,
          password,
          signal,
          ...(keyFile ? { sshKeyFile: keyFile, knownHostsFile: join(sshDir, 'known_hosts') } : {}),
        });
      } catch (err) {
        interrupted = (err instanceof RemoteGitError && err.interrupted) || !!signal?.aborted;
        error = mirrorSyncError(err);
        if (error === 'internal error') deps.log.error({ err, repo: repo.row.id, mirror: current.remote_name }, 'push mirror sync failed unexpectedly');
      } finally {
        if (keyFile) rmSync(keyFile, { force: true });
      }
      if (interrupted) {
        deps.log.info({ repo: repo.row.id, mirror: current.remote_name }, 'push mirror sync interrupted by shutdown');
        return { ok: false, error, interrupted: true };
      }
      rows.recordResult(current.id, Math.floor(Date.now() / 1000), error);
      if (error) deps.log.warn({ repo: repo.row.id, mirror: current.remote_name, error }, 'push mirror sync failed');
      else deps.log.info({ repo: repo.row.id, mirror: current.remote_name }, 'push mirror synced');
      deps.events?.mirrorSync(error ? 'failed' : 'finished', repo, ref, error);
      return error ? { ok: false, error } : { ok: true };
    });
  }

  return {
    toJson,
    sync,

    list: (repo: RepoContext) => rows.list(repo.row.id),

    get(repo: RepoContext, name: string): PushMirrorRow {
      const row = rows.byName(repo.row.id, name);
      if (!row) throw notFound('not found');
      return row;
    },

    /** repoAddPushMirror, the spec's rules in the spec's order. */
    async add(repo: RepoContext, doer: UserRow, opt: CreatePushMirror): Promise<PushMirrorRow> {
      const interval = parseGoDuration(opt.interval ?? '');
      if ('error' in interval) throw badRequest(`invalid interval: ${interval.error}`);
      if (interval.ns !== 0n && interval.ns < deps.config.mirrorMinInterval) throw badRequest(`interval is shorter than minimum ${formatGoDuration(deps.config.mirrorMinInterval)}`);
      if (interval.ns < 0n) throw badRequest(`invalid interval: time: invalid duration "${opt.interval}"`);
      const username = opt.remote_username ?? '';
      const password = opt.remote_password ?? '';
      if (opt.use_ssh && !findSsh()) throw badRequest('SSH authentication not available.');
      // Forgejo's message, typo and all.
      if (opt.use_ssh && (username || password)) throw badRequest("'use_ssh' is mutually exclusive with 'remote_username' and 'remote_passoword'");
      const address = await checkMirrorAddress({ address: opt.remote_address ?? '', username, password, kind: 'push', isAdmin: !!doer.is_admin }, deps.policy, deps.resolveHost);
      if (!address.ok && address.status === 401) warnAddressRefused(deps.log, { kind: 'push', address: opt.remote_address ?? '', repo: repo.row.name, user: doer.name }, address.setting);
      if (!address.ok) throw address.status === 401 ? unauthorized(address.message) : badRequest(address.message);

      const keys = opt.use_ssh ? generateMirrorKeyPair() : undefined;
      let name = randomName();
      while (rows.byName(repo.row.id, name)) name = randomName();
      const id = rows.insert({
        repo_id: repo.row.id,
        remote_name: name,
        remote_address: address.stripped,
        public_key: keys?.publicKey ?? '',
        interval_ns: interval.ns,
        sync_on_commit: opt.sync_on_commit ? 1 : 0,
        created_at: Math.floor(Date.now() / 1000),
      });
      try {
        const creds = address.username || address.password ? box.seal(JSON.stringify({ username: address.username, password: address.password }), `push_mirror:${id}:credentials`) : null;
        rows.seal(id, creds, keys ? box.seal(keys.privateKey, `push_mirror:${id}:private_key`) : null);
        // The remote holds the address without credentials; they reach git at sync time only.
        await runGit(['remote', 'add', '--mirror=push', name, address.stripped], { gitDir: repo.gitDir });
      } catch (err) {
        rows.remove(id);
        await runGit(['remote', 'remove', name], { gitDir: repo.gitDir, okCodes: [0, 2] }).catch(() => {});
        deps.log.error({ err, repo: repo.row.id }, 'push mirror registration failed');
        throw new DomainError('internal', 'failed to register the push mirror remote');
      }
      return rows.byId(id)!;
    },

    /** Removes the record and the remote; unknown names are 404 (decisions.md). */
    async remove(repo: RepoContext, name: string): Promise<void> {
      const row = rows.byName(repo.row.id, name);
      if (!row) throw notFound('not found');
      await syncing.run(String(row.id), async () => {
        rows.remove(row.id);
        await runGit(['remote', 'remove', name], { gitDir: repo.gitDir, okCodes: [0, 2] }).catch((err) => deps.log.warn({ err, repo: repo.row.id, mirror: name }, 'could not remove the mirror remote'));
      });
    },

    /** push_mirrors-sync: each mirror in turn; the first failure stops the loop and names the mirror (500). */
    async syncAll(repo: RepoContext): Promise<void> {
      for (const row of rows.list(repo.row.id)) {
        const r = await sync(repo, row);
        if (!r.ok) throw new DomainError('internal', `error occurred when syncing push mirror ${row.remote_name}: ${r.error}`);
      }
    },
  };
}

/** The push mirror service's interface. */
export type PushMirrors = ReturnType<typeof createPushMirrors>;
