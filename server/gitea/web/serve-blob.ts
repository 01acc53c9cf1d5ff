import { notFound } from '../../errors.js';
import { Lru } from '../../util/lru.js';
import type { BlobSource } from '../services/blob-source.js';
import type { RefCommit } from '../services/refs.js';
import { cleanTreePath } from '../services/refs.js';
import type { RepoContext } from '../services/repos.js';
import { serveContent } from './serve-content.js';

/** Blobs up to this size have their whole answer to a plain GET kept (see `answers`). */
const ANSWER_MAX_BYTES = 64 * 1024;

interface Answer {
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
}

/**
 * Whole answers (headers and body) to plain GETs of small blobs, by
 * repository, commit, path, route and cacheability: all immutable at a
 * commit, so a hot file skips the tree walk, last-commit lookup, sniffing and
 * header building (what made raw GETs slow). Repository ids are never reused,
 * so a deleted repository's entries only age out. An LFS object served by
 * /media is never kept: whether this repository holds it can change.
 */
const answers = new Lru<string, Answer>(4096, { maxWeight: 32 * 1024 * 1024, weigh: (a) => a.body.byteLength + 1024 });

const ownCopy = (b: Uint8Array): Buffer => {
  const out = Buffer.allocUnsafeSlow(b.byteLength);
  out.set(b);
  return out;
};

/** Preconditions and ranges change the answer; HEAD has no body: those take the full path. */
const plainGet = (req: Request) =>
  req.method === 'GET' && !req.headers.has('range') && !req.headers.has('if-none-match') && !req.headers.has('if-modified-since');

/** What serving a blob needs: where blobs are found, and whether this is production (cache headers). */
export interface ServeBlobDeps {
  blobs: BlobSource;
  config: { production: boolean };
}

/** What to serve: a path at a resolved ref of a repository. */
export interface BlobTarget {
  repo: RepoContext;
  ref: RefCommit;
  treePath: string;
  /** `/media`: a small LFS pointer whose object this repository holds is answered with the object. */
  media: boolean;
}

/**
 * Gitea's GetRawFile / GetRawFileOrLFS once the ref is known: the file (or
 * the LFS object it points to) with Gitea's serving headers; small answers
 * to plain GETs are kept whole.
 */
export async function serveBlob(deps: ServeBlobDeps, req: Request, t: BlobTarget): Promise<Response> {
  const { repo, ref } = t;
  const path = cleanTreePath(t.treePath);
  if (!path) throw notFound('not found');
  const cachePublic = !repo.row.is_private && repo.owner.visibility === 'public';
  const key = plainGet(req) ? `${repo.gitDir}\0${ref.commit}\0${path}\0${t.media ? 'm' : 'r'}\0${cachePublic ? 'p' : 'x'}` : undefined;
  const hit = key && answers.get(key);
  if (hit) return new Response(hit.body, { status: 200, headers: { ...hit.headers } });
  const found = await deps.blobs.find(repo, ref.commit, path, t.media);
  const type = found.objectType;
  const opts = {
    // Both vendors' names, same value (decisions.md: the spec's two object type headers).
    headers: { 'x-gitea-object-type': type, 'x-forgejo-object-type': type },
    cachePublic,
    production: deps.config.production,
  };
  if (found.lfs) return serveContent(req, found.content, { ...opts, strictPreconditions: true });
  const keep = !!key && found.cacheable && found.content.size <= ANSWER_MAX_BYTES;
  // A copy in memory of its own: a view into a larger buffer (git's output, Node's 8 KiB pool)
  // would keep that whole buffer alive for as long as the entry lives (the soak measured it).
  const onFullAnswer = keep ? (headers: Readonly<Record<string, string>>, body: Uint8Array) => answers.set(key!, { headers, body: ownCopy(body) }) : undefined;
  return serveContent(req, found.content, { ...opts, ...(onFullAnswer ? { onFullAnswer } : {}) });
}
