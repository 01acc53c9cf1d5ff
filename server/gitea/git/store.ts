import { mkdir, rm } from 'node:fs/promises';
import { Lru } from '../../util/lru.js';
import { KeyedMutex } from '../../util/keyed-mutex.js';
import { CatFilePool, type ObjectInfo } from './cat-file.js';
import { parseCommit, type Commit } from './commit.js';
import { lastCommitsIn } from './history.js';
import { lastCommitsNearby, type HistoryReader } from './recent-history.js';
import { readRefs, type Refs } from './refs.js';
import { closeRefUpdaters } from './ref-updater.js';
import { forgetObjectDirs } from './objects.js';
import { runGit } from './run.js';
import { parseTree, type TreeEntry } from './tree.js';

/** Commits of straight history compared in-process before `git log` is started for what is left. */
const NEARBY_COMMITS = 24;

/** Where a path leads inside a commit's tree. */
export type Lookup =
  | { found: true; entry: TreeEntry; path: string }
  /**
   * `at` is the path up to the first component that does not exist; `index`
   * that component's position; `blocker` the entry before it when that entry
   * is not a directory (a file or submodule in the way).
   */
  | { found: false; at: string; index: number; blocker?: TreeEntry };

/**
 * Read access to bare repositories with the caches that make it cheap:
 * immutable objects (commits, trees, last-commit answers keyed by commit) are
 * cached without invalidation; ref snapshots are dropped whenever anything
 * moves a ref (our writes, pushes, mirror fetches all call `invalidate`).
 */
export class GitStore {
  readonly catFiles = new CatFilePool();
  /** Serialises writers per `gitDir + ref` inside this process. */
  readonly writes = new KeyedMutex();
  /**
   * Test seam, never set by the server: awaited by an API write after it has read the branch
   * tip and written its commit, just before its compare-and-swap of the ref, so a test (which
   * runs the server in its own process) can move the branch at exactly that point.
   */
  beforeRefSwap: ((gitDir: string, ref: string, expected: string | null) => Promise<void>) | undefined;
  private readonly refCache = new Map<string, Promise<Refs>>();
  /** Snapshots that have finished loading (what branchMoved may patch). */
  private readonly loaded = new Map<string, Refs>();
  private generation = 0;
  // Bounded by what they hold, not only by count: a soak showed count-bounded tree and
  // object caches growing RSS by hundreds of MiB before they filled.
  private readonly commits = new Lru<string, Commit>(4096, { maxWeight: 8 * 1024 * 1024, weigh: (c) => 512 + c.message.length });
  /** Weighed in entries (about 150 bytes each). */
  private readonly trees = new Lru<string, TreeEntry[]>(2048, { maxWeight: 100_000, weigh: (t) => t.length + 1 });
  private readonly lastCommitCache = new Lru<string, string>(50_000);
  /** Object headers by full id (directory listings report every file's size). */
  private readonly infos = new Lru<string, ObjectInfo>(50_000);
  /**
   * What revision expressions (`main`, `v1^{tree}`, `main:docs`) named, per repository: they
   * change only when a ref moves, and every ref move drops the repository's map, so a warm
   * read of a branch costs no round trip to git. Names that depend on the time (`@{…}`) are
   * not kept, nor misses.
   */
  private readonly names = new Lru<string, Map<string, ObjectInfo>>(1024);
  /** Counts ref moves seen by `names`: an answer git gave across one is not kept. */
  private namesEpoch = 0;
  /** Ref moves per repository (HEAD included), for answers kept outside this store. */
  private readonly refMoves = new Map<string, number>();
  /** Small blobs we just wrote (the write's answer reads them back at once). */
  private readonly recentBlobs = new Lru<string, Buffer>(256, { maxWeight: 16 * 1024 * 1024, weigh: (b) => b.length + 64 });

  /** Creates an empty bare repository whose HEAD names `defaultBranch`. */
  async init(gitDir: string, defaultBranch: string): Promise<void> {
    await mkdir(gitDir, { recursive: true });
    await runGit(['init', '--bare', '--quiet', `--initial-branch=${defaultBranch}`, gitDir]);
    // Reflogs keep every former branch tip findable; gc must not prune what a concurrent API write just stored.
    await runGit(['config', 'core.logAllRefUpdates', 'always'], { gitDir });
    await runGit(['config', 'gc.pruneExpire', '2.weeks.ago'], { gitDir });
    await runGit(['config', 'receive.advertisePushOptions', 'true'], { gitDir });
  }

  async remove(gitDir: string): Promise<void> {
    this.forget(gitDir);
    await rm(gitDir, { recursive: true, force: true });
  }

