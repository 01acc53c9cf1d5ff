import type { ContentsResponse } from '../../../protocol/gitea/index.js';
import { badRequest, notFound } from '../../errors.js';
import { goPathEscape, goQueryEscape, goTime, pathEscapeSegments } from '../../util/go-format.js';
import type { ModelOf } from '../../../protocol/model.js';
import type { GitStore } from '../git/store.js';
import { entryType, type TreeEntry } from '../git/tree.js';
import type { Site } from '../site.js';
import { LFS_POINTER_MAX, parsePointer } from './lfs-pointer.js';
import { cleanTreePath, pathNotExist, refWebLinkPath, resolveRef, type RefCommit } from './refs.js';
import type { RepoContext } from './repos.js';
import { Lru } from '../../util/lru.js';

/** One ContentsResponse. */
export type Contents = ModelOf<typeof ContentsResponse>;

/** Parses `.gitmodules` for the URL of the submodule at `path`. */
function submoduleUrl_(gitmodules: string, path: string): string | undefined {
  let current: { path?: string; url?: string } = {};
  const sections: (typeof current)[] = [];
  for (const raw of gitmodules.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      current = {};
      sections.push(current);
      continue;
    }
    const m = /^(\w+)\s*=\s*(.*)$/.exec(line);
    if (m && (m[1] === 'path' || m[1] === 'url')) current[m[1]] = m[2]!.replace(/^"(.*)"$/, '$1');
  }
  return sections.find((s) => s.path === path)?.url;
}

