import type { Db } from './open.js';

/** Entries per table before a map starts over (the tables are small; this only bounds a flood of misses). */
const MAX_ENTRIES = 20_000;

/**
 * Memoised reads of the small, hot, rarely written tables behind every
 * repository request (users, tokens, repositories, collaborators): a raw GET
 * would otherwise run four or five queries before it reads a byte of git.
 * One cache per database, shared by those tables' repositories, emptied by
 * every write any of them makes; a write's cascades (a deleted user takes
 * tokens, repositories and collaborations with it) are covered because the
 * whole cache goes. Rows are frozen: a cached row is shared by every caller.
 *
 * Another process may write the same file while the server runs (the admin
 * command line, `npm run admin`): SQLite's `data_version` changes when any
 * other connection commits, so reads compare it (at the first read of each
 * request and of each turn of the event loop) and start over when it moved.
 */
export class ReadCache {
  private static readonly byDb = new WeakMap<Db, ReadCache>();
  private readonly maps = new Map<string, Map<string | number, unknown>>();
  private version: unknown;
  private checked = false;
  /** A request of the current poll has reset `checked` (cleared after the poll phase). */
  private pollOpen = false;
  private gen = 0;

  private constructor(private readonly dataVersion: { get(): unknown }) {}

  static of(db: Db): ReadCache {
    let c = ReadCache.byDb.get(db);
    if (!c) ReadCache.byDb.set(db, (c = new ReadCache(db.prepare('PRAGMA data_version').pluck())));
    return c;
  }

  /** The memoised answer of `load` (misses, `undefined`, are remembered too). */
  get<T>(table: string, key: string | number, load: () => T): T {
    this.fresh();
    let m = this.maps.get(table);
    if (!m) this.maps.set(table, (m = new Map()));
    if (m.has(key)) return m.get(key) as T;
    const v = load();
    if (m.size >= MAX_ENTRIES) m.clear();
    m.set(key, v && typeof v === 'object' ? Object.freeze(v) : v);
    return v;
  }

  /**
   * A number that changes whenever what these tables hold may have changed (a write
   * here or a commit by another process): answers built from their rows can be kept
   * under it.
   */
  generation(): number {
    this.fresh();
    return this.gen;
  }

  /**
   * A request arrived: its first read checks for another process's commit again,
   * so whatever was committed before the request was sent is what it reads. The
   * requests one poll of the event loop hands over were all in the kernel's
   * buffers before the first of them runs, so the first one's check (made after
   * that) serves them all: only the first of each poll resets. (libuv polls
   * again within one phase only when a poll returned 1,024 events at once.)
   */
  recheck(): void {
    if (this.pollOpen) return;
    this.pollOpen = true;
    setImmediate(() => (this.pollOpen = false));
    this.checked = false;
  }

  /**
   * Starts over when another connection committed. Checked at most once per turn of
   * the event loop and once more for each request (`recheck`): the query costs more
   * than the reads it guards, and a step of a request may read a dozen rows.
   */
  private fresh(): void {
    if (this.checked) return;
    this.checked = true;
    setImmediate(() => (this.checked = false));
    const version = this.dataVersion.get();
    if (version !== this.version) {
      this.clear();
      this.version = version;
    }
  }

  private clear(): void {
    this.maps.clear();
    this.gen++;
  }

  /** Runs a write and forgets everything read so far. */
  write<T>(run: () => T): T {
    this.clear();
    try {
      return run();
    } finally {
      this.clear();
    }
  }
}
