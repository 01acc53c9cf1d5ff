import type { Config } from '../config.js';
import type { Db } from '../db/open.js';
import { createLfsRepo } from '../db/repos/lfs-repo.js';
import { createMirrorRepo, createPullMirrorRepo } from '../db/repos/mirror-repo.js';
import { createProtectionRepo } from '../db/repos/protection-repo.js';
import { createRepositoryRepo } from '../db/repos/repository-repo.js';
import { createTokenRepo } from '../db/repos/token-repo.js';
import { createUserRepo, type UserRow } from '../db/repos/user-repo.js';
import type { Logger } from '../log.js';
import { GitStore } from './git/store.js';
import { closeRefUpdaters } from './git/ref-updater.js';
import { createAccounts } from './services/accounts.js';
import { ArchiveSlots } from './services/archive-slots.js';
import { LoginThrottle } from './services/login-throttle.js';
import { createContentsReader } from './services/contents.js';
import { createFiles } from './services/files.js';
import { createLfsStore } from './services/lfs-store.js';
import { newPassword } from './services/passwords.js';
import { createProtections } from './services/protections.js';
import { createRepoService, type RepoContext } from './services/repos.js';
import { createMirrorQueue } from './services/mirror-queue.js';
import { createLfsMirroring } from './services/lfs-mirror.js';
import { createPullMirrors } from './services/pull-mirrors.js';
import { createPushMirrors } from './services/push-mirrors.js';
import { openSecretBox } from '../util/secret-box.js';
import { pushLfsObjects } from './mirrors/lfs-push.js';
import { createRemoteGit } from './mirrors/remote-git.js';
import { RepoEvents } from './repo-events.js';
import { Site } from './site.js';

export interface GiteaDeps {
  db: Db;
  config: Config;
  log: Logger;
  /** Test mode: where events that break protocol/ are reported. */
  violations?: string[];
  /** Where the one-time admin password goes (stderr by default; never the JSON log). */
  announce?: (line: string) => void;
}

