import type { Db } from '../open.js';

/** One mailbox as stored and as ARI shows it. */
export interface MailboxRow {
  name: string;
  old_messages: number;
  new_messages: number;
}

/** SQL for mailboxes; the list is in name order (byte order), as Asterisk reads its astdb. */
export function createMailboxRepo(db: Db) {
  const all = db.prepare('SELECT name, old_messages, new_messages FROM mailboxes ORDER BY name');
  const byName = db.prepare('SELECT name, old_messages, new_messages FROM mailboxes WHERE name = ?');
  const upsert = db.prepare(
    `INSERT INTO mailboxes (name, old_messages, new_messages) VALUES (@name, @old_messages, @new_messages)
     ON CONFLICT (name) DO UPDATE SET old_messages = excluded.old_messages, new_messages = excluded.new_messages`,
  );
  const remove = db.prepare('DELETE FROM mailboxes WHERE name = ?');
  const count = db.prepare('SELECT count(*) AS n FROM mailboxes');
  return {
    all: () => all.all() as MailboxRow[],
    get: (name: string) => byName.get(name) as MailboxRow | undefined,
    count: () => (count.get() as { n: number }).n,
    save: (row: MailboxRow) => void upsert.run(row),
    /** True when a mailbox was removed. */
    remove: (name: string) => remove.run(name).changes > 0,
  };
}

export type MailboxRepo = ReturnType<typeof createMailboxRepo>;
