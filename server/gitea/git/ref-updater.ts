import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { lockInError, STALE_LOCK_MS } from './locks.js';
import { gitEnv } from './run.js';

interface Txn {
  line: string;
  resolve(ok: boolean): void;
  reject(err: Error): void;
}

const LOST_RACE = /cannot lock ref|but expected|reference already exists|unable to resolve reference|is at .* but expected/i;

/**
 * One long-lived `git update-ref --stdin` per repository, fed one
 * transaction at a time (`start`, `update <ref> <new> <old>`, `prepare`,
 * `commit`): git's own locking and compare-and-swap without a process spawn
 * per commit. A transaction that loses the race makes git exit (its errors are
 * fatal); that answer is "false" and the next transaction starts a new process.
 */
class RefUpdater {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly queue: Txn[] = [];
  private current: Txn | undefined;
  private out = '';
  private err = '';
  lastUsed = Date.now();

  constructor(private readonly gitDir: string) {}

  update(ref: string, newSha: string, oldSha: string): Promise<boolean> {
    this.lastUsed = Date.now();
    return new Promise((resolve, reject) => {
      this.queue.push({ line: `start\nupdate ${ref} ${newSha} ${oldSha}\nprepare\ncommit\n`, resolve, reject });
      this.next();
    });
  }

  get busy(): boolean {
    return !!this.current || this.queue.length > 0;
  }

  close(): void {
    this.child?.stdin.end();
    this.child = undefined;
  }

  private next(): void {
    if (this.current) return;
    const txn = this.queue.shift();
    if (!txn) return;
    this.current = txn;
    this.out = '';
    this.err = '';
    (this.child ?? this.spawn()).stdin.write(txn.line);
  }

  private spawn(): ChildProcessWithoutNullStreams {
    const child = spawn('git', ['--git-dir', this.gitDir, 'update-ref', '-m', 'trunkline', '--stdin'], { env: gitEnv(), stdio: 'pipe' });
    this.child = child;
    child.stdin.on('error', () => {});
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      this.out += d;
      if (this.current && this.out.includes('commit: ok\n')) {
        const t = this.current;
        this.current = undefined;
        t.resolve(true);
        this.next();
      }
    });
    child.stderr.on('data', (d: string) => (this.err += d));
    const ended = (e?: Error) => {
      if (this.child === child) this.child = undefined;
      const t = this.current;
      this.current = undefined;
      if (t) {
        // A lock nobody has touched for a while was left by a git that died: clear it, and let the caller try again.
        const lock = lockInError(this.err);
        if (lock) {
          try {
            if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
          } catch {}
        }
        if (LOST_RACE.test(this.err)) t.resolve(false);
        else t.reject(e ?? new Error(`git update-ref failed: ${this.err.trim() || 'exited'}`));
      }
      this.next();
    };
    child.on('error', ended);
    child.on('close', () => ended());
    return child;
  }
}

const updaters = new Map<string, RefUpdater>();
let sweeper: NodeJS.Timeout | undefined;

/** The updater of a repository (idle ones are closed after a minute). */
export function refUpdater(gitDir: string): RefUpdater {
  let u = updaters.get(gitDir);
  if (!u) {
    u = new RefUpdater(gitDir);
    updaters.set(gitDir, u);
  }
  sweeper ??= setInterval(() => {
    const now = Date.now();
    for (const [dir, x] of updaters) {
      if (!x.busy && now - x.lastUsed > 60_000) {
        x.close();
        updaters.delete(dir);
      }
    }
  }, 30_000).unref();
  return u;
}

/** Closes the updater of one repository (deleted) or of all (shutdown). */
export function closeRefUpdaters(gitDir?: string): void {
  for (const [dir, u] of updaters) {
    if (gitDir && dir !== gitDir) continue;
    u.close();
    updaters.delete(dir);
  }
}
