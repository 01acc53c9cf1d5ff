/** One entry of a git tree object. */
export interface TreeEntry {
  /** Octal mode as git writes it: `100644`, `100755`, `120000`, `40000`, `160000`. */
  mode: string;
  name: string;
  sha: string;
}

/** What a tree entry is, by its mode. */
export type EntryType = 'file' | 'dir' | 'symlink' | 'submodule';

/** What a tree entry is, by its mode (executables are files, as in Gitea). */
export function entryType(mode: string): EntryType {
  if (mode === '40000' || mode === '040000') return 'dir';
  if (mode === '120000') return 'symlink';
  if (mode === '160000') return 'submodule';
  return 'file';
}

/** The git object type an entry points to. */
export function entryObjectType(mode: string): 'blob' | 'tree' | 'commit' {
  const t = entryType(mode);
  return t === 'dir' ? 'tree' : t === 'submodule' ? 'commit' : 'blob';
}

/** Parses a tree object's binary content, in stored (git) order. */
export function parseTree(data: Buffer): TreeEntry[] {
  const out: TreeEntry[] = [];
  let i = 0;
  while (i < data.length) {
    const sp = data.indexOf(32, i);
    const nul = data.indexOf(0, sp + 1);
    if (sp < 0 || nul < 0 || nul + 21 > data.length) throw new Error('malformed tree object');
    out.push({ mode: data.toString('latin1', i, sp), name: data.toString('utf8', sp + 1, nul), sha: data.toString('hex', nul + 1, nul + 21) });
    i = nul + 21;
  }
  return out;
}

/**
 * Git orders tree entries by name bytes, comparing a directory's name as if
 * it ended in `/`; any other order makes a tree fsck rejects.
 */
function sortKey(e: TreeEntry): Buffer {
  return Buffer.from(entryType(e.mode) === 'dir' ? `${e.name}/` : e.name, 'utf8');
}

/** Entries in git's tree order. */
export function sortEntries(entries: readonly TreeEntry[]): TreeEntry[] {
  return entries
    .map((e) => ({ e, k: sortKey(e) }))
    .sort((a, b) => Buffer.compare(a.k, b.k))
    .map((x) => x.e);
}

/** Serialises entries (in any order) into a canonical tree object. */
export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of sortEntries(entries)) {
    const mode = e.mode === '040000' ? '40000' : e.mode;
    parts.push(Buffer.from(`${mode} ${e.name}\0`, 'utf8'), Buffer.from(e.sha, 'hex'));
  }
  return Buffer.concat(parts);
}
