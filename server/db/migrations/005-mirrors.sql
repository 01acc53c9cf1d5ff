-- Push mirrors: where a repository is copied to after commits and on an interval.
-- Credentials and SSH private keys are sealed (server/util/secret-box.ts), bound
-- to their row; the address is stored without credentials.
CREATE TABLE push_mirrors (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  repo_id        INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  remote_name    TEXT NOT NULL,
  remote_address TEXT NOT NULL,
  credentials    TEXT,
  private_key    TEXT,
  public_key     TEXT NOT NULL DEFAULT '',
  -- Go duration in nanoseconds; 0: no scheduled sync
  interval_ns    INTEGER NOT NULL,
  sync_on_commit INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL,
  last_update    INTEGER NOT NULL DEFAULT 0,
  last_error     TEXT NOT NULL DEFAULT '',
  UNIQUE (repo_id, remote_name)
);

-- Sync jobs waiting to run: at most one per mirror (a newer request only moves
-- it earlier), kept until the sync has run, so a restart loses none.
CREATE TABLE mirror_jobs (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  -- push: target is push_mirrors.id; pull: target is repositories.id
  kind       TEXT NOT NULL,
  target_id  INTEGER NOT NULL,
  due_at     INTEGER NOT NULL,
  attempts   INTEGER NOT NULL DEFAULT 0,
  -- bumped by every request for the job: a job asked for again while it ran is kept and runs again
  requested  INTEGER NOT NULL DEFAULT 0,
  reason     TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (kind, target_id)
);
CREATE INDEX mirror_jobs_due ON mirror_jobs (due_at);
