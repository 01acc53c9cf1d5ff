import type { MirrorJobRow, MirrorRepo } from '../../db/repos/mirror-repo.js';
import type { Logger } from '../../log.js';

/** A failed sync is tried again after 5 s, 10 s, 20 s, … (at most 10 min), five times in all. */
const MAX_ATTEMPTS = 5;
const backoffMs = (attempts: number) => Math.min(5_000 * 2 ** attempts, 600_000);

/** What the queue runs jobs with. */
export interface MirrorQueueDeps {
  rows: MirrorRepo;
  log: Logger;
  concurrency: number;
  /** Runs one job; resolves whether it worked (a throw counts as a failure). `signal` aborts when a shutdown interrupts it. */
  run(job: MirrorJobRow, signal: AbortSignal): Promise<boolean>;
  /** Called after a job is done for good (succeeded, or out of attempts). */
  afterJob?(job: MirrorJobRow, ok: boolean): void;
}

/** How many of the queue's slots one owner's mirrors may hold: half, at least one, so others' jobs still run. */
export const perOwnerSlots = (concurrency: number) => Math.max(1, Math.floor(concurrency / 2));

interface Running {
  owner: number;
  done: Promise<void>;
  ctrl: AbortController;
}

/**
 * The sync queue: jobs live in SQLite (one per mirror; asking again only moves
 * it earlier), so a restart loses none, and a job leaves the table only after
 * its sync has run. Bounded concurrency, and a share per repository owner
 * (perOwnerSlots), so one owner's slow or hanging mirrors cannot hold every
 * slot; two jobs of one mirror never run at once (there is only one row per
 * mirror, and a running row is not claimed again until it settles). A job a
 * shutdown interrupts stays as it was, to run after the restart.
 */
export function createMirrorQueue(deps: MirrorQueueDeps) {
  const { rows } = deps;
  const perOwner = perOwnerSlots(deps.concurrency);
  const running = new Map<number, Running>();
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

  const ownerLoad = (owner: number) => [...running.values()].filter((r) => r.owner === owner).length;

  function claim(): void {
    if (stopped) return;
    // Owners at their share are left out of the query; each round starts a job or fills an owner's share.
    const full = new Set<number>();
    for (const r of running.values()) if (ownerLoad(r.owner) >= perOwner) full.add(r.owner);
    while (running.size < deps.concurrency) {
      const free = deps.concurrency - running.size;
      const jobs = rows.dueJobsFor(Date.now(), free, [...running.keys()], [...full]);
      if (!jobs.length) return;
      for (const { owner_id: owner, ...job } of jobs) {
        if (running.size >= deps.concurrency) return;
        if (full.has(owner)) continue;
        const ctrl = new AbortController();
        running.set(job.id, { owner, ctrl, done: execute(job, ctrl.signal) });
        if (ownerLoad(owner) >= perOwner) full.add(owner);
      }
    }
  }

  async function execute(job: MirrorJobRow, signal: AbortSignal): Promise<void> {
    await Promise.resolve(); // registered in `running` before it can settle
    let ok = false;
    try {
      ok = await deps.run(job, signal);
    } catch (err) {
      deps.log.warn({ err, job: job.id, kind: job.kind, target: job.target_id }, 'mirror job failed');
    }
    if (signal.aborted) {
      // Interrupted by a shutdown: the row stays untouched (not acknowledged as done, no attempt spent).
      running.delete(job.id);
      return;
    }
    const done = ok || job.attempts + 1 >= MAX_ATTEMPTS;
    if (done) {
      rows.finishJob(job.id, job.requested);
      deps.afterJob?.(job, ok);
    } else rows.retryJob(job.id, job.requested, Date.now() + backoffMs(job.attempts));
    running.delete(job.id);
    if (!stopped) void kick();
  }

  const settled = () => Promise.all([...running.values()].map((r) => r.done)).then(() => undefined);

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
    /** Stops claiming jobs; resolves when the running ones have settled (their rows stay until they finish). */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await settled();
    },
    /** Aborts the running jobs (shutdown); their rows stay queued as they were. Resolves once they have settled. */
    async interrupt(): Promise<void> {
      for (const r of running.values()) r.ctrl.abort();
      await settled();
    },
    /** Resolves when nothing is running and nothing is due (tests). */
    async idle(): Promise<void> {
      for (;;) {
        await pass;
        if (running.size) await settled();
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

/** The queue's interface. */
export type MirrorQueue = ReturnType<typeof createMirrorQueue>;
