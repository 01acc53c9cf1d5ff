import type { Db } from '../open.js';

export interface ReleaseRow {
  id: number;
  repo_id: number;
  /** Null once the account is gone (the release then shows Gitea's ghost user). */
  publisher_id: number | null;
  tag_name: string;
  lower_tag_name: string;
  target: string;
  title: string;
  note: string;
  /** The commit the tag pointed at when last seen; empty while the tag does not exist. */
  sha1: string;
  is_draft: number;
  is_prerelease: number;
  created_at: number;
  /** 0 until first published. */
  published_at: number;
}

/** What a new or edited release row holds (the lower-case tag name is derived). */
export type ReleaseFields = Omit<ReleaseRow, 'id' | 'lower_tag_name'>;

/** Which releases a listing shows: drafts only when `drafts` allows them, then the optional filters. */
export interface ReleaseFilter {
  drafts: boolean;
  draft?: boolean | undefined;
  prerelease?: boolean | undefined;
}

/** Gitea's order for lists and "latest": newest first, the later row first on a tie. */
const ORDER = 'ORDER BY created_at DESC, id DESC';

const isUnique = (err: unknown) => (err as { code?: string })?.code === 'SQLITE_CONSTRAINT_UNIQUE';

/** SQL for releases. */
export function createReleaseRepo(db: Db) {
  const byId = db.prepare('SELECT * FROM releases WHERE repo_id = ? AND id = ?');
  const byTag = db.prepare('SELECT * FROM releases WHERE repo_id = ? AND lower_tag_name = lower(?)');
  const latest = db.prepare(`SELECT * FROM releases WHERE repo_id = ? AND is_draft = 0 AND is_prerelease = 0 ${ORDER} LIMIT 1`);
  const published = db.prepare('SELECT count(*) AS n FROM releases WHERE repo_id = ? AND is_draft = 0');
  const insertStmt = db.prepare(
    `INSERT INTO releases (repo_id, publisher_id, tag_name, lower_tag_name, target, title, note, sha1, is_draft, is_prerelease, created_at, published_at)
     VALUES (@repo_id, @publisher_id, @tag_name, lower(@tag_name), @target, @title, @note, @sha1, @is_draft, @is_prerelease, @created_at, @published_at)`,
  );
  const updateStmt = db.prepare(
    `UPDATE releases SET publisher_id = @publisher_id, tag_name = @tag_name, lower_tag_name = lower(@tag_name), target = @target, title = @title, note = @note,
     sha1 = @sha1, is_draft = @is_draft, is_prerelease = @is_prerelease, created_at = @created_at, published_at = @published_at WHERE id = @id`,
  );
  const removeStmt = db.prepare('DELETE FROM releases WHERE id = ?');
  // A tag that went away leaves its release a draft with no commit (Gitea's PushUpdateDeleteTags).
  // Matched by exact name: git's refs/tags/V1 is not refs/tags/v1, whatever the release lookups allow.
  const tagGone = db.prepare("UPDATE releases SET is_draft = 1, sha1 = '' WHERE repo_id = ? AND tag_name = ?");
  const tagAt = db.prepare('UPDATE releases SET sha1 = ? WHERE repo_id = ? AND tag_name = ?');

  function where(repoId: number, f: ReleaseFilter): { sql: string; args: unknown[] } {
    const parts = ['repo_id = ?'];
    const args: unknown[] = [repoId];
    if (!f.drafts) parts.push('is_draft = 0');
    if (f.draft !== undefined) parts.push(`is_draft = ${f.draft ? 1 : 0}`);
    if (f.prerelease !== undefined) parts.push(`is_prerelease = ${f.prerelease ? 1 : 0}`);
    return { sql: parts.join(' AND '), args };
  }

  return {
    byId: (repoId: number, id: number) => byId.get(repoId, id) as ReleaseRow | undefined,
    /** The release of a tag, whatever the case of the name. */
    byTag: (repoId: number, tag: string) => byTag.get(repoId, tag) as ReleaseRow | undefined,
    /** The newest release that is neither a draft nor a pre-release. */
    latest: (repoId: number) => latest.get(repoId) as ReleaseRow | undefined,
    /** How many releases are published (Gitea's release counter: pre-releases count, drafts do not). */
    countPublished: (repoId: number) => (published.get(repoId) as { n: number }).n,
    /** One page of a repository's releases, newest first, and how many match in all. */
    list(repoId: number, f: ReleaseFilter, offset: number, limit: number): { rows: ReleaseRow[]; total: number } {
      const w = where(repoId, f);
      const total = (db.prepare(`SELECT count(*) AS n FROM releases WHERE ${w.sql}`).get(...w.args) as { n: number }).n;
      if (!(offset < total)) return { rows: [], total }; // past the end (a huge page number included)
      const rows = db.prepare(`SELECT * FROM releases WHERE ${w.sql} ${ORDER} LIMIT ? OFFSET ?`).all(...w.args, limit, offset) as ReleaseRow[];
      return { rows, total };
    },
    /** Stores a new release; undefined when its tag already has one. */
    insert(r: ReleaseFields): ReleaseRow | undefined {
      try {
        return byId.get(r.repo_id, Number(insertStmt.run(r).lastInsertRowid)) as ReleaseRow;
      } catch (err) {
        if (isUnique(err)) return undefined;
        throw err;
      }
    },
    /** Writes every field of a release; false when its (new) tag name belongs to another release. */
    update(r: ReleaseFields & { id: number }): boolean {
      try {
        updateStmt.run(r);
        return true;
      } catch (err) {
        if (isUnique(err)) return false;
        throw err;
      }
    },
    remove: (id: number) => void removeStmt.run(id),
    /** Follows a tag's move: its release records the new commit, or becomes a draft without one when the tag is gone. */
    tagMoved(repoId: number, tag: string, sha: string | null): void {
      if (sha) tagAt.run(sha, repoId, tag);
      else tagGone.run(repoId, tag);
    },
  };
}

export type ReleaseRepo = ReturnType<typeof createReleaseRepo>;
