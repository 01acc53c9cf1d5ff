import type { MirrorJobRow, MirrorRepo } from '../../db/repos/mirror-repo.js';
import type { Logger } from '../../log.js';

/** A failed sync is tried again after 5 s, 10 s, 20 s, … (at most 10 min), five times in all. */
const MAX_ATTEMPTS = 5;
const backoffMs = (attempts: number) => Math.min(5_000 * 2 ** attempts, 600_000);

export interface MirrorQueueDeps {
  rows: MirrorRepo;
  log: Logger;
  concurrency: number;
  /** Runs one job; resolves whether it worked (a throw counts as a failure). */
  run(job: MirrorJobRow): Promise<boolean>;
  /** Called after a job is done for good (succeeded, or out of attempts). */
  afterJob?(job: MirrorJobRow, ok: boolean): void;
}

/**
 * The sync queue: jobs live in SQLite (one per mirror; asking again only moves
 * it earlier), so a restart loses none, and a job leaves the table only after
 * its sync has run. Bounded concurrency; two jobs of one mirror never run at
 * once (there is only one row per mirror, and a running row is not claimed
 * again until it settles).
 */
export function createMirrorQueue(deps: MirrorQueueDeps) {
  const { rows } = deps;
  const running = new Map<number, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let pass: Promise<void> | undefined;

  function arm(): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    const next = rows.nextDue();
    if (next === null) return;
    // Jobs already running do not need waking; their end re-arms.
    const wait = Math.max(0, Math.min(next - Date.now(), 60_000));
    timer = setTimeout(() => void kick(), wait);
    timer.unref();
  }

  function kick(): Promise<void> {
    pass ??= Promise.resolve().then(() => {
      pass = undefined;
      claim();
      arm();
    });
    return pass;
  }

  function claim(): void {
    if (stopped) return;
    const free = deps.concurrency - running.size;
    if (free <= 0) return;
    for (const job of rows.dueJobs(Date.now(), free + running.size)) {
      if (running.size >= deps.concurrency) break;
      if (running.has(job.id)) continue;
      running.set(job.id, execute(job));
    }
  }

  async function execute(job: MirrorJobRow): Promise<void> {
    let ok = false;
    try {
      ok = await deps.run(job);
    } catch (err) {
      deps.log.warn({ err, job: job.id, kind: job.kind, target: job.target_id }, 'mirror job failed');
    }
    const done = ok || job.attempts + 1 >= MAX_ATTEMPTS;
    if (done) {
      rows.finishJob(job.id, job.requested);
      deps.afterJob?.(job, ok);
    } else rows.retryJob(job.id, job.requested, Date.now() + backoffMs(job.attempts));
    running.delete(job.id);
    if (!stopped) void kick();
  }

  return {
    /** Asks for a sync of a mirror at `dueAt` (ms; default now). */
    enqueue(kind: MirrorJobRow['kind'], targetId: number, reason: string, dueAt = Date.now()): void {
      rows.enqueue(kind, targetId, dueAt, reason);
      void kick();
    },
    /** Starts working (at server start: whatever the last run left is picked up). */
    start(): void {
      stopped = false;
      void kick();
    },
    /** Stops claiming jobs and waits for the running ones (their rows stay until they finish). */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.all(running.values());
    },
    /** Resolves when nothing is running and nothing is due (tests). */
    async idle(): Promise<void> {
      for (;;) {
        await pass;
        if (running.size) await Promise.all(running.values());
        else {
          const next = rows.nextDue();
          if (next === null || next > Date.now()) return;
          await kick();
          if (!running.size) return;
        }
      }
    },
    get running(): number {
      return running.size;
    },
  };
}

export type MirrorQueue = ReturnType<typeof createMirrorQueue>;
