-- Releases: notes published for a tag, as Gitea keeps them. A release names its
-- tag (the tag may not exist yet: a draft creates none) and remembers the commit
-- the tag pointed at when it was last seen (`sha1`, empty while there is no
-- tag). Tag names are unique per repository whatever their case, as Gitea looks
-- them up by `lower_tag_name`. Times are Unix seconds; `published_at` is 0 until
-- the release is first published (a draft has none).
CREATE TABLE releases (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  repo_id        INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  publisher_id   INTEGER REFERENCES users (id) ON DELETE SET NULL,
  tag_name       TEXT NOT NULL,
  lower_tag_name TEXT NOT NULL,
  target         TEXT NOT NULL DEFAULT '',
  title          TEXT NOT NULL DEFAULT '',
  note           TEXT NOT NULL DEFAULT '',
  sha1           TEXT NOT NULL DEFAULT '',
  is_draft       INTEGER NOT NULL DEFAULT 0,
  is_prerelease  INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL,
  published_at   INTEGER NOT NULL DEFAULT 0,
  UNIQUE (repo_id, lower_tag_name)
);

-- Lists and "latest" walk a repository's releases newest first.
CREATE INDEX releases_repo_created ON releases (repo_id, created_at DESC, id DESC);
