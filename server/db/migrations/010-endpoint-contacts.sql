-- Contacts the far ends of our endpoints registered through the simulation API, kept across
-- restarts as PJSIP keeps its contacts. `endpoint` is the fixture key (PJSIP/alice); `expires` and
-- `registered` are instants of the engine's clock (ms); `status` is PJSIP's contact status word.
CREATE TABLE endpoint_contacts (
  endpoint   TEXT NOT NULL,
  uri        TEXT NOT NULL,
  status     TEXT NOT NULL,
  qualified  INTEGER NOT NULL,
  rtt_usec   INTEGER NOT NULL,
  expires    INTEGER NOT NULL,
  registered INTEGER NOT NULL,
  PRIMARY KEY (endpoint, uri)
);

-- What the far end of an endpoint received from us outside calls: text messages and REFERs,
-- each as the JSON the simulation API shows. Only the latest ones per endpoint and kind are kept.
CREATE TABLE far_end_inbox (
  id       INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint TEXT NOT NULL,
  kind     TEXT NOT NULL,
  item     TEXT NOT NULL
);
CREATE INDEX far_end_inbox_by_endpoint ON far_end_inbox (endpoint, kind, id);
