import { notFound } from '../../errors.js';
import { pathEscapeSegments } from '../../util/go-format.js';
import type { GitStore } from '../git/store.js';
import type { RepoContext } from './repos.js';

/** A resolved reference: what kind it is, its short name, and the commit. */
export interface RefCommit {
  type: 'branch' | 'tag' | 'commit';
  name: string;
  commit: string;
  /** The ref as the caller wrote it (URLs echo it back). */
  input: string;
}

/** `branch/<name>`, `tag/<name>` or `commit/<sha>`: the web link form of a ref. */
export const refWebLinkPath = (r: Pick<RefCommit, 'type' | 'name'>) => `${r.type}/${r.type === 'commit' ? r.name : pathEscapeSegments(r.name)}`;

const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * Gitea's `utils.ResolveRefCommit` for the contents API: an existing branch,
 * then a tag, then a full-length commit id; anything else is 404.
 */
export async function resolveRef(git: GitStore, repo: RepoContext, ref: string | undefined): Promise<RefCommit> {
  const input = ref || repo.row.default_branch;
  const refs = await git.refs(repo.gitDir);
  const branch = refs.branches.get(input);
  if (branch) return { type: 'branch', name: input, commit: branch, input };
  const tag = refs.tags.get(input);
  if (tag) return { type: 'tag', name: input, commit: tag, input };
  if (FULL_SHA.test(input)) {
    // Gitea's GetCommit peels an annotated tag's id to its commit; a tree or blob id is no commit.
    const peeled = (await git.commit(repo.gitDir, input)) ? input : (await git.info(repo.gitDir, `${input}^{commit}`))?.sha;
    if (peeled) return { type: 'commit', name: input, commit: peeled, input };
  }
  throw notFound(`object does not exist [id: ${input}, rel_path: ]`);
}

/**
 * Gitea's legacy ref guessing for /raw and /media: `ref` is joined in front
 * of the path, then the shortest prefix naming a branch (or `HEAD`), then a
 * tag, then a full commit id as the first segment; failing all, the whole
 * path on the default branch. Returns the ref and the path that remains.
 */
export async function resolveLegacy(git: GitStore, repo: RepoContext, reqPath: string, extraRef: string | undefined): Promise<{ ref: RefCommit; treePath: string }> {
  const joined = extraRef ? (reqPath ? `${extraRef}/${reqPath}` : extraRef).replace(/\/+/g, '/') : reqPath.includes('//') ? reqPath.replace(/\/+/g, '/') : reqPath;
  const refs = await git.refs(repo.gitDir);
  const b = shortestPrefix(joined, refs.branches);
  if (b) return { ref: { type: 'branch', name: b.name, commit: b.commit, input: b.name }, treePath: b.rest };
  const slash = joined.indexOf('/');
  const first = slash < 0 ? joined : joined.slice(0, slash);
  const afterFirst = slash < 0 ? '' : joined.slice(slash + 1);
  if (first === 'HEAD') {
    const head = refs.branches.get(repo.row.default_branch);
    if (!head) throw notFound('unable to find a git ref');
    return { ref: { type: 'branch', name: repo.row.default_branch, commit: head, input: repo.row.default_branch }, treePath: afterFirst };
  }
  const t = shortestPrefix(joined, refs.tags);
  if (t) return { ref: { type: 'tag', name: t.name, commit: t.commit, input: t.name }, treePath: t.rest };
  if (FULL_SHA.test(first)) {
    if (!(await git.commit(repo.gitDir, first))) throw notFound('unable to find a git ref');
    return { ref: { type: 'commit', name: first, commit: first, input: first }, treePath: afterFirst };
  }
  const head = refs.branches.get(repo.row.default_branch);
  if (!head) throw notFound('unable to find a git ref');
  return { ref: { type: 'branch', name: repo.row.default_branch, commit: head, input: repo.row.default_branch }, treePath: reqPath };
}

/** The shortest `/`-bounded prefix of `path` that names a ref in `refs` (ref names may contain slashes). */
function shortestPrefix(path: string, refs: ReadonlyMap<string, string>): { name: string; commit: string; rest: string } | undefined {
  if (refs.size === 0) return undefined;
  for (let end = path.indexOf('/'); ; end = path.indexOf('/', end + 1)) {
    const name = end < 0 ? path : path.slice(0, end);
    const commit = refs.get(name);
    if (commit !== undefined) return { name, commit, rest: end < 0 ? '' : path.slice(end + 1) };
    if (end < 0) return undefined;
  }
}

/**
 * The web download route `/{owner}/{repo}/raw/{branch|tag|commit}/{ref}/{path}`
 * (what `download_url` points to): the ref kind is explicit; a branch or tag
 * name may contain slashes, so the shortest existing prefix wins.
 */
export async function resolveTyped(git: GitStore, repo: RepoContext, type: string, rest: string): Promise<{ ref: RefCommit; treePath: string }> {
  const parts = rest.split('/');
  const refs = await git.refs(repo.gitDir);
  const map = type === 'branch' ? refs.branches : type === 'tag' ? refs.tags : undefined;
  if (map) {
    for (let i = 1; i <= parts.length; i++) {
      const name = parts.slice(0, i).join('/');
      const commit = map.get(name);
      if (commit) return { ref: { type: type as 'branch' | 'tag', name, commit, input: name }, treePath: parts.slice(i).join('/') };
    }
  } else if (type === 'commit' && /^[0-9a-f]{7,40}$/.test(parts[0]!)) {
    const info = await git.info(repo.gitDir, parts[0]!);
    if (info?.type === 'commit') return { ref: { type: 'commit', name: info.sha, commit: info.sha, input: info.sha }, treePath: parts.slice(1).join('/') };
  }
  throw notFound(`branch or tag not exist: ${parts[0] ?? ''}`);
}

/**
 * Gitea's CleanGitTreePath: the path is cleaned relative to the repository
 * root (`..` cannot climb out), and any `.git` component makes it invalid
 * (returned as null).
 */
export function cleanTreePath(p: string): string | null {
  if (p.includes('\0')) return null; // no tree entry can hold a NUL
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  if (out.some((x) => x.toLowerCase() === '.git')) return null;
  return out.join('/');
}

/**
 * Gitea's git.ErrNotExist text for a path that does not resolve (its
 * GetTreeEntryByPath walks one directory at a time): the whole path when only
 * the last component is missing, else the missing directory's own name; when
 * a file or submodule stands where a directory should be, that object's id.
 */
export function pathNotExist(parts: readonly string[], miss: { index: number; blocker?: { sha: string } }): string {
  if (miss.blocker) return `object does not exist [id: ${miss.blocker.sha}, rel_path: ]`;
  return `object does not exist [id: , rel_path: ${miss.index === parts.length - 1 ? parts.join('/') : parts[miss.index]}]`;
}
