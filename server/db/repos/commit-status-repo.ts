import type { Db } from '../open.js';

export interface CommitStatusRow {
  id: number;
  repo_id: number;
  sha: string;
  idx: number;
  state: string;
  target_url: string;
  description: string;
  context: string;
  creator_id: number | null;
  created_at: number;
}

/** How a commit's statuses are ordered (Gitea's `sort` values; newest first otherwise). */
const ORDER: Record<string, string> = {
  oldest: 'created_at ASC, id ASC',
  recentupdate: 'created_at DESC, id DESC',
  leastupdate: 'created_at ASC, id ASC',
  leastindex: 'idx ASC',
  highestindex: 'idx DESC',
};

/** SQL for commit statuses. */
export function createCommitStatusRepo(db: Db) {
  const nextIdx = db.prepare('SELECT coalesce(max(idx), 0) + 1 AS n FROM commit_statuses WHERE repo_id = ? AND sha = ?');
  const insertStmt = db.prepare(
    'INSERT INTO commit_statuses (repo_id, sha, idx, state, target_url, description, context, creator_id, created_at) VALUES (@repo_id, @sha, @idx, @state, @target_url, @description, @context, @creator_id, @created_at)',
  );
  const byId = db.prepare('SELECT * FROM commit_statuses WHERE id = ?');
  const latest = db.prepare(
    'SELECT * FROM commit_statuses WHERE id IN (SELECT max(id) FROM commit_statuses WHERE repo_id = ? AND sha = ? GROUP BY context) ORDER BY id ASC',
  );
  /** Numbering and insert in one transaction: two reports for one commit never share an index. */
  const insert = db.transaction((r: Omit<CommitStatusRow, 'id' | 'idx'>) => {
    const idx = (nextIdx.get(r.repo_id, r.sha) as { n: number }).n;
    return byId.get(Number(insertStmt.run({ ...r, idx }).lastInsertRowid)) as CommitStatusRow;
  });
  return {
    insert,
    /** One page of a commit's statuses, optionally of one state, and how many there are in all. */
    list(repoId: number, sha: string, opts: { state?: string; sort?: string; offset: number; limit: number }): { rows: CommitStatusRow[]; total: number } {
      const where = `repo_id = ? AND sha = ?${opts.state ? ' AND state = ?' : ''}`;
      const args: unknown[] = opts.state ? [repoId, sha, opts.state] : [repoId, sha];
      const order = ORDER[opts.sort ?? ''] ?? 'id DESC';
      const total = (db.prepare(`SELECT count(*) AS n FROM commit_statuses WHERE ${where}`).get(...args) as { n: number }).n;
      if (!(opts.offset < total)) return { rows: [], total }; // past the end (a huge page number included)
      const rows = db.prepare(`SELECT * FROM commit_statuses WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...args, opts.limit, opts.offset) as CommitStatusRow[];
      return { rows, total };
    },
    /** The newest status of each context of a commit, oldest context first. */
    latest: (repoId: number, sha: string) => latest.all(repoId, sha) as CommitStatusRow[],
  };
}

export type CommitStatusRepo = ReturnType<typeof createCommitStatusRepo>;
