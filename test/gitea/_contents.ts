/**
 * Shared helpers of the contents suites (contents-read, contents-write,
 * contents-permissions, concurrency, gitea-js): expected ContentsResponse
 * bodies built the way Gitea builds them, and direct access to the bare
 * repositories behind the server (plumbing commits, tags, fsck, rev-list).
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { git, gitDirOf, type GiteaWorld } from '../_helpers/gitea.js';
import { rawRequest as sendRaw, type RawReply } from '../_helpers/raw-request.js';
import { tempDir } from '../_helpers/temp-dir.js';

export const b64 = (s: string | Buffer) => (Buffer.isBuffer(s) ? s : Buffer.from(s)).toString('base64');

/** Go's url.PathEscape of one segment. */
export function pathEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    if (/[A-Za-z0-9\-_.~$&+:=@]/.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
export const pathEscapeSegments = (p: string) => p.split('/').map(pathEscape).join('/');

/** Go's url.QueryEscape. */
export function queryEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    if (/[A-Za-z0-9\-_.~]/.test(ch)) out += ch;
    else if (ch === ' ') out += '+';
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A git ISO date (`%aI`) as Go renders the same time.Time (`Z` for a zero offset). */
export const goDate = (iso: string) => iso.replace(/\+00:00$/, 'Z');

/** Author and committer dates of a commit, Go-rendered with their stored offsets. */
export function commitDates(gitDir: string, sha: string): { author: string; committer: string } {
  const [author, committer] = git(['--git-dir', gitDir, 'log', '-1', '--format=%aI%n%cI', sha]).stdout.trim().split('\n') as [string, string];
  return { author: goDate(author), committer: goDate(committer) };
}

export const revParse = (gitDir: string, rev: string) => git(['--git-dir', gitDir, 'rev-parse', rev]).stdout.trim();

export interface EntrySpec {
  owner: string;
  repo: string;
  path: string;
  sha: string;
  type: 'file' | 'dir' | 'symlink' | 'submodule';
  size: number;
  /** The ref as the request gave it (echoed in `url`). */
  ref: string;
  /** Kind and short name of the resolved ref (web links). */
  refType: 'branch' | 'tag' | 'commit';
  refName?: string;
  /** The last commit touching the entry (omitted fields when absent). */
  last?: { sha: string; author: string; committer: string };
  /** base64 content (single files); null otherwise. */
  content?: string | null;
  target?: string | null;
  submodule?: string | null;
  lfs?: { oid: string; size: number };
}

/** A ContentsResponse exactly as Gitea 1.27 builds it (key order included). */
export function entry(g: GiteaWorld, e: EntrySpec): Record<string, unknown> {
  const api = `${g.url}/api/v1/repos/${e.owner}/${e.repo}`;
  const html = `${g.url}/${e.owner}/${e.repo}`;
  const self = `${api}/contents/${pathEscapeSegments(e.path)}?ref=${queryEscape(e.ref)}`;
  const refName = e.refName ?? e.ref;
  const link = `${e.refType}/${e.refType === 'commit' ? refName : pathEscapeSegments(refName)}`;
  const htmlUrl = e.type === 'submodule' ? null : `${html}/src/${link}/${pathEscapeSegments(e.path)}`;
  const gitUrl = e.type === 'submodule' ? null : `${api}/git/blobs/${e.sha}`;
  const out: Record<string, unknown> = { name: e.path.slice(e.path.lastIndexOf('/') + 1), path: e.path, sha: e.sha };
  if (e.last) {
    out.last_commit_sha = e.last.sha;
    out.last_committer_date = e.last.committer;
    out.last_author_date = e.last.author;
  }
  Object.assign(out, {
    type: e.type,
    size: e.size,
    encoding: e.content == null ? null : 'base64',
    content: e.content ?? null,
    target: e.target ?? null,
    url: self,
    html_url: htmlUrl,
    git_url: gitUrl,
    download_url: e.type === 'file' || e.type === 'symlink' ? `${html}/raw/${link}/${pathEscapeSegments(e.path)}` : null,
    submodule_git_url: e.submodule ?? null,
    _links: { self, git: gitUrl, html: htmlUrl },
  });
  if (e.lfs) {
    out.lfs_oid = e.lfs.oid;
    out.lfs_size = e.lfs.size;
  }
  return out;
}

/** The last commit touching `path` at `rev`, with its dates, read with git itself. */
export function lastOf(gitDir: string, rev: string, path: string): { sha: string; author: string; committer: string } {
  const sha = git(['--git-dir', gitDir, 'log', '-1', '--format=%H', rev, '--', path]).stdout.trim();
  return { sha, ...commitDates(gitDir, sha) };
}

/** Blob/tree id and mode of `path` at `rev` (ls-tree). */
export function lsTree(gitDir: string, rev: string, path: string): { mode: string; type: string; sha: string } | undefined {
  const out = git(['--git-dir', gitDir, 'ls-tree', rev, '--', path]).stdout.trim();
  if (!out) return undefined;
  const [meta] = out.split('\t') as [string];
  const [mode, type, sha] = meta.split(' ') as [string, string, string];
  return { mode, type, sha };
}

/** Size in bytes of an object. */
export const objectSize = (gitDir: string, sha: string) => Number(git(['--git-dir', gitDir, 'cat-file', '-s', sha]).stdout.trim());

/**
 * Changes a repository behind the server's back: clones the bare repository
 * into a temporary work tree, lets `edit` run git there, pushes the result
 * straight into the bare directory, and tells the server its refs moved.
 */
export async function viaWorktree(g: GiteaWorld, repoId: number, edit: (dir: string, run: (...args: string[]) => string) => void | Promise<void>, opts: { branch?: string } = {}): Promise<string> {
  const gitDir = gitDirOf(g, repoId);
  const dir = tempDir('wt');
  try {
    git(['clone', '--quiet', gitDir, dir]);
    const run = (...args: string[]) => git(args, { cwd: dir }).stdout;
    const branch = opts.branch ?? run('rev-parse', '--abbrev-ref', 'HEAD').trim();
    await edit(dir, run);
    run('push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`);
    g.t.server.gitea.git.invalidate(gitDir);
    return revParse(gitDir, `refs/heads/${branch}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `git fsck --strict` of a bare repository: its output (empty when clean). */
export function fsck(gitDir: string): string {
  const r = git(['--git-dir', gitDir, 'fsck', '--strict', '--no-progress', '--no-dangling'], { allowFail: true });
  return r.status === 0 ? (r.stdout + r.stderr).trim() : `fsck failed (${r.status}): ${r.stdout}${r.stderr}`;
}

/**
 * A request whose path is sent exactly as written (fetch would resolve
 * `..` and `%2E%2E` segments before sending).
 */
export function rawRequest(g: GiteaWorld, method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}): Promise<RawReply> {
  return sendRaw(g.url, method, path, { ...opts, headers: { authorization: `token ${g.admin.token}`, ...opts.headers } });
}

/** A blob's bytes. */
export function catBlob(gitDir: string, sha: string): Buffer {
  const r = spawnSync('git', ['--git-dir', gitDir, 'cat-file', 'blob', sha], { maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`cat-file ${sha}: ${r.stderr}`);
  return r.stdout;
}
