import type { Db } from '../open.js';

/** One registered contact as stored. */
export interface ContactRow {
  endpoint: string;
  uri: string;
  status: string;
  qualified: number;
  rtt_usec: number;
  expires: number;
  registered: number;
}

/** A script set for the calls we place to an endpoint, as stored (script: the steps as JSON). */
export interface EndpointScriptRow {
  endpoint: string;
  script: string;
  calls: number | null;
}

/** What a far end received outside calls. */
export type InboxKind = 'message' | 'refer';

/** SQL for endpoints' registered contacts, their far ends' inboxes, and the scripts their far ends follow. */
export function createEndpointRepo(db: Db) {
  const contacts = db.prepare('SELECT endpoint, uri, status, qualified, rtt_usec, expires, registered FROM endpoint_contacts ORDER BY registered, rowid');
  const putContact = db.prepare(
    `INSERT INTO endpoint_contacts (endpoint, uri, status, qualified, rtt_usec, expires, registered)
     VALUES (@endpoint, @uri, @status, @qualified, @rtt_usec, @expires, @registered)
     ON CONFLICT (endpoint, uri) DO UPDATE SET status = excluded.status, qualified = excluded.qualified,
       rtt_usec = excluded.rtt_usec, expires = excluded.expires`,
  );
  const removeContact = db.prepare('DELETE FROM endpoint_contacts WHERE endpoint = ? AND uri = ?');
  const addItem = db.prepare('INSERT INTO far_end_inbox (endpoint, kind, item) VALUES (?, ?, ?)');
  const prune = db.prepare(
    `DELETE FROM far_end_inbox WHERE endpoint = @endpoint AND kind = @kind AND id <= (
       SELECT id FROM far_end_inbox WHERE endpoint = @endpoint AND kind = @kind ORDER BY id DESC LIMIT 1 OFFSET @keep)`,
  );
  const items = db.prepare('SELECT item FROM far_end_inbox WHERE endpoint = ? AND kind = ? ORDER BY id');
  const scripts = db.prepare('SELECT endpoint, script, calls FROM endpoint_scripts ORDER BY endpoint');
  const putScript = db.prepare(
    'INSERT INTO endpoint_scripts (endpoint, script, calls) VALUES (@endpoint, @script, @calls) ON CONFLICT (endpoint) DO UPDATE SET script = excluded.script, calls = excluded.calls',
  );
  const removeScript = db.prepare('DELETE FROM endpoint_scripts WHERE endpoint = ?');
  return {
    contacts: () => contacts.all() as ContactRow[],
    putContact: (row: ContactRow) => void putContact.run(row),
    removeContact: (endpoint: string, uri: string) => void removeContact.run(endpoint, uri),
    /** Keeps one received item, dropping the oldest beyond `keep` of its kind. */
    addItem: (endpoint: string, kind: InboxKind, item: object, keep: number) => {
      addItem.run(endpoint, kind, JSON.stringify(item));
      prune.run({ endpoint, kind, keep });
    },
    scripts: () => scripts.all() as EndpointScriptRow[],
    putScript: (row: EndpointScriptRow) => void putScript.run(row),
    removeScript: (endpoint: string) => void removeScript.run(endpoint),
    items: (endpoint: string, kind: InboxKind) => (items.all(endpoint, kind) as { item: string }[]).map((r) => JSON.parse(r.item) as Record<string, unknown>),
  };
}

export type EndpointRepo = ReturnType<typeof createEndpointRepo>;
