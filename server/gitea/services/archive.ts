import { badRequest, notFound } from '../../errors.js';
import { gitArchive, gitBundle } from '../git/archive.js';
import type { ChildOutput } from '../git/child-output.js';
import type { GitStore } from '../git/store.js';
import { cleanTreePath } from './refs.js';
import type { RepoContext } from './repos.js';

/** The archive formats served. */
export type ArchiveFormat = 'zip' | 'tar.gz' | 'bundle';

/** What `/archive/{ref}.{ext}` asks for, checked and resolved. */
export interface ArchiveRequest {
  format: ArchiveFormat;
  /** The ref as written (before the extension). */
  refName: string;
  commit: string;
  paths: string[];
}

const FORMATS: readonly ArchiveFormat[] = ['zip', 'tar.gz', 'bundle'];

/**
 * Content types per format. Gitea sends application/octet-stream for all
 * three; Forgejo's tests expect the real types for zip and gzip, which also
 * let a browser or client handle the file by type, so we send those.
 */
export const ARCHIVE_CONTENT_TYPE: Record<ArchiveFormat, string> = {
  zip: 'application/zip',
  'tar.gz': 'application/gzip',
  bundle: 'application/octet-stream',
};

const SHA = /^[0-9a-f]{4,64}$/;

/**
 * Gitea's archiver.NewRequest: the format from the suffix (400 `unknown
 * format: <archive>`), then the ref: a branch, a tag, or a commit id of 4 to
 * 64 hex digits that names an existing commit (404 `unrecognized repository
 * reference: <ref>`; an empty repository has none). `paths` limit a zip or
 * tar.gz to those entries (each must exist); a bundle takes none.
 */
export async function archiveRequest(git: GitStore, repo: RepoContext, archive: string, rawPaths: readonly string[]): Promise<ArchiveRequest> {
  const format = FORMATS.find((f) => archive.endsWith(`.${f}`));
  if (!format) throw badRequest(`unknown format: ${archive}`);
  const refName = archive.slice(0, -(format.length + 1));
  const wanted = rawPaths.filter((p) => p !== '');
  if (format === 'bundle' && wanted.length) throw badRequest('paths are not supported for bundle archives');

  const refs = await git.refs(repo.gitDir);
  let commit = refs.branches.get(refName) ?? refs.tags.get(refName);
  if (!commit && SHA.test(refName)) {
    const info = await git.info(repo.gitDir, `${refName}^{commit}`);
    if (info?.type === 'commit') commit = info.sha;
  }
  if (!commit) throw notFound(`unrecognized repository reference: ${refName}`);

  const paths: string[] = [];
  for (const raw of wanted) {
    const p = cleanTreePath(raw);
    if (p === null) throw badRequest(`path contains a malformed path component [path: ${raw}]`);
    if (p === '') continue; // the root: the whole tree
    if (!(await git.lookup(repo.gitDir, commit, p.split('/'))).found) throw notFound(`object does not exist [id: ${commit}, rel_path: ${p}]`);
    if (!paths.includes(p)) paths.push(p);
  }
  return { format, refName, commit, paths };
}

/** Starts git producing the archive (the caller streams it and must kill it if it will not). */
export function startArchive(repo: RepoContext, r: ArchiveRequest): Promise<ChildOutput> | ChildOutput {
  if (r.format === 'bundle') return gitBundle(repo.gitDir, r.commit);
  return gitArchive(repo.gitDir, { format: r.format, prefix: `${repo.row.name}/`, commit: r.commit, paths: r.paths });
}

/** Archives bound to a git store, for routes (which hold no git handle). */
export const createArchives = (git: GitStore) => ({
  /** Checks and resolves an archive request (see archiveRequest). */
  request: (repo: RepoContext, archive: string, rawPaths: readonly string[]) => archiveRequest(git, repo, archive, rawPaths),
  /** Starts git writing the archive. */
  start: startArchive,
});
