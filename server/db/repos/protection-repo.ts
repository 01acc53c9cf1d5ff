import type { Db } from '../open.js';

export interface ProtectionRow {
  id: number;
  repo_id: number;
  rule_name: string;
  priority: number;
  /** The rule's options (JSON), as the API takes them. */
  data: string;
  created_at: number;
  updated_at: number;
}

/** SQL for branch protection rules. */
export function createProtectionRepo(db: Db) {
  const list = db.prepare('SELECT * FROM branch_protections WHERE repo_id = ? ORDER BY priority, id');
  const byName = db.prepare('SELECT * FROM branch_protections WHERE repo_id = ? AND rule_name = ?');
  const maxPriority = db.prepare('SELECT coalesce(max(priority), 0) AS p FROM branch_protections WHERE repo_id = ?');
  const insert = db.prepare(
    'INSERT INTO branch_protections (repo_id, rule_name, priority, data, created_at, updated_at) VALUES (@repo_id, @rule_name, @priority, @data, @created_at, @created_at)',
  );
  const update = db.prepare('UPDATE branch_protections SET priority = @priority, data = @data, updated_at = @updated_at WHERE id = @id');
  const remove = db.prepare('DELETE FROM branch_protections WHERE id = ?');
  return {
    list: (repoId: number) => list.all(repoId) as ProtectionRow[],
    byName: (repoId: number, name: string) => byName.get(repoId, name) as ProtectionRow | undefined,
    maxPriority: (repoId: number) => (maxPriority.get(repoId) as { p: number }).p,
    insert: (r: Omit<ProtectionRow, 'id' | 'updated_at'>) => Number(insert.run(r).lastInsertRowid),
    update: (r: Pick<ProtectionRow, 'id' | 'priority' | 'data' | 'updated_at'>) => void update.run(r),
    remove: (id: number) => void remove.run(id),
  };
}

export type ProtectionRepo = ReturnType<typeof createProtectionRepo>;
