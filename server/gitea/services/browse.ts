import { notFound } from '../../errors.js';
import type { Commit } from '../git/commit.js';
import { EMPTY_TREE, rawDiff } from '../git/log.js';
import { GitError } from '../git/run.js';
import type { GitStore } from '../git/store.js';
import { entryType, type EntryType, type TreeEntry } from '../git/tree.js';
import { parsePointer, type LfsPointer } from './lfs-pointer.js';
import { cleanTreePath, resolveTyped, type RefCommit } from './refs.js';
import type { RepoContext } from './repos.js';
import { goDetectContentType } from './sniff.js';

/** Entries a directory page lists; a larger directory says how many it left out. */
export const BROWSE_MAX_ENTRIES = 1000;
/** Largest file shown as text in a page (bigger ones link to the raw file). */
export const BROWSE_MAX_TEXT = 512 * 1024;
/** Largest diff shown in a commit page (a bigger one links to the .diff). */
export const BROWSE_MAX_DIFF = 1024 * 1024;

/** A directory entry as a page lists it. */
export interface BrowseEntry {
  name: string;
  type: EntryType;
  sha: string;
}

/** A directory: its entries, directories first, then by name; `omitted` past BROWSE_MAX_ENTRIES. */
export interface DirView {
  kind: 'dir';
  entries: BrowseEntry[];
  omitted: number;
}

/** A file: its size and, by what it holds, its text, an image to show, an LFS pointer, or nothing shown (binary or too large). */
export interface FileView {
  kind: 'file';
  size: number;
  show: { text: string } | { image: true } | { lfs: LfsPointer } | { binary: true } | { tooLarge: true };
}

/** A symbolic link or a submodule: where it points. */
export interface LinkView {
  kind: 'symlink' | 'submodule';
  target: string;
}

/** What a `src` page shows: the ref it was read at, the path inside the tree, and the object there. */
export interface SrcView {
  ref: RefCommit;
  path: string;
  view: DirView | FileView | LinkView;
}

/** A commit page: the commit, and its diff against its first parent (null when too large to show). */
export interface CommitView {
  commit: Commit;
  diff: string | null;
}

/** Names compared as people read them: case set aside, numbers by value (`file2` before `file10`); a fixed locale keeps the order the same everywhere. */
const names = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const byDirsThenName = (a: BrowseEntry, b: BrowseEntry) =>
  Number(b.type === 'dir') - Number(a.type === 'dir') || names.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Names a repository's home page shows as its README, in order of preference. */
const README = /^readme(\.(md|markdown|txt|rst))?$/i;

/**
 * Reads what the repository web pages show: directories, files and commits at a
 * branch, tag or commit, each bounded (entries, text size, diff size), so one page
 * never holds a whole large tree or blob in memory.
 */
export function createBrowser(git: GitStore) {
  function listing(entries: readonly TreeEntry[]): DirView {
    const all = entries.map((e) => ({ name: e.name, type: entryType(e.mode), sha: e.sha })).sort(byDirsThenName);
    return { kind: 'dir', entries: all.slice(0, BROWSE_MAX_ENTRIES), omitted: Math.max(0, all.length - BROWSE_MAX_ENTRIES) };
  }

  async function file(repo: RepoContext, sha: string): Promise<FileView> {
    const info = await git.info(repo.gitDir, sha);
    const size = info?.size ?? 0;
    if (size > BROWSE_MAX_TEXT) return { kind: 'file', size, show: { tooLarge: true } };
    const data = (await git.blob(repo.gitDir, sha)) ?? Buffer.alloc(0);
    const pointer = parsePointer(data);
    if (pointer) return { kind: 'file', size, show: { lfs: pointer } };
    const type = goDetectContentType(data.subarray(0, 512));
    if (type.startsWith('image/')) return { kind: 'file', size, show: { image: true } };
    if (type.startsWith('text/')) return { kind: 'file', size, show: { text: data.toString('utf8') } };
    return { kind: 'file', size, show: { binary: true } };
  }

  async function at(repo: RepoContext, ref: RefCommit, rawPath: string): Promise<SrcView> {
    const path = cleanTreePath(rawPath);
    if (path === null) throw notFound('path not found');
    const found = await git.lookup(repo.gitDir, ref.commit, path ? path.split('/') : []);
    if (!found.found) throw notFound(`path not found: ${path}`);
    const e = found.entry;
    const type = entryType(e.mode);
    let view: SrcView['view'];
    if (type === 'dir') view = listing((await git.tree(repo.gitDir, e.sha)) ?? []);
    else if (type === 'submodule') view = { kind: 'submodule', target: e.sha };
    else if (type === 'symlink') view = { kind: 'symlink', target: ((await git.blob(repo.gitDir, e.sha)) ?? Buffer.alloc(0)).toString('utf8') };
    else view = await file(repo, e.sha);
    return { ref, path, view };
  }

  return {
    /** The default branch's root and its README, or null for a repository with no branch yet. */
    async home(repo: RepoContext): Promise<{ src: SrcView; readme: { name: string; file: FileView } | null } | null> {
      const refs = await git.refs(repo.gitDir);
      const branch = refs.branches.has(repo.row.default_branch) ? repo.row.default_branch : [...refs.branches.keys()].sort()[0];
      if (branch === undefined) return null;
      const src = await at(repo, { type: 'branch', name: branch, commit: refs.branches.get(branch)!, input: branch }, '');
      const entry = src.view.kind === 'dir' ? src.view.entries.find((e) => e.type === 'file' && README.test(e.name)) : undefined;
      return { src, readme: entry ? { name: entry.name, file: await file(repo, entry.sha) } : null };
    },

    /** `{branch|tag|commit}/{ref}/{path}` as the `src` pages name it. */
    async src(repo: RepoContext, kind: string, rest: string): Promise<SrcView> {
      const { ref, treePath } = await resolveTyped(git, repo, kind, rest);
      return at(repo, ref, treePath);
    },

    /** The branch names, for the page's branch list. */
    async branches(repo: RepoContext): Promise<string[]> {
      return [...(await git.refs(repo.gitDir)).branches.keys()].sort();
    },

    /** A commit by full or abbreviated id, with its diff when it is small enough to show. */
    async commit(repo: RepoContext, id: string): Promise<CommitView> {
      const info = /^[0-9a-f]{4,40}$/.test(id) ? await git.info(repo.gitDir, id) : null;
      const commit = info?.type === 'commit' ? await git.commit(repo.gitDir, info.sha) : null;
      if (!commit) throw notFound(`commit not found: ${id}`);
      let diff: string | null;
      try {
        diff = (await rawDiff(repo.gitDir, commit.sha, commit.parents[0] ?? EMPTY_TREE, 'diff', BROWSE_MAX_DIFF)).toString('utf8');
      } catch (err) {
        if (!(err instanceof GitError) || !/exceeds/.test(err.message)) throw err;
        diff = null;
      }
      return { commit, diff };
    },
  };
}

/** The repository pages' reader. */
export type Browser = ReturnType<typeof createBrowser>;
