-- A repository's id names its directory (DATA_DIR/git/<id>.git) and keys the
-- server's caches, so an id must never be reused after a delete: the table is
-- rebuilt with AUTOINCREMENT (SQLite cannot add it in place). Migrations run
-- with foreign keys off, so dropping the old table cascades nothing.
CREATE TABLE repositories_next (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  owner_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name           TEXT NOT NULL,
  lower_name     TEXT NOT NULL,
  description    TEXT NOT NULL DEFAULT '',
  website        TEXT NOT NULL DEFAULT '',
  default_branch TEXT NOT NULL,
  is_private     INTEGER NOT NULL DEFAULT 0,
  is_archived    INTEGER NOT NULL DEFAULT 0,
  archived_at    INTEGER NOT NULL DEFAULT 0,
  is_mirror      INTEGER NOT NULL DEFAULT 0,
  is_template    INTEGER NOT NULL DEFAULT 0,
  original_url   TEXT NOT NULL DEFAULT '',
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL,
  UNIQUE (owner_id, lower_name)
);
INSERT INTO repositories_next SELECT * FROM repositories;
DROP TABLE repositories;
ALTER TABLE repositories_next RENAME TO repositories;
