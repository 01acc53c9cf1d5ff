import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The file whose lock says "a server owns this DATA_DIR". Never deleted (see below). */
export const LOCK_FILE = 'trunkline.lock';
/** The owner's pid, for the refusal message only: the lock, not this file, decides. */
export const PID_FILE = 'trunkline.pid';

/** DATA_DIR is owned by another running server (or cannot be locked at all). */
export class DataDirLockError extends Error {}
/** DATA_DIR is locked by a running server (rather than not lockable at all). */
export class DataDirBusyError extends DataDirLockError {}

export interface DataDirLock {
  readonly dir: string;
  /** Gives the directory up (the kernel does the same if the process dies). */
  release(): void;
}

const isBusy = (err: unknown) => /^SQLITE_(BUSY|LOCKED)/.test((err as { code?: string }).code ?? '');

function holder(dir: string): string {
  try {
    const pid = readFileSync(join(dir, PID_FILE), 'utf8').trim();
    if (/^\d+$/.test(pid)) return `pid ${pid}`;
  } catch {
    /* not written yet, or removed: the lock still holds */
  }
  return 'pid unknown';
}

/**
 * Takes DATA_DIR for this process, or throws DataDirLockError naming the
 * process that holds it.
 *
 * The lock is SQLite's own: a small database file opened with
 * `locking_mode=EXCLUSIVE` and written once, so SQLite takes and keeps an
 * exclusive POSIX (fcntl) lock on it until the connection closes. The kernel
 * drops fcntl locks when their process ends, however it ends (SIGKILL, crash),
 * so a dead server never leaves the directory locked and no stale-lock
 * clean-up is needed. SQLite also tracks its locks within one process, so a
 * second server started in the same process is refused as well.
 *
 * Two rules keep the lock sound:
 * - the lock file is never deleted: a process that unlinks it while another
 *   has just opened it would let a third create a fresh file and lock that;
 * - nothing in the process may open and close the lock file outside SQLite:
 *   POSIX drops all of a process's locks on a file when any of its
 *   descriptors for that file is closed.
 * fcntl locks are not reliable on some network file systems; DATA_DIR belongs
 * on a local disk (as the database in it does).
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = resolve(dataDir);
  const file = join(dir, LOCK_FILE);
  let db: Database.Database | undefined;
  try {
    // Only our user may enter the directory that holds the database, the sealing key and the repositories.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // timeout 0: a held lock is an answer, not something to wait for.
    db = new Database(file, { timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    // No journal file beside it (OFF is refused in better-sqlite3's defensive mode).
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS lock_holder (note TEXT)');
    db.exec('COMMIT');
  } catch (err) {
    db?.close();
    if (isBusy(err)) throw new DataDirBusyError(`DATA_DIR ${dir} is in use by another Trunkline server (${holder(dir)}); stop it or choose another DATA_DIR`);
    throw new DataDirLockError(`cannot lock DATA_DIR ${dir} (${file}): ${(err as Error).message}`);
  }
  const lockDb = db;
  const pidFile = join(dir, PID_FILE);
  const mine = `${process.pid}\n`;
  // Written whole and renamed into place, so a refused server never reads half a pid.
  const tmp = `${pidFile}.tmp`;
  try {
    writeFileSync(tmp, mine);
    renameSync(tmp, pidFile);
  } catch (err) {
    lockDb.close();
    throw new DataDirLockError(`cannot write ${pidFile}: ${(err as Error).message}`);
  }
  let released = false;
  return {
    dir,
    release() {
      if (released) return;
      released = true;
      try {
        if (readFileSync(pidFile, 'utf8') === mine) rmSync(pidFile, { force: true });
      } catch {
        /* already gone */
      }
      lockDb.close();
    },
  };
}
