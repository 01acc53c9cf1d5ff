import type { Db } from '../open.js';

export interface PushMirrorRow {
  id: number;
  repo_id: number;
  remote_name: string;
  remote_address: string;
  /** Sealed JSON `{"username","password"}`, or null. */
  credentials: string | null;
  /** Sealed OpenSSH private key, or null. */
  private_key: string | null;
  public_key: string;
  interval_ns: bigint;
  sync_on_commit: number;
  created_at: number;
  last_update: number;
  last_error: string;
}

export interface MirrorJobRow {
  id: number;
  kind: 'push' | 'pull';
  target_id: number;
  due_at: number;
  attempts: number;
  requested: number;
  reason: string;
  created_at: number;
}

/** SQL for push mirrors and the sync job queue. */
export function createMirrorRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO push_mirrors (repo_id, remote_name, remote_address, public_key, interval_ns, sync_on_commit, created_at)
     VALUES (@repo_id, @remote_name, @remote_address, @public_key, @interval_ns, @sync_on_commit, @created_at)`,
  );
  const seal = db.prepare('UPDATE push_mirrors SET credentials = ?, private_key = ? WHERE id = ?');
  const byId = db.prepare('SELECT * FROM push_mirrors WHERE id = ?').safeIntegers(false);
  const byName = db.prepare('SELECT * FROM push_mirrors WHERE repo_id = ? AND remote_name = ?');
  const byRepo = db.prepare('SELECT * FROM push_mirrors WHERE repo_id = ? ORDER BY id');
  const all = db.prepare('SELECT * FROM push_mirrors ORDER BY id');
  const remove = db.prepare('DELETE FROM push_mirrors WHERE id = ?');
  const result = db.prepare('UPDATE push_mirrors SET last_update = ?, last_error = ? WHERE id = ?');
  // interval_ns can exceed 2^53 (Go allows ~292 years): read it as a bigint.
  for (const s of [byName, byRepo, all]) s.safeIntegers(true);
  byId.safeIntegers(true);

  const upsertJob = db.prepare(
    `INSERT INTO mirror_jobs (kind, target_id, due_at, reason, created_at) VALUES (@kind, @target_id, @due_at, @reason, @created_at)
     ON CONFLICT (kind, target_id) DO UPDATE SET due_at = min(due_at, excluded.due_at), requested = requested + 1, attempts = 0,
       reason = CASE WHEN excluded.due_at < due_at THEN excluded.reason ELSE reason END`,
  );
  const dueJobs = db.prepare('SELECT * FROM mirror_jobs WHERE due_at <= ? ORDER BY due_at, id LIMIT ?');
  const nextDue = db.prepare('SELECT min(due_at) AS due FROM mirror_jobs');
  const jobById = db.prepare('SELECT * FROM mirror_jobs WHERE id = ?');
  const finishJob = db.prepare('DELETE FROM mirror_jobs WHERE id = ? AND requested = ?');
  const retryJob = db.prepare('UPDATE mirror_jobs SET attempts = attempts + 1, due_at = ? WHERE id = ? AND requested = ?');
  const dropJob = db.prepare('DELETE FROM mirror_jobs WHERE id = ?');
  const jobsOf = db.prepare('SELECT * FROM mirror_jobs WHERE kind = ? AND target_id = ?');
  const allJobs = db.prepare('SELECT * FROM mirror_jobs ORDER BY due_at, id');

  const row = (r: unknown): PushMirrorRow | undefined => {
    if (!r) return undefined;
    const x = r as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(x)) out[k] = typeof val === 'bigint' && k !== 'interval_ns' ? Number(val) : val;
    return out as unknown as PushMirrorRow;
  };

  return {
    insert: (m: Pick<PushMirrorRow, 'repo_id' | 'remote_name' | 'remote_address' | 'public_key' | 'interval_ns' | 'sync_on_commit' | 'created_at'>): number =>
      Number(insert.run(m).lastInsertRowid),
    seal: (id: number, credentials: string | null, privateKey: string | null) => void seal.run(credentials, privateKey, id),
    byId: (id: number) => row(byId.get(id)),
    byName: (repoId: number, name: string) => row(byName.get(repoId, name)),
    list: (repoId: number) => byRepo.all(repoId).map((r) => row(r)!),
    allPushMirrors: () => all.all().map((r) => row(r)!),
    remove: (id: number) => remove.run(id).changes > 0,
    recordResult: (id: number, at: number, error: string) => void result.run(at, error, id),

    /** Queues a sync (or moves a queued one earlier). */
    enqueue: (kind: MirrorJobRow['kind'], targetId: number, dueAt: number, reason: string) =>
      void upsertJob.run({ kind, target_id: targetId, due_at: dueAt, reason, created_at: Date.now() }),
    dueJobs: (now: number, max: number) => dueJobs.all(now, max) as MirrorJobRow[],
    nextDue: () => (nextDue.get() as { due: number | null }).due,
    job: (id: number) => jobById.get(id) as MirrorJobRow | undefined,
    /** Removes a job that ran, unless it was asked for again while it ran (then it stays, to run again). */
    finishJob: (id: number, requested: number) => finishJob.run(id, requested).changes > 0,
    /** Backs a failed job off, unless it was asked for again while it ran. */
    retryJob: (id: number, requested: number, dueAt: number) => void retryJob.run(dueAt, id, requested),
    dropJob: (id: number) => void dropJob.run(id),
    jobsOf: (kind: MirrorJobRow['kind'], targetId: number) => jobsOf.all(kind, targetId) as MirrorJobRow[],
    allJobs: () => allJobs.all() as MirrorJobRow[],
  };
}

export type MirrorRepo = ReturnType<typeof createMirrorRepo>;

export interface PullMirrorRow {
  repo_id: number;
  remote_address: string;
  credentials: string | null;
  interval_ns: bigint;
  last_update: number;
  last_error: string;
  /** 1: LFS objects are fetched too. */
  lfs: number;
  /** Without credentials; '' for the endpoint derived from remote_address. */
  lfs_endpoint: string;
}

export interface PullMirrorInsert {
  repoId: number;
  address: string;
  credentials: string | null;
  intervalNs: bigint;
  lfs: boolean;
  lfsEndpoint: string;
}

/** Where a mirror's LFS passes stand: the tips the last complete pass covered, and what its remote lacked. */
export interface LfsMirrorState {
  tips: string[];
  pending: { oid: string; size: number }[];
}

/** SQL for pull mirrors. */
export function createPullMirrorRepo(db: Db) {
  const insert = db.prepare('INSERT INTO pull_mirrors (repo_id, remote_address, credentials, interval_ns, lfs, lfs_endpoint) VALUES (?, ?, ?, ?, ?, ?)');
  const get = db.prepare('SELECT repo_id, remote_address, credentials, interval_ns, last_update, last_error, lfs, lfs_endpoint FROM pull_mirrors WHERE repo_id = ?').safeIntegers(true);
  const all = db.prepare('SELECT repo_id, remote_address, credentials, interval_ns, last_update, last_error, lfs, lfs_endpoint FROM pull_mirrors ORDER BY repo_id').safeIntegers(true);
  const result = db.prepare('UPDATE pull_mirrors SET last_update = ?, last_error = ? WHERE repo_id = ?');
  const tips = db.prepare('SELECT lfs_synced_tips FROM pull_mirrors WHERE repo_id = ?');
  const pending = db.prepare('SELECT oid, size FROM lfs_mirror_pending WHERE repo_id = ? ORDER BY oid');
  const setTips = db.prepare('UPDATE pull_mirrors SET lfs_synced_tips = ? WHERE repo_id = ?');
  const clearPending = db.prepare('DELETE FROM lfs_mirror_pending WHERE repo_id = ?');
  const addPending = db.prepare('INSERT INTO lfs_mirror_pending (repo_id, oid, size) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const saveLfs = db.transaction((repoId: number, state: LfsMirrorState) => {
    setTips.run(JSON.stringify(state.tips), repoId);
    clearPending.run(repoId);
    for (const p of state.pending) addPending.run(repoId, p.oid, p.size);
  });
  const row = (r: unknown): PullMirrorRow | undefined => {
    if (!r) return undefined;
    const x = r as Record<string, unknown>;
    return { ...x, repo_id: Number(x.repo_id), last_update: Number(x.last_update), lfs: Number(x.lfs) } as unknown as PullMirrorRow;
  };
  return {
    insert: (m: PullMirrorInsert) => void insert.run(m.repoId, m.address, m.credentials, m.intervalNs, m.lfs ? 1 : 0, m.lfsEndpoint),
    get: (repoId: number) => row(get.get(repoId)),
    all: () => all.all().map((r) => row(r)!),
    recordResult: (repoId: number, at: number, error: string) => void result.run(at, error, repoId),
    lfsState(repoId: number): LfsMirrorState {
      const t = tips.get(repoId) as { lfs_synced_tips: string } | undefined;
      const list = t ? (JSON.parse(t.lfs_synced_tips) as unknown) : [];
      return { tips: Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [], pending: pending.all(repoId) as LfsMirrorState['pending'] };
    },
    /** Records a completed LFS pass, in one transaction. */
    saveLfsState: (repoId: number, state: LfsMirrorState) => saveLfs(repoId, state),
  };
}

export type PullMirrorRepo = ReturnType<typeof createPullMirrorRepo>;
