-- Recordings: a row per name. 'live' while recording (the file grows), 'stored' once finished.
-- A row still 'live' at start-up belonged to a recording cut off by a crash: it is kept, as stored.
CREATE TABLE recordings (
  name        TEXT PRIMARY KEY,
  format      TEXT NOT NULL,
  state       TEXT NOT NULL CHECK (state IN ('live', 'stored')),
  target_uri  TEXT NOT NULL,
  file        TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  ended_at    INTEGER,
  duration_ms INTEGER NOT NULL DEFAULT 0
);

-- Bridges created through ARI; `data` is the engine's record (JSON).
CREATE TABLE bridges (
  id   TEXT PRIMARY KEY,
  data TEXT NOT NULL
);