  /** Drops everything held for a repository (deleted or renamed). */
  forget(gitDir: string): void {
    this.catFiles.drop(gitDir);
    closeRefUpdaters(gitDir);
    forgetObjectDirs(gitDir);
    this.refCache.delete(gitDir);
    this.loaded.delete(gitDir);
    this.dropNames(gitDir);
    const pre = `${gitDir}\0`;
    this.commits.deleteWhere((k) => k.startsWith(pre));
    this.trees.deleteWhere((k) => k.startsWith(pre));
    this.recentBlobs.deleteWhere((k) => k.startsWith(pre));
    this.infos.deleteWhere((k) => k.startsWith(pre));
    this.lastCommitCache.deleteWhere((k) => k.startsWith(pre));
  }

  refs(gitDir: string): Promise<Refs> {
    let p = this.refCache.get(gitDir);
    if (!p) {
      const gen = this.generation;
      p = readRefs(gitDir);
      this.refCache.set(gitDir, p);
      p.then(
        (refs) => {
          if (this.refCache.get(gitDir) === p && gen === this.generation) this.loaded.set(gitDir, refs);
        },
        () => this.refCache.delete(gitDir),
      );
    }
    return p;
  }

  /** Whether the repository has no branch yet (Gitea's IsEmpty): the one test of emptiness, from the cached refs. */
  async isEmpty(gitDir: string): Promise<boolean> {
    return (await this.refs(gitDir)).branches.size === 0;
  }

  /** Called after anything moves a ref of the repository. */
  invalidate(gitDir: string): void {
    this.generation++;
    this.refCache.delete(gitDir);
    this.loaded.delete(gitDir);
    this.dropNames(gitDir);
  }

  /**
   * Records a branch move we made ourselves (after its compare-and-swap
   * succeeded), sparing the next reader a for-each-ref; when no snapshot is
   * loaded the cache is simply dropped.
   */
  branchMoved(gitDir: string, branch: string, sha: string): void {
    this.dropNames(gitDir);
    const refs = this.loaded.get(gitDir);
    if (refs && this.refCache.has(gitDir)) {
      const next: Refs = { branches: new Map(refs.branches).set(branch, sha), tags: refs.tags };
      this.refCache.set(gitDir, Promise.resolve(next));
      this.loaded.set(gitDir, next);
    } else this.invalidate(gitDir);
  }

  /** Forgets every name the repository resolved (a ref or HEAD moved). */
  private dropNames(gitDir: string): void {
    this.names.delete(gitDir);
    this.namesEpoch++;
    this.refMoves.set(gitDir, (this.refMoves.get(gitDir) ?? 0) + 1);
  }

  /**
   * A number that changes whenever a ref or HEAD of the repository moves (or
   * it is forgotten): an answer built from what its names pointed at holds
   * while this stays the same. One small entry per repository ever touched.
   */
  refsEpoch(gitDir: string): number {
    return this.refMoves.get(gitDir) ?? 0;
  }

