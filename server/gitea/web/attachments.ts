import { Readable } from 'node:stream';
import type { Context, Hono } from 'hono';
import type { AttachmentRow } from '../../db/repos/attachment-repo.js';
import { DomainError } from '../../errors.js';
import { giteaAuth, type CallerDeps } from '../http/auth.js';
import { giteaError } from '../http/errors.js';
import type { Authenticated } from '../services/accounts.js';
import type { Content } from '../services/blob-source.js';
import type { ReleaseAssets } from '../services/release-assets.js';
import type { Releases } from '../services/releases.js';
import { tokenMayAccessRepo } from '../services/repo-access.js';
import type { RepoContext, RepoService } from '../services/repos.js';
import { SNIFF_LEN } from '../services/sniff.js';
import { plain, RESERVED } from './download.js';
import { tooMany } from './git-access.js';
import { serveContent } from './serve-content.js';

/** What the release file downloads use. */
export type AttachmentDownloadDeps = CallerDeps & {
  config: { production: boolean };
  repos: RepoService;
  releases: Pick<Releases, 'row'>;
  releaseAssets: ReleaseAssets;
};

/** A stored file as serveContent takes it: its uuid is its entity tag (as Gitea's), its upload time its date. */
function contentOf(g: AttachmentDownloadDeps, a: AttachmentRow): Content {
  const store = g.releaseAssets.store;
  return {
    etag: `"${a.uuid}"`,
    lastModified: a.created_at,
    size: a.size,
    filename: a.name,
    head: () => store.head(a.uuid, SNIFF_LEN),
    body: (start, end) => Readable.toWeb(store.open(a.uuid, start, end)) as ReadableStream<Uint8Array>,
  };
}

/** Counts a download (a GET: HEAD fetches nothing), then serves the bytes with Gitea's headers, one range at most. */
async function serve(g: AttachmentDownloadDeps, c: Context, repo: RepoContext, a: AttachmentRow): Promise<Response> {
  if (c.req.method === 'GET') g.releaseAssets.counted(a);
  const cachePublic = !repo.row.is_private && repo.owner.visibility === 'public';
  try {
    return await serveContent(c.req.raw, contentOf(g, a), { headers: {}, cachePublic, production: g.config.production });
  } catch (err) {
    // Removed between finding its row and opening it: gone, as it would be a moment later.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new DomainError('not_found', 'not found');
    throw err;
  }
}

/** A repository as the caller may read it, held to the token's scope as the other web routes are. */
function readable(g: AttachmentDownloadDeps, auth: Authenticated | null, owner: string, name: string): RepoContext {
  const repo = g.repos.lookup(owner, name, auth);
  if (!tokenMayAccessRepo(auth, repo, 'read')) throw new DomainError('forbidden', 'Forbidden');
  return repo;
}

/** `/attachments/{uuid}`: the file's repository must be readable and its release visible (a draft's files are for writers). */
function byUuid(g: AttachmentDownloadDeps, c: Context, auth: Authenticated | null): Promise<Response> {
  const a = g.releaseAssets.byUuid(c.req.param('uuid') ?? '');
  const found = a && g.repos.byId(a.repo_id, null);
  if (!a || !found) throw new DomainError('not_found', 'not found');
  const repo = readable(g, auth, found.owner.name, found.row.name);
  g.releases.row(repo, String(a.release_id), auth?.user ?? null);
  return serve(g, c, repo, a);
}

/** `/{owner}/{repo}/releases/download/{tag}/{name}`: the tag may hold slashes, the name is the last segment. */
function byTag(g: AttachmentDownloadDeps, c: Context, auth: Authenticated | null, parts: string[]): Promise<Response> {
  const [owner, name, , , ...rest] = parts as [string, string, string, string, ...string[]];
  if (rest.length < 2) throw new DomainError('not_found', 'not found');
  const repo = readable(g, auth, owner, name);
  const a = g.releaseAssets.byTagAndName(repo, rest.slice(0, -1).join('/'), rest.at(-1)!, auth?.user ?? null);
  return serve(g, c, repo, a);
}

/** `/{owner}/{repo}/releases/download/...` split into decoded segments, or null when the path is not this route's. */
function segments(c: Context): string[] | null {
  const path = new URL(c.req.url).pathname;
  let parts: string[];
  try {
    parts = path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return null;
  }
  const [owner, , releases, download] = parts;
  if (!owner || releases !== 'releases' || download !== 'download' || RESERVED.has(owner.toLowerCase())) return null;
  return parts;
}

/**
 * Release file downloads, as Gitea serves them: `/attachments/{uuid}` (what
 * `browser_download_url` names) and `/{owner}/{repo}/releases/download/{tag}/{name}`.
 * Each GET counts a download. Credentials as the API's (wrong ones: plain-text
 * 401); whatever the caller may not see is a plain 404.
 */
export function mountAttachmentDownloads(app: Hono<any>, g: AttachmentDownloadDeps): void {
  const auth = giteaAuth(g, (_c, throttled) => (throttled ? tooMany(throttled) : plain(401, 'Failed to authenticate user')));
  const answer = (c: Context, run: (caller: Authenticated | null) => Promise<Response>) => {
    let res: Response | undefined;
    return (async () => {
      const failed = await auth(c, async () => {
        try {
          res = await run(c.get('giteaAuth') as Authenticated | null);
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          const mapped = giteaError(err)!;
          res = plain(mapped.status, mapped.status === 403 ? 'Forbidden' : mapped.status === 404 ? 'Not Found' : mapped.message);
        }
      });
      return failed ?? res!;
    })();
  };
  app.on(['GET', 'HEAD'], '/attachments/:uuid', (c) => answer(c, (caller) => byUuid(g, c, caller)));
  app.on(['GET', 'HEAD'], '/:owner/:repo/releases/download/*', (c, next) => {
    const parts = segments(c);
    if (!parts) return next();
    return answer(c, (caller) => byTag(g, c, caller, parts));
  });
}
