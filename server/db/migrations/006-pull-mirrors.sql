-- Pull mirrors: a repository kept in step with a remote by `git fetch --prune`.
-- The address is stored without credentials; credentials are sealed.
CREATE TABLE pull_mirrors (
  repo_id        INTEGER PRIMARY KEY REFERENCES repositories (id) ON DELETE CASCADE,
  remote_address TEXT NOT NULL,
  credentials    TEXT,
  -- Go duration in nanoseconds; 0: sync only when asked
  interval_ns    INTEGER NOT NULL,
  last_update    INTEGER NOT NULL DEFAULT 0,
  last_error     TEXT NOT NULL DEFAULT ''
);