/** The repository half of the server: accounts, repositories, git, files, LFS, wired together. */
export async function createGitea(deps: GiteaDeps) {
  const { db, config, log } = deps;
  const site = new Site(config.rootUrl ?? 'http://127.0.0.1/');
  const git = new GitStore();
  const users = createUserRepo(db);
  const accounts = createAccounts(users, createTokenRepo(db), undefined, new LoginThrottle(config.loginThrottle));
  const repoRows = createRepositoryRepo(db);
  const repos = createRepoService({ repos: repoRows, accounts, git, dataDir: config.dataDir });
  const protections = createProtections(createProtectionRepo(db), accounts);
  const contents = createContentsReader(git, site, { maxBlobSize: config.apiMaxBlobSize });
  const lfsStore = createLfsStore(config.dataDir);
  const lfsRepo = createLfsRepo(db);
  const commitListeners = new Set<(repo: RepoContext, branch: string, sha: string) => void>();
  const files = createFiles({
    git,
    repos,
    protections,
    contents,
    lfsStore,
    lfsRepo,
    lfsEnabled: config.lfsEnabled,
    site,
    onCommit: (repo, branch, sha) => {
      for (const l of commitListeners) l(repo, branch, sha);
    },
  });

  // Locks older than this process were left by a git that died with the previous run.
  const cleared = await repos.repair(Date.now() - Math.round(process.uptime() * 1000));
  if (cleared.length) log.warn({ locks: cleared }, 'removed ref locks left by git processes of the previous run');
  const events = new RepoEvents(config.checkResponses ? deps.violations : undefined);
  commitListeners.add((repo, branch, sha) => events.commit(repo, branch, sha));

  // Mirrors: credentials sealed with SECRET_KEY, or a key generated once and kept in DATA_DIR.
  const { box, source } = openSecretBox({ secretKey: config.secretKey, dataDir: config.dataDir });
  if (source === 'file-created') log.info({ file: 'secret.key' }, 'generated the key that seals mirror credentials (set SECRET_KEY to supply one)');
  const mirrorRows = createMirrorRepo(db);
  const policy = { allowLocalNetworks: config.mirrorAllowLocalNetworks, allowedDomains: config.mirrorAllowedDomains, blockedDomains: config.mirrorBlockedDomains };
  /** When a mirror with this interval, last synced at `fromMs`, is next due (never in the past). */
  const dueAfter = (intervalNs: bigint, fromMs = Date.now()) => Math.max(Date.now(), fromMs + Number(intervalNs / 1_000_000n));
  /** Queues the next scheduled sync of an interval mirror (interval 0: none). */
  const scheduleMirror = (kind: 'push' | 'pull', id: number, intervalNs: bigint) => {
    if (intervalNs > 0n) mirrorQueue.enqueue(kind, id, 'schedule', dueAfter(intervalNs));
  };
  const remoteGit = createRemoteGit({
    dataDir: config.dataDir,
    policy,
    log,
    limits: { timeoutMs: config.mirrorTimeoutMs, lowSpeedLimit: config.mirrorLowSpeedLimit, lowSpeedTimeS: config.mirrorLowSpeedTimeS },
  });
  const pushMirrors = createPushMirrors({
    rows: mirrorRows,
    remoteGit,
    box,
    events,
    async pushLfs(repo, remote, username, password, signal) {
      if (!config.lfsEnabled) return;
      const objects = lfsRepo.linkedAll(repo.row.id);
      if (objects.length) await pushLfsObjects({ remote, username, password, objects, store: lfsStore, policy, idleMs: config.mirrorLfsIdleMs, ...(signal ? { signal } : {}) });
    },
    dataDir: config.dataDir,
    log,
    config,
    policy,
  });
  const pullMirrors = createPullMirrors({
    rows: createPullMirrorRepo(db),
    remoteGit,
    box,
    events,
    repos,
    accounts,
    git,
    dataDir: config.dataDir,
    log,
    config,
    policy,
    lfs: createLfsMirroring({ git, store: lfsStore, links: lfsRepo, policy, log, idleMs: config.mirrorLfsIdleMs }),
    notifyCommit: (repo, branch, sha) => {
      for (const l of commitListeners) l(repo, branch, sha);
    },
  });
  const mirrorQueue = createMirrorQueue({
    rows: mirrorRows,
    log,
    concurrency: config.mirrorQueueConcurrency,
    async run(job, signal) {
      if (job.kind === 'pull') return pullMirrors.sync(job.target_id, signal);
      const row = mirrorRows.byId(job.target_id);
      const repo = row && repos.byId(row.repo_id, null);
      if (!row || !repo) return true; // deleted since: nothing to do
      return (await pushMirrors.sync(repo, row, signal)).ok;
    },
    afterJob(job) {
      const intervalNs = job.kind === 'pull' ? pullMirrors.get(job.target_id)?.interval_ns : mirrorRows.byId(job.target_id)?.interval_ns;
      if (intervalNs !== undefined) scheduleMirror(job.kind, job.target_id, intervalNs);
    },
  });
  // sync_on_commit: every commit through the API or a push queues those mirrors of its repository.
  commitListeners.add((repo) => {
    if (!config.mirrorEnabled) return;
    for (const m of mirrorRows.list(repo.row.id)) if (m.sync_on_commit) mirrorQueue.enqueue('push', m.id, 'commit');
  });

  const gitea = {
    config,
    /** Admission of archive downloads (one git process each). */
    archiveSlots: new ArchiveSlots(config.archive),
    site,
    git,
    accounts,
    repos,
    protections,
    contents,
    files,
    lfsStore,
    lfsRepo,
    pushMirrors,
    pullMirrors,
    events,
    scheduleMirror,
    mirrorRows,
    mirrorQueue,
    /** Subscribes to commits made through the API or pushes (issue 5's sync-on-commit hooks in here). */
    onCommit(listener: (repo: RepoContext, branch: string, sha: string) => void): () => void {
      commitListeners.add(listener);
      return () => commitListeners.delete(listener);
    },
    notifyCommit(repo: RepoContext, branch: string, sha: string): void {
      for (const l of commitListeners) l(repo, branch, sha);
    },

    /** `auto_init`: Gitea's first commit, a README from the default template. */
    async initialCommit(repo: RepoContext, doer: UserRow, name: string, description: string): Promise<void> {
      const readme = `# ${name}\n\n${description}`.trimEnd() + '\n';
      await files.change(repo, doer, {
        files: [{ operation: 'create', path: 'README.md', content: Buffer.from(readme) }],
        message: 'Initial commit',
        branch: repo.row.default_branch,
        newBranch: repo.row.default_branch,
      });
    },

    /**
     * First start: with no user yet, create the admin from ADMIN_USERNAME /
     * ADMIN_PASSWORD, or `admin` with a random password shown once.
     */
    async bootstrapAdmin(): Promise<void> {
      if (accounts.count() > 0) return;
      const username = config.adminUsername ?? 'admin';
      const password = config.adminPassword ?? newPassword();
      await accounts.createUser({ username, email: config.adminEmail ?? `${username}@localhost`, password, isAdmin: true, bootstrap: true });
      log.info({ user: username }, 'created the first admin user');
      if (!config.adminPassword) {
        (deps.announce ?? ((l) => process.stderr.write(`${l}\n`)))(`Trunkline: created admin user "${username}" with password ${password} (shown once; set ADMIN_PASSWORD to choose it)`);
      }
    },

    /** Starts the mirror queue (once the server listens: a mirror may be served by this very server). */
    startMirrors(): void {
      if (!config.mirrorEnabled) return;
      // Interval mirrors without a queued job (a fresh database, or jobs dropped after failures) get one.
      for (const row of mirrorRows.allPushMirrors())
        if (row.interval_ns > 0n && !mirrorRows.jobsOf('push', row.id).length)
          mirrorRows.enqueue('push', row.id, dueAfter(row.interval_ns, (row.last_update || row.created_at) * 1000), 'schedule');
      for (const pull of pullMirrors.all())
        if (pull.interval_ns > 0n && !mirrorRows.jobsOf('pull', pull.repo_id).length)
          mirrorRows.enqueue('pull', pull.repo_id, dueAfter(pull.interval_ns, pull.last_update * 1000), 'schedule');
      mirrorQueue.start();
    },
    /**
     * Stops claiming mirror jobs and waits for the running syncs, migrations
     * and API syncs included, for MIRROR_SHUTDOWN_GRACE at most; then kills
     * what is left. An interrupted job stays queued, as it was, and runs after
     * the restart.
     */
    async stopMirrors(): Promise<void> {
      const settled = Promise.all([mirrorQueue.stop(), remoteGit.idle()]).then(() => true);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), config.mirrorShutdownGraceMs)));
      const inTime = await Promise.race([settled, late]);
      clearTimeout(timer);
      if (inTime) return;
      log.warn({ running: remoteGit.running }, 'mirror operations still running at shutdown: stopping them');
      // The queue's own jobs first, so they know the kill is an interruption, then everything else.
      const interrupted = mirrorQueue.interrupt();
      remoteGit.close();
      await Promise.all([interrupted, remoteGit.idle()]);
    },

    close(): void {
      git.close();
      closeRefUpdaters();
    },
  };
  return gitea;
}

export type Gitea = Awaited<ReturnType<typeof createGitea>>;
