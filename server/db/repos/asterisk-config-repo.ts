import type { Db } from '../open.js';

/** A log channel added through ARI: its key as listed, and its levels as given. */
export interface LogChannelRow {
  filename: string;
  configuration: string;
}

/** A configuration object made through ARI, with the attributes that were set on it. */
export interface ConfigObjectRow {
  configClass: string;
  objectType: string;
  id: string;
  fields: Record<string, string>;
}

/** SQL for what ARI's asterisk resource changes: module states, added log channels, configuration objects. */
export function createAsteriskConfigRepo(db: Db) {
  const modules = db.prepare('SELECT name, running FROM module_states');
  const putModule = db.prepare('INSERT INTO module_states (name, running) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET running = excluded.running');
  const logs = db.prepare('SELECT filename, configuration FROM log_channels ORDER BY seq');
  const addLog = db.prepare('INSERT INTO log_channels (filename, configuration, seq) VALUES (?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM log_channels))');
  const removeLog = db.prepare('DELETE FROM log_channels WHERE filename = ?');
  const objects = db.prepare('SELECT config_class, object_type, id, fields FROM config_objects ORDER BY rowid');
  const putObject = db.prepare(
    `INSERT INTO config_objects (config_class, object_type, id_key, id, fields) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (config_class, object_type, id_key) DO UPDATE SET fields = excluded.fields`,
  );
  const removeObject = db.prepare('DELETE FROM config_objects WHERE config_class = ? AND object_type = ? AND id_key = ?');
  return {
    /** Module name → running, for the modules whose state was changed. */
    moduleStates: () => new Map((modules.all() as Array<{ name: string; running: number }>).map((r) => [r.name, r.running === 1])),
    putModuleState: (name: string, running: boolean) => void putModule.run(name, running ? 1 : 0),
    /** Added log channels, oldest first. */
    logChannels: () => logs.all() as LogChannelRow[],
    addLogChannel: (row: LogChannelRow) => void addLog.run(row.filename, row.configuration),
    removeLogChannel: (filename: string) => void removeLog.run(filename),
    configObjects: () =>
      (objects.all() as Array<{ config_class: string; object_type: string; id: string; fields: string }>).map(
        (r): ConfigObjectRow => ({ configClass: r.config_class, objectType: r.object_type, id: r.id, fields: JSON.parse(r.fields) as Record<string, string> }),
      ),
    putConfigObject: (row: ConfigObjectRow) => void putObject.run(row.configClass, row.objectType, row.id.toLowerCase(), row.id, JSON.stringify(row.fields)),
    removeConfigObject: (configClass: string, objectType: string, id: string) => void removeObject.run(configClass, objectType, id.toLowerCase()),
  };
}

export type AsteriskConfigRepo = ReturnType<typeof createAsteriskConfigRepo>;
