import { writeObject } from './objects.js';
import type { GitStore } from './store.js';
import { serializeTree, sortEntries } from './tree.js';

/** One path to set (or remove) in a tree edit. */
export interface Leaf {
  mode: string;
  sha: string;
}

/** A directory being edited: loaded lazily from its tree, rewritten only if touched. */
class Dir {
  entries: Map<string, Leaf | Dir> | undefined;
  dirty = false;

  constructor(readonly sha: string | null) {}
}

/**
 * An in-memory working tree over a commit's tree, like a git index: edits
 * apply in order (a later one sees the earlier ones), and `write` stores only
 * the directories that changed. A directory left empty disappears.
 */
export class TreeEditor {
  private readonly root: Dir;

  constructor(
    private readonly git: GitStore,
    private readonly gitDir: string,
    rootTree: string | null,
  ) {
    this.root = new Dir(rootTree);
  }

  private async load(dir: Dir): Promise<Map<string, Leaf | Dir>> {
    if (!dir.entries) {
      dir.entries = new Map();
      for (const e of dir.sha ? ((await this.git.tree(this.gitDir, dir.sha)) ?? []) : []) {
        dir.entries.set(e.name, e.mode === '40000' ? new Dir(e.sha) : { mode: e.mode, sha: e.sha });
      }
    }
    return dir.entries;
  }

  /** What is at `path` now: a file-like entry, `'dir'`, or null. */
  async get(path: string): Promise<Leaf | 'dir' | null> {
    let node: Leaf | Dir = this.root;
    for (const name of path.split('/')) {
      if (!(node instanceof Dir)) return null;
      const next: Leaf | Dir | undefined = (await this.load(node)).get(name);
      if (!next) return null;
      node = next;
    }
    return node instanceof Dir ? 'dir' : node;
  }

  /**
   * What is at `path`, told the way Gitea's path lookups tell it: a leaf, a
   * directory (with its id while unchanged), or where the walk stopped
   * (`index` of the first missing component; `blocker` when a file or
   * submodule stands where a directory should be).
   */
  async entry(path: string): Promise<{ kind: 'leaf'; leaf: Leaf } | { kind: 'dir'; sha: string | null } | { kind: 'missing'; index: number; blocker?: Leaf }> {
    let node: Leaf | Dir = this.root;
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      if (!(node instanceof Dir)) return { kind: 'missing', index: i, blocker: node };
      const next: Leaf | Dir | undefined = (await this.load(node)).get(parts[i]!);
      if (!next) return { kind: 'missing', index: i };
      node = next;
    }
    return node instanceof Dir ? { kind: 'dir', sha: node.dirty ? null : node.sha } : { kind: 'leaf', leaf: node };
  }

  /** Puts an entry at `path`, creating directories (and replacing a non-directory in the way). */
  async set(path: string, leaf: Leaf): Promise<void> {
    const parts = path.split('/');
    let dir = this.root;
    const trail = [dir];
    for (const name of parts.slice(0, -1)) {
      const entries = await this.load(dir);
      let next = entries.get(name);
      if (!(next instanceof Dir)) entries.set(name, (next = new Dir(null)));
      dir = next;
      trail.push(dir);
    }
    (await this.load(dir)).set(parts[parts.length - 1]!, { ...leaf });
    for (const d of trail) d.dirty = true;
  }

  /** Removes the entry at `path` (no-op when absent). */
  async remove(path: string): Promise<void> {
    const parts = path.split('/');
    let dir = this.root;
    const trail = [dir];
    for (const name of parts.slice(0, -1)) {
      const next = (await this.load(dir)).get(name);
      if (!(next instanceof Dir)) return;
      dir = next;
      trail.push(dir);
    }
    if (!(await this.load(dir)).delete(parts[parts.length - 1]!)) return;
    for (const d of trail) d.dirty = true;
  }

  /** Writes the changed directories and returns the root tree's id. */
  async write(): Promise<string> {
    const write = async (dir: Dir): Promise<string | null> => {
      if (!dir.dirty) return dir.sha;
      const out: { mode: string; name: string; sha: string }[] = [];
      for (const [name, e] of dir.entries!) {
        if (e instanceof Dir) {
          const sha = await write(e);
          if (sha) out.push({ mode: '40000', name, sha });
        } else out.push({ mode: e.mode, name, sha: e.sha });
      }
      if (!out.length) return null;
      const sorted = sortEntries(out);
      const sha = await writeObject(this.gitDir, 'tree', serializeTree(sorted));
      this.git.rememberTree(this.gitDir, sha, sorted);
      return sha;
    };
    return (await write(this.root)) ?? (await writeObject(this.gitDir, 'tree', Buffer.alloc(0)));
  }
}