  async setHead(gitDir: string, branch: string): Promise<void> {
    this.dropNames(gitDir);
    await runGit(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], { gitDir });
    this.dropNames(gitDir); // a read between the two saw the old HEAD
  }

  async info(gitDir: string, name: string): Promise<ObjectInfo | null> {
    const recent = this.recentBlobs.get(`${gitDir}\0${name}`);
    if (recent) return { sha: name, type: 'blob', size: recent.length };
    // Only full object ids are cached: what they name never changes (a ref name's target does).
    const full = /^[0-9a-f]{40}$/.test(name);
    const key = `${gitDir}\0${name}`;
    if (full) {
      const hit = this.infos.get(key);
      if (hit) return hit;
    } else {
      const hit = this.names.get(gitDir)?.get(name);
      if (hit) return hit;
    }
    const epoch = this.namesEpoch;
    const info = await this.catFiles.get(gitDir).info(name);
    if (info && full) this.infos.set(key, info);
    else if (info && epoch === this.namesEpoch && !name.includes('@{')) this.rememberName(gitDir, name, info);
    return info;
  }

  /** Keeps what `name` resolved to; a repository keeps at most 256 names. */
  private rememberName(gitDir: string, name: string, info: ObjectInfo): void {
    let map = this.names.get(gitDir);
    if (!map) this.names.set(gitDir, (map = new Map()));
    else if (map.size >= 256) map.clear();
    map.set(name, info);
  }

  /**
   * Caches a small blob we wrote ourselves, and the size of any: a listing of a directory
   * written through the API then asks git for none of them (freshly written objects are
   * loose files, each a file to open and inflate).
   */
  rememberBlob(gitDir: string, sha: string, data: Buffer): void {
    this.infos.set(`${gitDir}\0${sha}`, { sha, type: 'blob', size: data.length });
    if (data.length <= 64 * 1024) this.recentBlobs.set(`${gitDir}\0${sha}`, data);
  }

  async blob(gitDir: string, sha: string): Promise<Buffer | null> {
    const recent = this.recentBlobs.get(`${gitDir}\0${sha}`);
    if (recent) return recent;
    const obj = await this.catFiles.get(gitDir).read(sha);
    return obj && obj.type === 'blob' ? obj.data : null;
  }

  /** The bytes of any object (blob, tree, commit or tag), as `git cat-file <type>` prints them. */
  async objectData(gitDir: string, sha: string): Promise<Buffer | null> {
    const recent = this.recentBlobs.get(`${gitDir}\0${sha}`);
    if (recent) return recent;
    return (await this.catFiles.get(gitDir).read(sha))?.data ?? null;
  }

  async commit(gitDir: string, sha: string): Promise<Commit | null> {
    const key = `${gitDir}\0${sha}`;
    const hit = this.commits.get(key);
    if (hit) return hit;
    const obj = await this.catFiles.get(gitDir).read(sha);
    if (!obj || obj.type !== 'commit') return null;
    const c = parseCommit(obj.sha, obj.data);
    this.commits.set(key, c);
    return c;
  }

  async tree(gitDir: string, sha: string): Promise<TreeEntry[] | null> {
    const key = `${gitDir}\0${sha}`;
    const hit = this.trees.get(key);
    if (hit) return hit;
    const obj = await this.catFiles.get(gitDir).read(sha);
    if (!obj || obj.type !== 'tree') return null;
    const entries = parseTree(obj.data);
    this.trees.set(key, entries);
    return entries;
  }

  /** Follows `parts` from a commit's root tree. An empty path finds the root itself. */
  async lookup(gitDir: string, commitSha: string, parts: readonly string[]): Promise<Lookup> {
    const commit = await this.commit(gitDir, commitSha);
    if (!commit) throw new Error(`commit ${commitSha} is missing`);
    let entry: TreeEntry = { mode: '40000', name: '', sha: commit.tree };
    for (let i = 0; i < parts.length; i++) {
      const entries = entry.mode === '40000' ? await this.tree(gitDir, entry.sha) : null;
      const next = entries?.find((e) => e.name === parts[i]);
      if (!next) return { found: false, at: parts.slice(0, i + 1).join('/'), index: i, ...(entries ? {} : { blocker: entry }) };
      entry = next;
    }
    return { found: true, entry, path: parts.join('/') };
  }

  /** Caches a commit we wrote ourselves, so reading it back costs nothing. */
  rememberCommit(gitDir: string, c: Commit): void {
    this.commits.set(`${gitDir}\0${c.sha}`, c);
  }

  /** Caches a tree we wrote ourselves (entries in git order). */
  rememberTree(gitDir: string, sha: string, entries: TreeEntry[]): void {
    this.trees.set(`${gitDir}\0${sha}`, entries);
  }

  /** Records that `commit` is the last commit touching `path` (known when we just wrote it). */
  rememberLastCommit(gitDir: string, commit: string, path: string): void {
    this.lastCommitCache.set(`${gitDir}\0${commit}\0${path}`, commit);
  }

  /** For each name in directory `dir` at `commit`, the last commit that touched it. */
  async lastCommits(gitDir: string, commit: string, dir: string, names: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const missing: string[] = [];
    const key = (n: string) => `${gitDir}\0${commit}\0${dir ? `${dir}/` : ''}${n}`;
    for (const n of names) {
      const hit = this.lastCommitCache.get(key(n));
      if (hit) out.set(n, hit);
      else missing.push(n);
    }
    const record = (found: Map<string, string>) => {
      for (const [n, sha] of found) {
        this.lastCommitCache.set(key(n), sha);
        out.set(n, sha);
      }
    };
    // Recent history first, read through cat-file: most entries of a directory being edited were
    // changed by its last few commits, and starting `git log` stalls this process while it forks.
    if (missing.length) record(await lastCommitsNearby(this.historyReader(gitDir), commit, dir ? dir.split('/') : [], missing, NEARBY_COMMITS));
    const rest = missing.filter((n) => !out.has(n));
    if (rest.length) record(await lastCommitsIn(gitDir, commit, dir, rest));
    return out;
  }

  /** Commits and directories of a repository as lastCommitsNearby reads them, through these caches. */
  historyReader(gitDir: string): HistoryReader {
    return {
      commit: (sha) => this.commit(gitDir, sha),
      dirAt: async (c, parts) => {
        const at = await this.lookup(gitDir, c.sha, parts);
        if (!at.found || at.entry.mode !== '40000') return null;
        const entries = await this.tree(gitDir, at.entry.sha);
        return entries ? { sha: at.entry.sha, entries } : null;
      },
    };
  }

  /** The last commit that touched `path` (the commit itself for the root). */
  async lastCommit(gitDir: string, commit: string, path: string): Promise<string> {
    if (!path) return commit;
    const slash = path.lastIndexOf('/');
    const dir = slash < 0 ? '' : path.slice(0, slash);
    const name = path.slice(slash + 1);
    return (await this.lastCommits(gitDir, commit, dir, [name])).get(name) ?? commit;
  }

  close(): void {
    this.catFiles.closeAll();
  }
}
