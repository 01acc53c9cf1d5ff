-- Modules unloaded (running = 0) or loaded again through ARI's asterisk/modules; a module without a
-- row is in the state the catalogue starts it in.
CREATE TABLE module_states (
  name    TEXT PRIMARY KEY,
  running INTEGER NOT NULL
);

-- Log channels added through ARI's asterisk/logging. `filename` is the channel as listed (its key);
-- `seq` orders them (the newest is listed first).
CREATE TABLE log_channels (
  filename      TEXT PRIMARY KEY,
  configuration TEXT NOT NULL,
  seq           INTEGER NOT NULL
);

-- Configuration objects made through ARI's asterisk/config/dynamic. `id_key` is the id in lower case
-- (ids are matched without regard to case, as endpoint names are); `fields` is a JSON object of the
-- attributes that were set, attribute to value.
CREATE TABLE config_objects (
  config_class TEXT NOT NULL,
  object_type  TEXT NOT NULL,
  id_key       TEXT NOT NULL,
  id           TEXT NOT NULL,
  fields       TEXT NOT NULL,
  PRIMARY KEY (config_class, object_type, id_key)
);
