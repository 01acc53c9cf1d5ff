import type { Db } from '../open.js';

export interface RecordingRow {
  name: string;
  format: string;
  state: 'live' | 'stored';
  target_uri: string;
  file: string;
  created_at: number;
  ended_at: number | null;
  duration_ms: number;
}

/** SQL for recording rows. */
export function createRecordingRepo(db: Db) {
  const upsert = db.prepare(
    `INSERT INTO recordings (name, format, state, target_uri, file, created_at, ended_at, duration_ms)
     VALUES (@name, @format, @state, @target_uri, @file, @created_at, @ended_at, @duration_ms)
     ON CONFLICT (name) DO UPDATE SET format = excluded.format, state = excluded.state, target_uri = excluded.target_uri,
       file = excluded.file, created_at = excluded.created_at, ended_at = excluded.ended_at, duration_ms = excluded.duration_ms`,
  );
  const byName = db.prepare('SELECT * FROM recordings WHERE name = ?');
  const stored = db.prepare("SELECT * FROM recordings WHERE state = 'stored' ORDER BY name");
  const live = db.prepare("SELECT * FROM recordings WHERE state = 'live'");
  const remove = db.prepare('DELETE FROM recordings WHERE name = ?');
  return {
    save: (r: RecordingRow) => void upsert.run(r),
    get: (name: string) => byName.get(name) as RecordingRow | undefined,
    stored: () => stored.all() as RecordingRow[],
    live: () => live.all() as RecordingRow[],
    remove: (name: string) => void remove.run(name),
  };
}

export type RecordingRepo = ReturnType<typeof createRecordingRepo>;

/** SQL for bridge records. */
export function createBridgeRepo(db: Db) {
  const upsert = db.prepare('INSERT INTO bridges (id, data) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data');
  const all = db.prepare('SELECT * FROM bridges');
  const remove = db.prepare('DELETE FROM bridges WHERE id = ?');
  return {
    save: (id: string, data: string) => void upsert.run(id, data),
    all: () => all.all() as Array<{ id: string; data: string }>,
    remove: (id: string) => void remove.run(id),
  };
}

export type BridgeRepo = ReturnType<typeof createBridgeRepo>;
