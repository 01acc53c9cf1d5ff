import type { Db } from '../open.js';

/** Small key/value tables: server identity (`meta`) and dialplan globals. */
export function createMetaRepo(db: Db) {
  const getMeta = db.prepare('SELECT value FROM meta WHERE key = ?');
  const setMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const allGlobals = db.prepare('SELECT name, value FROM globals');
  const setGlobal = db.prepare('INSERT INTO globals (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
  return {
    get: (key: string) => (getMeta.get(key) as { value: string } | undefined)?.value,
    set: (key: string, value: string) => void setMeta.run(key, value),
    /** Overrides of the fixture globals; `null` means deleted. */
    globals: () => new Map((allGlobals.all() as { name: string; value: string | null }[]).map((r) => [r.name, r.value])),
    setGlobal: (name: string, value: string | null) => void setGlobal.run(name, value),
  };
}

export type MetaRepo = ReturnType<typeof createMetaRepo>;
