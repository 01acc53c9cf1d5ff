import type { MirrorRepo } from '../../db/repos/mirror-repo.js';
import type { Logger } from '../../log.js';
import type { RemoteGit } from '../mirrors/remote-git.js';
import { createMirrorQueue, type MirrorQueue } from './mirror-queue.js';
import type { PullMirrors } from './pull-mirrors.js';
import type { PushMirrors } from './push-mirrors.js';
import type { RepoContext, RepoService } from './repos.js';

/** What scheduling mirrors needs. */
export interface MirrorSchedulerDeps {
  rows: MirrorRepo;
  pushMirrors: PushMirrors;
  pullMirrors: PullMirrors;
  repos: Pick<RepoService, 'byId'>;
  remoteGit: Pick<RemoteGit, 'idle' | 'close' | 'running'>;
  log: Logger;
  config: { mirrorEnabled: boolean; mirrorQueueConcurrency: number; mirrorShutdownGraceMs: number };
}

/** When a mirror with this interval, last synced at `fromMs`, is next due (never in the past). */
const dueAfter = (intervalNs: bigint, fromMs = Date.now()) => Math.max(Date.now(), fromMs + Number(intervalNs / 1_000_000n));

/**
 * When mirrors sync: it owns the durable queue, puts the next interval sync
 * of a mirror on it after each one, queues push mirrors with sync_on_commit
 * when their repository gets a commit, and starts and stops the queue with
 * the server.
 */
export function createMirrorScheduler(deps: MirrorSchedulerDeps) {
  const { rows, pushMirrors, pullMirrors, config, log } = deps;

  const queue: MirrorQueue = createMirrorQueue({
    rows,
    log,
    concurrency: config.mirrorQueueConcurrency,
    async run(job, signal) {
      if (job.kind === 'pull') return pullMirrors.sync(job.target_id, signal);
      const row = rows.byId(job.target_id);
      const repo = row && deps.repos.byId(row.repo_id, null);
      if (!row || !repo) return true; // deleted since: nothing to do
      return (await pushMirrors.sync(repo, row, signal)).ok;
    },
    afterJob(job) {
      const intervalNs = job.kind === 'pull' ? pullMirrors.get(job.target_id)?.interval_ns : rows.byId(job.target_id)?.interval_ns;
      if (intervalNs !== undefined) schedule(job.kind, job.target_id, intervalNs);
    },
  });

  /** Queues the next scheduled sync of an interval mirror (interval 0: none). */
  function schedule(kind: 'push' | 'pull', id: number, intervalNs: bigint): void {
    if (intervalNs > 0n) queue.enqueue(kind, id, 'schedule', dueAfter(intervalNs));
  }

  return {
    /** The durable sync queue. */
    queue,
    schedule,

    /** sync_on_commit: a commit through the API or a push queues those push mirrors of its repository. */
    commitLanded(repo: RepoContext): void {
      if (!config.mirrorEnabled) return;
      for (const m of rows.list(repo.row.id)) if (m.sync_on_commit) queue.enqueue('push', m.id, 'commit');
    },

    /** Starts the queue (once the server listens: a mirror may be served by this very server). */
    start(): void {
      if (!config.mirrorEnabled) return;
      // Interval mirrors without a queued job (a fresh database, or jobs dropped after failures) get one.
      for (const row of rows.allPushMirrors())
        if (row.interval_ns > 0n && !rows.jobsOf('push', row.id).length)
          rows.enqueue('push', row.id, dueAfter(row.interval_ns, (row.last_update || row.created_at) * 1000), 'schedule');
      for (const pull of pullMirrors.all())
        if (pull.interval_ns > 0n && !rows.jobsOf('pull', pull.repo_id).length)
          rows.enqueue('pull', pull.repo_id, dueAfter(pull.interval_ns, pull.last_update * 1000), 'schedule');
      queue.start();
    },

    /**
     * Stops claiming jobs and waits for the running syncs, migrations and API
     * syncs included, for MIRROR_SHUTDOWN_GRACE at most; then kills what is
     * left. An interrupted job stays queued, as it was, and runs after the
     * restart.
     */
    async stop(): Promise<void> {
      const { remoteGit } = deps;
      const settled = Promise.all([queue.stop(), remoteGit.idle()]).then(() => true);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), config.mirrorShutdownGraceMs)));
      const inTime = await Promise.race([settled, late]);
      clearTimeout(timer);
      if (inTime) return;
      log.warn({ running: remoteGit.running }, 'mirror operations still running at shutdown: stopping them');
      // The queue's own jobs first, so they know the kill is an interruption, then everything else.
      const interrupted = queue.interrupt();
      remoteGit.close();
      await Promise.all([interrupted, remoteGit.idle()]);
    },
  };
}

/** The mirror scheduler's interface. */
export type MirrorScheduler = ReturnType<typeof createMirrorScheduler>;
