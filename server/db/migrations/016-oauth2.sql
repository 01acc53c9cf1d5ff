-- OAuth2 provider (Gitea's oauth2_application, oauth2_grant, oauth2_authorization_code),
-- plus what Gitea keeps elsewhere: web sign-in sessions, and the access and refresh
-- tokens it signs as JWTs (here opaque, so they can be revoked by deleting a row).
-- Every secret (client secret, code, token, session id) is stored as its SHA-256 only:
-- each is 256 random bits, so an unsalted hash is safe and lets us look it up.
-- Times are Unix seconds.
CREATE TABLE oauth2_applications (
  id                   INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id              INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name                 TEXT NOT NULL,
  client_id            TEXT NOT NULL UNIQUE,
  secret_hash          TEXT NOT NULL,
  -- JSON array of strings, in the order given.
  redirect_uris        TEXT NOT NULL,
  confidential_client  INTEGER NOT NULL DEFAULT 1,
  skip_secondary_authorization INTEGER NOT NULL DEFAULT 0,
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL
);
CREATE INDEX oauth2_applications_user ON oauth2_applications (user_id, id DESC);

-- A user's consent to an application: one per (user, application). `scope` is
-- what was last consented to, as the client sent it (space-separated).
CREATE TABLE oauth2_grants (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  application_id  INTEGER NOT NULL REFERENCES oauth2_applications (id) ON DELETE CASCADE,
  user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  scope           TEXT NOT NULL DEFAULT '',
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  UNIQUE (user_id, application_id)
);

-- Authorization codes: short-lived, bound to the redirect URI and PKCE
-- challenge they were issued for. A used code is kept (used_at set) until it
-- expires, so a second use can be told from an unknown code and the tokens the
-- first use issued revoked.
CREATE TABLE oauth2_codes (
  id                    INTEGER PRIMARY KEY AUTOINCREMENT,
  grant_id              INTEGER NOT NULL REFERENCES oauth2_grants (id) ON DELETE CASCADE,
  code_hash             TEXT NOT NULL UNIQUE,
  redirect_uri          TEXT NOT NULL,
  code_challenge        TEXT NOT NULL DEFAULT '',
  code_challenge_method TEXT NOT NULL DEFAULT '',
  valid_until           INTEGER NOT NULL,
  used_at               INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX oauth2_codes_valid_until ON oauth2_codes (valid_until);

-- Access and refresh tokens. `code_id` is the code whose exchange started the
-- chain (refreshes keep it), so a replayed code revokes the whole chain.
-- A refresh token is used once: `used_at` is set when it is exchanged.
CREATE TABLE oauth2_tokens (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  grant_id    INTEGER NOT NULL REFERENCES oauth2_grants (id) ON DELETE CASCADE,
  code_id     INTEGER NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  token_hash  TEXT NOT NULL UNIQUE,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX oauth2_tokens_code ON oauth2_tokens (code_id);
CREATE INDEX oauth2_tokens_expires ON oauth2_tokens (expires_at);

-- Web sign-in sessions (the cookie holds the id; the row its hash).
CREATE TABLE web_sessions (
  id_hash     TEXT PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);
CREATE INDEX web_sessions_expires ON web_sessions (expires_at);
