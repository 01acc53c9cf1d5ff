import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Db = Database.Database;

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Migrations are `NNN-name.sql` files applied in order; `user_version` records the last one applied.
 * They run with foreign keys off (SQLite's procedure for rebuilding a table) and must leave none broken.
 */
const migrationFiles = () => readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{3}-.*\.sql$/.test(f)).sort();

/** The schema version this code expects: that of its last migration. */
export const schemaVersion = (): number => Number(migrationFiles().at(-1)?.slice(0, 3) ?? 0);

function migrate(db: Db): void {
  const files = migrationFiles();
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const file of files) {
    const version = Number(file.slice(0, 3));
    if (version <= current) continue;
    const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
    db.transaction(() => {
      db.exec(sql);
      const broken = db.pragma('foreign_key_check') as unknown[];
      if (broken.length) throw new Error(`migration ${file} leaves ${broken.length} broken foreign key(s)`);
      db.pragma(`user_version = ${version}`);
    })();
  }
}

/** Opens (creating if needed) the one SQLite file, in WAL mode, migrated to the latest schema. */
export function openDatabase(file: string, synchronous: 'NORMAL' | 'FULL' = 'NORMAL'): Db {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('busy_timeout = 5000');
  // better-sqlite3 turns foreign keys on by default; a table rebuild needs them off.
  db.pragma('foreign_keys = OFF');
  migrate(db);
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * Opens a database that exists, as it is: no migration runs. For a second
 * process beside a running server (the admin command line), which must not
 * change the schema under it; WAL lets both read and write the file.
 */
export function openExistingDatabase(file: string, synchronous: 'NORMAL' | 'FULL' = 'NORMAL'): Db {
  const db = new Database(file, { fileMustExist: true });
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('busy_timeout = 5000');
  return db;
}
