import type { Db } from '../open.js';

export interface ChannelRow {
  seq: number;
  id: string;
  name: string;
  state: string;
  created_at: number;
  ended_at: number | null;
  cause: number | null;
  data: string;
}

/** SQL for channel records. Statements are prepared once; callers batch writes in `transaction`. */
export function createChannelRepo(db: Db) {
  const upsert = db.prepare(
    `INSERT INTO channels (seq, id, name, state, created_at, ended_at, cause, data)
     VALUES (@seq, @id, @name, @state, @created_at, @ended_at, @cause, @data)
     ON CONFLICT (seq) DO UPDATE SET name = excluded.name, state = excluded.state,
       ended_at = excluded.ended_at, cause = excluded.cause, data = excluded.data`,
  );
  const live = db.prepare('SELECT * FROM channels WHERE ended_at IS NULL ORDER BY seq');
  const history = db.prepare(
    'SELECT * FROM channels WHERE ended_at IS NOT NULL AND (ended_at < @before OR (ended_at = @before AND seq < @seq)) ORDER BY ended_at DESC, seq DESC LIMIT @limit',
  );
  const historyAnchor = db.prepare('SELECT ended_at, seq FROM channels WHERE id = ? AND ended_at IS NOT NULL ORDER BY seq DESC LIMIT 1');
  const endedById = db.prepare('SELECT * FROM channels WHERE id = ? AND ended_at IS NOT NULL ORDER BY seq DESC LIMIT 1');
  const endedCount = db.prepare('SELECT count(*) AS n FROM channels WHERE ended_at IS NOT NULL');
  const oldestEnded = 'SELECT seq FROM channels WHERE ended_at IS NOT NULL ORDER BY ended_at, seq LIMIT ?';
  const pruneHeard = db.prepare(`DELETE FROM heard_items WHERE channel_seq IN (${oldestEnded})`);
  const pruneOldest = db.prepare(`DELETE FROM channels WHERE seq IN (${oldestEnded})`);
  const getCounter = db.prepare('SELECT value FROM counters WHERE name = ?');
  const setCounter = db.prepare('INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');

  /**
   * Ended channels, newest first; `before` pages from an earlier answer's
   * last id. Rows are read one at a time, so a caller that stops early
   * (a size-bounded answer) never loads the rest.
   */
  function historyRows(limit: number, beforeId?: string): IterableIterator<ChannelRow> | undefined {
    let anchor = { before: Number.MAX_SAFE_INTEGER, seq: Number.MAX_SAFE_INTEGER };
    if (beforeId !== undefined) {
      const a = historyAnchor.get(beforeId) as { ended_at: number; seq: number } | undefined;
      if (!a) return undefined;
      anchor = { before: a.ended_at, seq: a.seq };
    }
    return history.iterate({ ...anchor, limit }) as IterableIterator<ChannelRow>;
  }

  return {
    save: (row: ChannelRow) => void upsert.run(row),
    live: () => live.all() as ChannelRow[],
    historyRows,
    /** The newest ended channel that had this id, while it is in the history. */
    ended: (id: string) => endedById.get(id) as ChannelRow | undefined,
    /** historyRows, all read at once. */
    history(limit: number, beforeId?: string): ChannelRow[] | undefined {
      const rows = historyRows(limit, beforeId);
      return rows && [...rows];
    },
    /** Keeps at most `keep` ended channels, dropping the oldest with their heard items. */
    prune(keep: number): number {
      const n = (endedCount.get() as { n: number }).n;
      if (n <= keep) return 0;
      return db.transaction(() => {
        pruneHeard.run(n - keep);
        return pruneOldest.run(n - keep).changes;
      })();
    },
    counter: (name: string) => (getCounter.get(name) as { value: number } | undefined)?.value ?? 0,
    setCounter: (name: string, value: number) => void setCounter.run(name, value),
    transaction: <T>(fn: () => T) => db.transaction(fn)(),
  };
}

export type ChannelRepo = ReturnType<typeof createChannelRepo>;
