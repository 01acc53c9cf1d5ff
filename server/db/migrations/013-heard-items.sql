-- What each channel's far end was sent (/sim/channels/{id}/heard), one row per
-- item, so a new or finished item is one small write instead of a rewrite of
-- the whole channel record. `n` numbers a channel's items from 0 in the order
-- they were listed; the oldest are dropped past the list's bound.
CREATE TABLE heard_items (
  channel_seq INTEGER NOT NULL,
  n           INTEGER NOT NULL,
  item        TEXT NOT NULL,
  PRIMARY KEY (channel_seq, n)
) WITHOUT ROWID;

-- Lists kept inside channel records until now move to the table.
INSERT INTO heard_items (channel_seq, n, item)
  SELECT c.seq, CAST(j.key AS INTEGER), j.value
  FROM channels c, json_each(c.data, '$.heard') j
  WHERE json_type(c.data, '$.heard') = 'array';
UPDATE channels SET data = json_remove(data, '$.heard') WHERE json_type(data, '$.heard') IS NOT NULL;
