import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Git never holds a ref lock this long; an older one was left by a git process that died. */
export const STALE_LOCK_MS = 10_000;

/**
 * Removes ref lock files (`HEAD.lock`, `packed-refs.lock`, `refs/**\/*.lock`)
 * last touched before `before` (ms since the epoch). A git killed between
 * taking a lock and committing it (the whole process group SIGKILLed with the
 * server) leaves its lock behind, and every later update of that ref fails
 * with "File exists" until it is gone. Only this server writes these
 * repositories, so at start every older lock is an orphan's. Returns what was removed.
 */
export function removeStaleRefLocks(gitDir: string, before: number): string[] {
  const removed: string[] = [];
  const consider = (file: string) => {
    try {
      if (statSync(file).mtimeMs < before) {
        rmSync(file, { force: true });
        removed.push(file);
      }
    } catch {}
  };
  consider(join(gitDir, 'HEAD.lock'));
  consider(join(gitDir, 'packed-refs.lock'));
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.lock')) consider(p);
    }
  };
  walk(join(gitDir, 'refs'));
  return removed;
}

/** The lock file a failed ref update names ("Unable to create '<path>.lock': File exists"), if any. */
export function lockInError(stderr: string): string | undefined {
  return /Unable to create '([^']+\.lock)': File exists/.exec(stderr)?.[1];
}
