import type { ContentsResponse } from '../../../protocol/gitea/index.js';
import { badRequest, notFound } from '../../errors.js';
import { goPathEscape, goQueryEscape, goTime, pathEscapeSegments } from '../../util/go-format.js';
import type { ModelOf } from '../model-of.js';
import type { GitStore } from '../git/store.js';
import { entryType, type TreeEntry } from '../git/tree.js';
import type { Site } from '../site.js';
import { LFS_POINTER_MAX, parsePointer } from './lfs-pointer.js';
import { cleanTreePath, refWebLinkPath, resolveRef, type RefCommit } from './refs.js';
import type { RepoContext } from './repos.js';

export type Contents = ModelOf<typeof ContentsResponse>;

/** Parses `.gitmodules` for the URL of the submodule at `path`. */
function submoduleUrl(gitmodules: string, path: string): string | undefined {
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
  /** One entry as a ContentsResponse. `withContent`: a single file's base64 content and LFS metadata. */
  async function entryResponse(repo: RepoContext, ref: RefCommit, path: string, entry: TreeEntry, lastCommit: string | undefined, withContent: boolean): Promise<Contents> {
    const api = site.repoApi(repo.owner, repo.row);
    const html = site.repoHtml(repo.owner, repo.row);
    const self = `${api}/contents/${pathEscapeSegments(path)}?ref=${goQueryEscape(ref.input)}`;
    const type = entryType(entry.mode);
    const res: Contents = {
      name: entry.name,
      path,
      sha: entry.sha,
      type,
      size: 0,
      encoding: null,
      content: null,
      target: null,
      url: self,
      html_url: null,
      git_url: null,
      download_url: null,
      submodule_git_url: null,
      _links: { self, git: null, html: null },
    };
    if (lastCommit) {
      const c = await git.commit(repo.gitDir, lastCommit);
      if (c) {
        res.last_commit_sha = c.sha;
        res.last_committer_date = goTime(c.committer.when, c.committer.tzMinutes);
        res.last_author_date = goTime(c.author.when, c.author.tzMinutes);
      }
    }
    if (type === 'file' || type === 'symlink') {
      const info = await git.info(repo.gitDir, entry.sha);
      res.size = info?.size ?? 0;
    }
    if (type === 'file' && withContent) {
      if (res.size <= opts.maxBlobSize) {
        const data = (await git.blob(repo.gitDir, entry.sha)) ?? Buffer.alloc(0);
        res.encoding = 'base64';
        res.content = data.toString('base64');
        if (data.length > 0 && data.length < LFS_POINTER_MAX) {
          const p = parsePointer(data);
          if (p) {
            res.lfs_oid = p.oid;
            res.lfs_size = p.size;
          }
        }
      }
    } else if (type === 'symlink') {
      const data = (await git.blob(repo.gitDir, entry.sha)) ?? Buffer.alloc(0);
      res.target = data.subarray(0, 1024).toString('utf8');
    } else if (type === 'submodule') {
      const gm = await git.lookup(repo.gitDir, ref.commit, ['.gitmodules']);
      const text = gm.found ? (await git.blob(repo.gitDir, gm.entry.sha))?.toString('utf8') : undefined;
      const url = text ? submoduleUrl(text, path) : undefined;
      if (url) res.submodule_git_url = url;
    }
    if (type === 'file' || type === 'symlink') res.download_url = `${html}/raw/${refWebLinkPath(ref)}/${pathEscapeSegments(path)}`;
    if (type !== 'submodule') {
      const htmlUrl = `${html}/src/${refWebLinkPath(ref)}/${pathEscapeSegments(path)}`;
      const gitUrl = `${api}/git/blobs/${goPathEscape(entry.sha)}`;
      res.html_url = htmlUrl;
      res.git_url = gitUrl;
      res._links = { self, git: gitUrl, html: htmlUrl };
    }
    return ordered(res);
  }

  return {
    entryResponse,

    /** GET /contents[/{path}]: a file (with content), or a directory's entries (metadata only), at a ref. */
    async get(repo: RepoContext, refParam: string | undefined, rawPath: string): Promise<Contents | Contents[]> {
      const path = cleanTreePath(rawPath);
      if (path === null || (path === '' && rawPath !== '' && rawPath !== '/')) throw badRequest(`path contains a malformed path component [path: ${rawPath}]`);
      const ref = await resolveRef(git, repo, refParam);
      const parts = path ? path.split('/') : [];
      const found = await git.lookup(repo.gitDir, ref.commit, parts);
      if (!found.found) throw notFound(`object does not exist [id: , rel_path: ${found.at}]`);
      if (entryType(found.entry.mode) !== 'dir') {
        const last = await git.lastCommit(repo.gitDir, ref.commit, path);
        return entryResponse(repo, ref, path, { ...found.entry, name: parts[parts.length - 1] ?? '' }, last, true);
      }
      const entries = (await git.tree(repo.gitDir, found.entry.sha)) ?? [];
      const lasts = await git.lastCommits(repo.gitDir, ref.commit, path, entries.map((e) => e.name));
      return Promise.all(entries.map((e) => entryResponse(repo, ref, path ? `${path}/${e.name}` : e.name, e, lasts.get(e.name), false)));
    },
  };
}

const ORDER = [
  'name', 'path', 'sha', 'last_commit_sha', 'last_committer_date', 'last_author_date', 'last_commit_message', 'type', 'size', 'encoding', 'content', 'target',
  'url', 'html_url', 'git_url', 'download_url', 'submodule_git_url', '_links', 'lfs_oid', 'lfs_size',
] as const;

/** Re-keys a response in Gitea's field order (clients diffing JSON see the same text). */
function ordered(res: Contents): Contents {
  const out: Record<string, unknown> = {};
  for (const k of ORDER) if ((res as Record<string, unknown>)[k] !== undefined) out[k] = (res as Record<string, unknown>)[k];
  return out as Contents;
}

export type ContentsReader = ReturnType<typeof createContentsReader>;
