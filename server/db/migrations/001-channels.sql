-- Channels, live and ended. `data` holds the whole engine record (JSON) so a
-- restart restores a live channel exactly; the columns are what we query on.
-- `seq` keys the row: an id can be reused once its channel has ended.
CREATE TABLE channels (
  seq        INTEGER PRIMARY KEY,
  id         TEXT NOT NULL,
  name       TEXT NOT NULL,
  state      TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  ended_at   INTEGER,
  cause      INTEGER,
  data       TEXT NOT NULL
);
CREATE INDEX channels_live ON channels (created_at) WHERE ended_at IS NULL;
CREATE INDEX channels_id ON channels (id);
CREATE INDEX channels_history ON channels (ended_at) WHERE ended_at IS NOT NULL;

-- Monotonic counters (channel id/name sequences) that must survive restarts.
CREATE TABLE counters (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);

-- Dialplan global variables set through ARI, applied over the fixture's
-- globals at start; a NULL value records a deletion.
CREATE TABLE globals (
  name  TEXT PRIMARY KEY,
  value TEXT
);

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
