-- Accounts: just enough for the repository API's permission rules.
-- Times are Unix seconds, as Gitea keeps them.
CREATE TABLE users (
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL,
  lower_name    TEXT NOT NULL UNIQUE,
  full_name     TEXT NOT NULL DEFAULT '',
  email         TEXT NOT NULL,
  -- scrypt$N$r$p$salt$hash (base64)
  password_hash TEXT NOT NULL,
  is_admin      INTEGER NOT NULL DEFAULT 0,
  is_active     INTEGER NOT NULL DEFAULT 1,
  prohibit_login INTEGER NOT NULL DEFAULT 0,
  visibility    TEXT NOT NULL DEFAULT 'public',
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  last_login_at INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX users_email ON users (lower(email));

-- Access tokens are stored as SHA-256 of the token (a token is 160 random
-- bits, so a fast hash is safe); only the last eight characters are kept in
-- clear to show which token is which.
CREATE TABLE access_tokens (
  id          INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  token_hash  TEXT NOT NULL UNIQUE,
  last_eight  TEXT NOT NULL,
  scopes      TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL DEFAULT 0,
  UNIQUE (user_id, name)
);

CREATE TABLE repositories (
  id             INTEGER PRIMARY KEY,
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

CREATE TABLE collaborators (
  repo_id    INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- read | write | admin
  mode       TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (repo_id, user_id)
);
CREATE INDEX collaborators_user ON collaborators (user_id);

-- Branch protection rules; `data` holds the rule's options (JSON) as the API
-- takes them, the columns what we look rules up by.
CREATE TABLE branch_protections (
  id         INTEGER PRIMARY KEY,
  repo_id    INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  rule_name  TEXT NOT NULL,
  priority   INTEGER NOT NULL DEFAULT 0,
  data       TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (repo_id, rule_name)
);

-- LFS: the content-addressed store holds each object once; a repository can
-- read an object only once it is linked to it (uploaded to it).
CREATE TABLE lfs_objects (
  oid        TEXT PRIMARY KEY,
  size       INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE lfs_repo_objects (
  repo_id    INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  oid        TEXT NOT NULL REFERENCES lfs_objects (oid),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (repo_id, oid)
);