/** Reading contents: one entry's metadata (and a file's content), or a directory listing, as Gitea's contents API. */
export function createContentsReader(git: GitStore, site: Site, opts: { maxBlobSize: number }) {
  /**
   * One entry as a ContentsResponse. `withContent`: a single file's base64 content and LFS metadata;
   * `extra.lfsMetadata`: LFS metadata without the content; `extra.commitMessage`: the last commit's message too.
   */
  async function entryResponse(
    repo: RepoContext,
    ref: RefCommit,
    path: string,
    entry: TreeEntry,
    lastCommit: string | undefined,
    withContent: boolean,
    extra: { lfsMetadata?: boolean; commitMessage?: boolean } = {},
  ): Promise<Contents> {
    const api = site.repoApi(repo.owner, repo.row);
    const html = site.repoHtml(repo.owner, repo.row);
    const self = `${api}/contents/${pathEscapeSegments(path)}?ref=${goQueryEscape(ref.input)}`;
    const type = entryType(entry.mode);
    const c = lastCommit ? await git.commit(repo.gitDir, lastCommit) : null;
    let size = 0;
    if (type === 'file' || type === 'symlink') size = (await git.info(repo.gitDir, entry.sha))?.size ?? 0;
    let encoding: 'base64' | null = null;
    let content: string | null = null;
    let target: string | null = null;
    let submoduleUrl: string | null = null;
    let lfs: { oid: string; size: number } | null = null;
    if (type === 'file' && withContent && size <= opts.maxBlobSize) {
      const data = (await git.blob(repo.gitDir, entry.sha)) ?? Buffer.alloc(0);
      encoding = 'base64';
      content = data.toString('base64');
      if (data.length > 0 && data.length < LFS_POINTER_MAX) lfs = parsePointer(data);
    } else if (type === 'file' && extra.lfsMetadata && size > 0 && size < LFS_POINTER_MAX) {
      lfs = parsePointer((await git.blob(repo.gitDir, entry.sha)) ?? Buffer.alloc(0));
    } else if (type === 'symlink') {
      const data = (await git.blob(repo.gitDir, entry.sha)) ?? Buffer.alloc(0);
      target = data.subarray(0, 1024).toString('utf8');
    } else if (type === 'submodule') {
      const gm = await git.lookup(repo.gitDir, ref.commit, ['.gitmodules']);
      const text = gm.found ? (await git.blob(repo.gitDir, gm.entry.sha))?.toString('utf8') : undefined;
      submoduleUrl = (text ? submoduleUrl_(text, path) : undefined) ?? null;
    }
    const linked = type !== 'submodule';
    const htmlUrl = linked ? `${html}/src/${refWebLinkPath(ref)}/${pathEscapeSegments(path)}` : null;
    const gitUrl = linked ? `${api}/git/blobs/${goPathEscape(entry.sha)}` : null;
    // Built in Gitea's key order (clients diffing JSON see the same text); omitempty keys only when set.
    return {
      name: entry.name,
      path,
      sha: entry.sha,
      ...(c
        ? {
            last_commit_sha: c.sha,
            last_committer_date: goTime(c.committer.when, c.committer.tzMinutes),
            last_author_date: goTime(c.author.when, c.author.tzMinutes),
            ...(extra.commitMessage ? { last_commit_message: c.message } : {}),
          }
        : {}),
      type,
      size,
      encoding,
      content,
      target,
      url: self,
      html_url: htmlUrl,
      git_url: gitUrl,
      download_url: type === 'file' || type === 'symlink' ? `${html}/raw/${refWebLinkPath(ref)}/${pathEscapeSegments(path)}` : null,
      submodule_git_url: submoduleUrl,
      _links: { self, git: gitUrl, html: htmlUrl },
      ...(lfs ? { lfs_oid: lfs.oid, lfs_size: lfs.size } : {}),
    };
  }

  /**
   * Directory listings by (commit, path, ref as given): all immutable, and a
   * big directory costs a thousand entries' work to build.
   */
  const listings = new Lru<string, Contents[]>(32, { maxWeight: 20_000, weigh: (l) => l.length + 1 });

  /** The entry at `path` (cleaned, not the root) with a file's content and its last commit, or null when nothing is there. */
  async function entryAt(repo: RepoContext, ref: RefCommit, path: string): Promise<Contents | null> {
    const parts = path.split('/');
    const found = await git.lookup(repo.gitDir, ref.commit, parts);
    if (!found.found) return null;
    const last = await git.lastCommit(repo.gitDir, ref.commit, path);
    return entryResponse(repo, ref, path, { ...found.entry, name: parts[parts.length - 1]! }, last, true);
  }

  return {
    entryResponse,
    entryAt,

    /** GET /contents[/{path}]: a file (with content), or a directory's entries (metadata only), at a ref. */
    async get(repo: RepoContext, refParam: string | undefined, rawPath: string): Promise<Contents | Contents[]> {
      const path = cleanTreePath(rawPath);
      if (path === null || (path === '' && rawPath !== '' && rawPath !== '/')) throw badRequest(`path contains a malformed path component [path: ${rawPath}]`);
      const ref = await resolveRef(git, repo, refParam);
      const parts = path ? path.split('/') : [];
      const found = await git.lookup(repo.gitDir, ref.commit, parts);
      if (!found.found) throw notFound(pathNotExist(parts, found));
      if (entryType(found.entry.mode) !== 'dir') {
        const last = await git.lastCommit(repo.gitDir, ref.commit, path);
        return entryResponse(repo, ref, path, { ...found.entry, name: parts[parts.length - 1] ?? '' }, last, true);
      }
      const key = `${repo.gitDir}\0${repo.owner.name}/${repo.row.name}\0${ref.commit}\0${ref.type}\0${ref.input}\0${path}`;
      const hit = listings.get(key);
      if (hit) return hit;
      const entries = (await git.tree(repo.gitDir, found.entry.sha)) ?? [];
      // Sizes are asked of cat-file while git log walks the history (both are cached once read).
      const [lasts] = await Promise.all([
        git.lastCommits(repo.gitDir, ref.commit, path, entries.map((e) => e.name)),
        Promise.all(entries.map((e) => (entryType(e.mode) === 'file' || entryType(e.mode) === 'symlink' ? git.info(repo.gitDir, e.sha) : null))),
      ]);
      const list = await Promise.all(entries.map((e) => entryResponse(repo, ref, path ? `${path}/${e.name}` : e.name, e, lasts.get(e.name), false)));
      Object.freeze(list); // shared by every request for this listing (and its JSON text is cached)
      listings.set(key, list);
      return list;
    },

    /** Whether the repository has no branch yet (writing "updates" into one is refused). */
    isEmpty: (repo: RepoContext): Promise<boolean> => git.isEmpty(repo.gitDir),

    /** GET /git/blobs/{sha}: a blob by (abbreviated) id, its content unless over the size limit. */
    async blob(repo: RepoContext, sha: string) {
      const info = /^[0-9a-f]{4,40}$/.test(sha) ? await git.info(repo.gitDir, sha) : null;
      // Any object id is read as a blob, as Gitea does: a directory's git_url (…/git/blobs/{tree id}) answers with the tree object's bytes.
      if (!info) throw notFound(`object does not exist [id: ${sha}, rel_path: ]`);
      const url = `${site.repoApi(repo.owner, repo.row)}/git/blobs/${info.sha}`;
      if (info.size > opts.maxBlobSize) return { content: null, encoding: null, url, sha: info.sha, size: info.size };
      const data = (await git.objectData(repo.gitDir, info.sha)) ?? Buffer.alloc(0);
      const pointer = data.length > 0 && data.length < LFS_POINTER_MAX ? parsePointer(data) : null;
      return {
        content: data.toString('base64'),
        encoding: 'base64' as const,
        url,
        sha: info.sha,
        size: info.size,
        ...(pointer ? { lfs_oid: pointer.oid, lfs_size: pointer.size } : {}),
      };
    },
  };
}

/** The contents reader's interface. */
export type ContentsReader = ReturnType<typeof createContentsReader>;
