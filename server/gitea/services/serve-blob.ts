import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { LfsRepo } from '../../db/repos/lfs-repo.js';
import { notFound } from '../../errors.js';
import { blobStream } from '../git/blob-stream.js';
import type { ChildOutput } from '../git/child-output.js';
import type { GitStore } from '../git/store.js';
import { entryType } from '../git/tree.js';
import { Lru } from '../../util/lru.js';
import { LFS_POINTER_MAX, parsePointer } from './lfs-pointer.js';
import type { LfsStore } from './lfs-store.js';
import type { RefCommit } from './refs.js';
import { cleanTreePath } from './refs.js';
import type { RepoContext } from './repos.js';
import { serveContent, type Content } from './serve-content.js';
import { SNIFF_LEN } from './sniff.js';

/** Blobs above this size are streamed by their own git process instead of read whole. */
export const STREAM_ABOVE = 8 * 1024 * 1024;

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

export interface ServeBlobDeps {
  git: GitStore;
  lfsStore: LfsStore;
  lfsRepo: LfsRepo;
  config: { production: boolean; lfsEnabled: boolean };
}

export interface BlobTarget {
  repo: RepoContext;
  ref: RefCommit;
  treePath: string;
  /** `/media`: a small LFS pointer whose object this repository holds is answered with the object. */
  media: boolean;
}

/** A blob's bytes, from memory when small, else streamed (opened on first use, so a 304 spawns nothing). */
function blobContent(git: GitStore, gitDir: string, sha: string, size: number, known?: Buffer): Pick<Content, 'head' | 'body' | 'release'> {
  if (size <= STREAM_ABOVE) {
    let data: Promise<Buffer> | undefined = known && Promise.resolve(known);
    const load = () =>
      (data ??= git.blob(gitDir, sha).then((d) => {
        if (!d) throw new Error(`blob ${sha} is missing`);
        return d;
      }));
    let loaded: Buffer | undefined;
    return {
      head: async () => (loaded = await load()).subarray(0, SNIFF_LEN),
      body: (start, end) => loaded!.subarray(start, end + 1),
    };
  }
  let out: ChildOutput | undefined;
  return {
    head: () => (out ??= blobStream(gitDir, sha)).peek(SNIFF_LEN),
    body: (start, end) => (out ??= blobStream(gitDir, sha)).stream(start, end),
    release: () => out?.kill(),
  };
}

/** An LFS object from the store: its first bytes for sniffing, then a file stream for the body. */
function lfsContent(store: LfsStore, oid: string): Pick<Content, 'head' | 'body'> {
  return {
    async head() {
      const fh = await open(store.pathOf(oid), 'r');
      try {
        const buf = Buffer.alloc(SNIFF_LEN);
        const { bytesRead } = await fh.read(buf, 0, SNIFF_LEN, 0);
        return buf.subarray(0, bytesRead);
      } finally {
        await fh.close();
      }
    },
    body: (start, end) => Readable.toWeb(store.open(oid, { start, end })) as ReadableStream<Uint8Array>,
  };
}

/**
 * Gitea's GetRawFile / GetRawFileOrLFS once the ref is known: the entry must
 * be a file or symlink (a missing path, directory or submodule is 404
 * `not found`), answered with its blob, or for `/media` with the LFS object
 * a small pointer names when this repository holds it.
 */
export async function serveBlob(deps: ServeBlobDeps, req: Request, t: BlobTarget): Promise<Response> {
  const { git } = deps;
  const { repo, ref } = t;
  const path = cleanTreePath(t.treePath);
  if (!path) throw notFound('not found');
  const cachePublic = !repo.row.is_private && repo.owner.visibility === 'public';
  const key = plainGet(req) ? `${repo.gitDir}\0${ref.commit}\0${path}\0${t.media ? 'm' : 'r'}\0${cachePublic ? 'p' : 'x'}` : undefined;
  const hit = key && answers.get(key);
  if (hit) return new Response(hit.body, { status: 200, headers: { ...hit.headers } });
  const found = await git.lookup(repo.gitDir, ref.commit, path.split('/'));
  if (!found.found) throw notFound('not found');
  const type = entryType(found.entry.mode);
  if (type !== 'file' && type !== 'symlink') throw notFound('not found');
  const info = await git.info(repo.gitDir, found.entry.sha);
  if (!info || info.type !== 'blob') throw notFound('not found');
  const last = await git.commit(repo.gitDir, await git.lastCommit(repo.gitDir, ref.commit, path));
  const opts = {
    // Both vendors' names, same value (decisions.md: the spec's two object type headers).
    headers: { 'x-gitea-object-type': type, 'x-forgejo-object-type': type },
    cachePublic,
    production: deps.config.production,
  };
  let keep = !!key && info.size <= ANSWER_MAX_BYTES;
  const base = {
    filename: path.slice(path.lastIndexOf('/') + 1),
    ...(last ? { lastModified: last.committer.when } : {}),
  };

  let small: Buffer | undefined;
  if (t.media && deps.config.lfsEnabled && info.size <= LFS_POINTER_MAX) {
    small = (await git.blob(repo.gitDir, info.sha)) ?? undefined;
    const pointer = small ? parsePointer(small) : null;
    const meta = pointer ? deps.lfsRepo.linked(repo.row.id, pointer.oid) : undefined;
    if (pointer) keep = false; // its object may be uploaded to this repository later
    if (pointer && meta) {
      const size = await deps.lfsStore.size(pointer.oid);
      if (size === null) throw new Error(`LFS object ${pointer.oid} is recorded for repository ${repo.row.id} but missing from the store`);
      return serveContent(req, { ...base, etag: `"${pointer.oid}"`, size, ...lfsContent(deps.lfsStore, pointer.oid) }, { ...opts, strictPreconditions: true });
    }
  }
  // A copy in memory of its own: a view into a larger buffer (git's output, Node's 8 KiB pool)
  // would keep that whole buffer alive for as long as the entry lives (the soak measured it).
  const onFullAnswer = keep ? (headers: Readonly<Record<string, string>>, body: Uint8Array) => answers.set(key!, { headers, body: ownCopy(body) }) : undefined;
  return serveContent(req, { ...base, etag: `"${info.sha}"`, size: info.size, ...blobContent(git, repo.gitDir, info.sha, info.size, small) }, { ...opts, ...(onFullAnswer ? { onFullAnswer } : {}) });
}
