-- Organisations, modelled as Gitea does: an organisation is a row of `users`
-- with type = 1 (0 is an individual account), so owners' names stay one
-- namespace and repositories keep pointing at users(id) through owner_id.
-- An organisation never signs in: its password_hash is empty.
ALTER TABLE users ADD COLUMN type INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN description TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN website TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN location TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN repo_admin_change_team_access INTEGER NOT NULL DEFAULT 0;

-- E-mail addresses identify people (sign-in, commit authors); an organisation's
-- address is optional and may repeat, so uniqueness holds for individuals only.
DROP INDEX users_email;
CREATE UNIQUE INDEX users_email ON users (lower(email)) WHERE type = 0;

-- Teams of an organisation. `authorize` is the access a member gets to every
-- repository of the organisation (teams here always include all of them):
-- read | write | admin | owner. Every organisation has one "Owners" team.
CREATE TABLE teams (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  lower_name  TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  authorize   TEXT NOT NULL,
  includes_all_repositories INTEGER NOT NULL DEFAULT 1,
  can_create_org_repo INTEGER NOT NULL DEFAULT 0,
  created_at  INTEGER NOT NULL,
  UNIQUE (org_id, lower_name)
);

-- Membership of an organisation is membership of at least one of its teams.
CREATE TABLE team_users (
  team_id INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  org_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_users_org_user ON team_users (org_id, user_id);
CREATE INDEX team_users_user ON team_users (user_id);
