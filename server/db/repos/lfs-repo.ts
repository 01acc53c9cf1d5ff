import type { Db } from '../open.js';

/** SQL for LFS objects and which repositories may read them. */
export function createLfsRepo(db: Db) {
  const addObject = db.prepare('INSERT INTO lfs_objects (oid, size, created_at) VALUES (?, ?, ?) ON CONFLICT (oid) DO NOTHING');
  const object = db.prepare('SELECT oid, size FROM lfs_objects WHERE oid = ?');
  const link = db.prepare('INSERT INTO lfs_repo_objects (repo_id, oid, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const linked = db.prepare('SELECT o.oid, o.size FROM lfs_repo_objects r JOIN lfs_objects o ON o.oid = r.oid WHERE r.repo_id = ? AND r.oid = ?');
  const linkedAll = db.prepare('SELECT o.oid, o.size FROM lfs_repo_objects r JOIN lfs_objects o ON o.oid = r.oid WHERE r.repo_id = ? ORDER BY o.oid');
  const store = db.transaction((repoId: number, oid: string, size: number, at: number) => {
    addObject.run(oid, size, at);
    link.run(repoId, oid, at);
  });
  return {
    object: (oid: string) => object.get(oid) as { oid: string; size: number } | undefined,
    /** The object, if this repository may read it. */
    linked: (repoId: number, oid: string) => linked.get(repoId, oid) as { oid: string; size: number } | undefined,
    linkedAll: (repoId: number) => linkedAll.all(repoId) as { oid: string; size: number }[],
    /** Records a stored object and links it to a repository, in one transaction. */
    store: (repoId: number, oid: string, size: number, at: number) => store(repoId, oid, size, at),
  };
}

export type LfsRepo = ReturnType<typeof createLfsRepo>;
