import type { Db } from '../open.js';

/** SQL for the items of what each channel's far end was sent (the rows go with their channel when the history is pruned). */
export function createHeardRepo(db: Db) {
  const put = db.prepare('INSERT INTO heard_items (channel_seq, n, item) VALUES (?, ?, ?) ON CONFLICT (channel_seq, n) DO UPDATE SET item = excluded.item');
  const trim = db.prepare('DELETE FROM heard_items WHERE channel_seq = ? AND n < ?');
  const list = db.prepare('SELECT n, item FROM heard_items WHERE channel_seq = ? ORDER BY n');
  return {
    /** Writes item `n` of a channel's list (new, or changed since). */
    put: (seq: number, n: number, json: string) => void put.run(seq, n, json),
    /** Drops a channel's items numbered below `first`. */
    trim: (seq: number, first: number) => void trim.run(seq, first),
    /** A channel's items, oldest first, with their numbers. */
    list: (seq: number) => list.all(seq) as Array<{ n: number; item: string }>,
  };
}

export type HeardRepo = ReturnType<typeof createHeardRepo>;
