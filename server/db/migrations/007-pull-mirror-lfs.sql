-- Pull mirrors that copy LFS objects too (Gitea's mirror.lfs and mirror.lfs_endpoint).
ALTER TABLE pull_mirrors ADD COLUMN lfs INTEGER NOT NULL DEFAULT 0;
-- The LFS endpoint given at migration, without credentials; '' means the one derived from remote_address.
ALTER TABLE pull_mirrors ADD COLUMN lfs_endpoint TEXT NOT NULL DEFAULT '';
-- JSON array of the ref tips covered by the last LFS pass that completed: the next pass looks only at
-- objects reachable beyond them. Left as it was when a pass fails, so that pass is tried again.
ALTER TABLE pull_mirrors ADD COLUMN lfs_synced_tips TEXT NOT NULL DEFAULT '[]';

-- Objects named by a mirror's pointers that its remote did not have (a per-object 404): asked for
-- again on every sync until they arrive.
CREATE TABLE lfs_mirror_pending (
  repo_id INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  oid     TEXT NOT NULL,
  size    INTEGER NOT NULL,
  PRIMARY KEY (repo_id, oid)
);
