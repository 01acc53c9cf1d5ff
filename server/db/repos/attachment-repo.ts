import type { Db } from '../open.js';

/** A file attached to a release. */
export interface AttachmentRow {
  id: number;
  uuid: string;
  repo_id: number;
  release_id: number;
  /** Null once the account is gone. */
  uploader_id: number | null;
  name: string;
  size: number;
  download_count: number;
  created_at: number;
}

/** What a new attachment row holds (the id and the count are the table's). */
export type NewAttachment = Omit<AttachmentRow, 'id' | 'download_count'>;

/** Gitea's order for a release's files: by name, then as they came. */
const ORDER = 'ORDER BY name, id';

/** SQL for release attachments. */
export function createAttachmentRepo(db: Db) {
  const byId = db.prepare('SELECT * FROM release_attachments WHERE id = ?');
  const byUuid = db.prepare('SELECT * FROM release_attachments WHERE uuid = ?');
  const byName = db.prepare(`SELECT * FROM release_attachments WHERE release_id = ? AND name = ? ${ORDER} LIMIT 1`);
  const ofRelease = db.prepare(`SELECT * FROM release_attachments WHERE release_id = ? ${ORDER}`);
  const uuidsOfRelease = db.prepare('SELECT uuid FROM release_attachments WHERE release_id = ?').pluck();
  const uuidsOfRepo = db.prepare('SELECT uuid FROM release_attachments WHERE repo_id = ?').pluck();
  const allUuids = db.prepare('SELECT uuid FROM release_attachments').pluck();
  const insertStmt = db.prepare(
    `INSERT INTO release_attachments (uuid, repo_id, release_id, uploader_id, name, size, created_at)
     VALUES (@uuid, @repo_id, @release_id, @uploader_id, @name, @size, @created_at)`,
  );
  const releaseExists = db.prepare('SELECT 1 FROM releases WHERE id = ? AND repo_id = ?').pluck();
  const rename = db.prepare('UPDATE release_attachments SET name = ? WHERE id = ?');
  const removeStmt = db.prepare('DELETE FROM release_attachments WHERE id = ?');
  const counted = db.prepare('UPDATE release_attachments SET download_count = download_count + 1 WHERE id = ?');
  // The release is checked in the same transaction as the insert: it may have been removed while the file streamed in.
  const insert = db.transaction((a: NewAttachment): AttachmentRow | undefined => {
    if (!releaseExists.get(a.release_id, a.repo_id)) return undefined;
    return byId.get(Number(insertStmt.run(a).lastInsertRowid)) as AttachmentRow;
  });

  return {
    byId: (id: number) => byId.get(id) as AttachmentRow | undefined,
    byUuid: (uuid: string) => byUuid.get(uuid) as AttachmentRow | undefined,
    /** The first file of a release with this exact name (names may repeat, as in Gitea). */
    byName: (releaseId: number, name: string) => byName.get(releaseId, name) as AttachmentRow | undefined,
    /** A release's files in Gitea's order. */
    ofRelease: (releaseId: number) => ofRelease.all(releaseId) as AttachmentRow[],
    /** The files a release removal takes with it (collected before the rows cascade away). */
    uuidsOfRelease: (releaseId: number) => uuidsOfRelease.all(releaseId) as string[],
    /** The files a repository removal takes with it. */
    uuidsOfRepo: (repoId: number) => uuidsOfRepo.all(repoId) as string[],
    /** Every stored uuid (the start-up sweep of files without a row). */
    allUuids: () => new Set(allUuids.all() as string[]),
    /** Stores a new attachment; undefined when its release is gone. */
    insert: (a: NewAttachment) => insert(a),
    rename: (id: number, name: string) => void rename.run(name, id),
    remove: (id: number) => void removeStmt.run(id),
    /** One more download. */
    counted: (id: number) => void counted.run(id),
  };
}

/** The attachment repository's interface. */
export type AttachmentRepo = ReturnType<typeof createAttachmentRepo>;
