import type { Context, Hono } from 'hono';
import { DomainError } from '../../errors.js';
import { giteaError } from '../http/errors.js';
import { giteaAuth, type CallerDeps } from '../http/auth.js';
import { tooMany } from './git-access.js';
import type { Authenticated } from '../services/accounts.js';
import type { RefResolver } from '../services/ref-resolver.js';
import { tokenMayAccessRepo } from '../services/repo-access.js';
import type { RepoService } from '../services/repos.js';
import { serveBlob, type ServeBlobDeps } from './serve-blob.js';

/** What the download route uses. */
export type DownloadDeps = CallerDeps & ServeBlobDeps & { repos: RepoService; refs: RefResolver };

/** First path segments that are never an owner (decisions.md): every web route by owner passes them on. */
export const RESERVED = new Set(['api', 'ari', 'sim', 'assets', 'admin', 'user', 'users', 'repos', 'explore']);
const REF_KINDS = new Set(['branch', 'tag', 'commit']);

/** Go's http.Error: what Gitea's web handlers answer with outside the API. */
export const plain = (status: number, text: string) =>
  new Response(`${text}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' } });

/** `/{owner}/{repo}/raw/...` split into decoded segments, or null when the path is not this route's. */
function segments(c: Context): string[] | null {
  const path = new URL(c.req.url).pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  let parts: string[];
  try {
    parts = path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return null;
  }
  const [owner, repo, raw] = parts;
  if (!owner || !repo || raw !== 'raw' || RESERVED.has(owner.toLowerCase()) || repo.toLowerCase().endsWith('.git')) return null;
  return parts;
}

async function download(g: DownloadDeps, c: Context, parts: string[]): Promise<Response> {
  const [owner, name, , ...rest] = parts as [string, string, string, ...string[]];
  const auth = c.get('giteaAuth') as Authenticated | null;
  try {
    const repo = g.repos.lookup(owner, name, auth);
    // Gitea's CheckRepoScopedToken: a token must carry read:repository for the web routes too.
    if (!tokenMayAccessRepo(auth, repo, 'read')) return plain(403, 'Forbidden');
    if (await g.refs.isEmpty(repo)) return plain(404, 'repository is empty');
    const kind = rest[0] ?? '';
    // The typed form is what download_url uses; anything else is guessed as /raw/{ref-or-path} (Gitea redirects those to the typed URL; we serve them).
    const found = REF_KINDS.has(kind) && rest.length > 1 ? await g.refs.typed(repo, kind, rest.slice(1).join('/')) : await g.refs.legacy(repo, rest.join('/'), undefined);
    return await serveBlob(g, c.req.raw, { repo, ...found, media: false });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const mapped = giteaError(err)!;
    return plain(mapped.status, mapped.status === 403 ? 'Forbidden' : mapped.message);
  }
}

/**
 * `/{owner}/{repo}/raw/{branch|tag|commit}/{ref}/{path}`: what `download_url`
 * points to, with the API's credentials (wrong ones: plain-text 401) and the
 * same headers as /api/v1/.../raw. Paths under reserved names and
 * `{repo}.git` belong to other routes and pass through.
 */
export function mountDownload(app: Hono<any>, g: DownloadDeps): void {
  const auth = giteaAuth(g, (_c, throttled) => (throttled ? tooMany(throttled) : plain(401, 'Failed to authenticate user')));
  app.get('/:owner/:repo/raw/*', async (c, next) => {
    const parts = segments(c);
    if (!parts) return next();
    let res: Response | undefined;
    const failed = await auth(c, async () => {
      res = await download(g, c, parts);
    });
    return failed ?? res!;
  });
}
