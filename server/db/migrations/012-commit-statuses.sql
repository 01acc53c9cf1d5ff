-- Commit statuses reported by outside services (CI, bots). `idx` counts the
-- statuses of one commit of one repository from 1 (Gitea's Index, the API's id).
CREATE TABLE commit_statuses (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  repo_id     INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  sha         TEXT NOT NULL,
  idx         INTEGER NOT NULL,
  state       TEXT NOT NULL,
  target_url  TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  context     TEXT NOT NULL DEFAULT '',
  creator_id  INTEGER REFERENCES users (id) ON DELETE SET NULL,
  created_at  INTEGER NOT NULL,
  UNIQUE (repo_id, sha, idx)
);

-- The newest status per context of a commit.
CREATE INDEX commit_statuses_context ON commit_statuses (repo_id, sha, context, id);
