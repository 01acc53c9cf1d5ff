import type { Db } from '../open.js';

/** One stored `Stasis:` device: its name after the prefix, and its state. */
export interface DeviceStateRow {
  name: string;
  state: string;
}

/** SQL for the device states applications set (`Stasis:` devices). */
export function createDeviceStateRepo(db: Db) {
  const all = db.prepare('SELECT name, state FROM device_states ORDER BY name');
  const upsert = db.prepare('INSERT INTO device_states (name, state) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET state = excluded.state');
  const remove = db.prepare('DELETE FROM device_states WHERE name = ?');
  return {
    all: () => all.all() as DeviceStateRow[],
    put: (name: string, state: string) => void upsert.run(name, state),
    remove: (name: string) => void remove.run(name),
  };
}

export type DeviceStateRepo = ReturnType<typeof createDeviceStateRepo>;
