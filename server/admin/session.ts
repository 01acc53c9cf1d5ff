import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { DataDirBusyError, lockDataDir, type DataDirLock } from '../db/data-dir-lock.js';
import { openDatabase, openExistingDatabase, schemaVersion, type Db } from '../db/open.js';
import { createTokenRepo } from '../db/repos/token-repo.js';
import { createUserRepo } from '../db/repos/user-repo.js';
import { createAccounts, type Accounts } from '../gitea/services/accounts.js';
import { Failure } from './args.js';

/** What a command works with: the accounts service over the server's own database, and whether a server runs on it. */
export interface AdminSession {
  accounts: Accounts;
  serverRunning: boolean;
  close(): void;
}

/**
 * Opens DATA_DIR's database for one command, through the same repositories
 * and account service the server uses.
 *
 * - No server runs on DATA_DIR: the command takes the directory's lock for
 *   its short life (a server started meanwhile is refused, as a second server
 *   is) and opens the database as the server does, migrations included.
 * - A server runs (it holds the lock): the database is opened beside it,
 *   without the lock and without migrating — the server owns the schema. The
 *   file is in WAL mode, so both read and write it; SQLite serialises the
 *   writes, and the server's read cache sees ours at its next read
 *   (`data_version`, server/db/read-cache.ts). A database at another schema
 *   version than this code expects is refused: that server runs other code.
 *
 * A DATA_DIR without a database is refused in both cases: the server creates
 * it (and its first admin) on its first start.
 */
export function openSession(config: Config): AdminSession {
  const dir = resolve(config.dataDir);
  const file = join(dir, 'trunkline.db');
  if (!existsSync(file)) throw new Failure(`no Trunkline database in DATA_DIR ${dir}: start the server once to create it, or set DATA_DIR`);
  let lock: DataDirLock | undefined;
  let db: Db;
  try {
    lock = lockDataDir(dir);
  } catch (err) {
    if (!(err instanceof DataDirBusyError)) throw new Failure((err as Error).message);
  }
  try {
    db = lock ? openDatabase(file, config.dbSynchronous) : openExistingDatabase(file, config.dbSynchronous);
  } catch (err) {
    lock?.release();
    throw new Failure(`cannot open ${file}: ${(err as Error).message}`);
  }
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version !== schemaVersion()) {
    db.close();
    lock?.release();
    throw new Failure(`the database in DATA_DIR is at schema version ${version} and this command expects ${schemaVersion()}: use the admin command of the Trunkline version that wrote it`);
  }
  return {
    accounts: createAccounts(createUserRepo(db), createTokenRepo(db)),
    serverRunning: !lock,
    close() {
      db.close();
      lock?.release();
    },
  };
}
