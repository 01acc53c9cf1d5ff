-- Files attached to releases (Gitea's release attachments). The bytes live in
-- DATA_DIR/attachments, named by `uuid` as Gitea lays them out
-- (`a/b/abcdef…`); a row is written only once its file is whole, and a file is
-- removed only after its row is gone, so every row has its file. Removing a
-- release or its repository removes the rows with it; the service removes the
-- files. Names are unique neither here nor in Gitea. Times are Unix seconds.
CREATE TABLE release_attachments (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid           TEXT NOT NULL UNIQUE,
  repo_id        INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  release_id     INTEGER NOT NULL REFERENCES releases (id) ON DELETE CASCADE,
  uploader_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
  name           TEXT NOT NULL,
  size           INTEGER NOT NULL,
  download_count INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL
);

-- A release lists its files by name (Gitea's order), and the download route finds one by name.
CREATE INDEX release_attachments_release_name ON release_attachments (release_id, name, id);
-- Removing a repository collects its files first.
CREATE INDEX release_attachments_repo ON release_attachments (repo_id);
