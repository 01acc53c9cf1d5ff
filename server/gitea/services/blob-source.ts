import { Readable } from 'node:stream';
import type { LfsRepo } from '../../db/repos/lfs-repo.js';
import { notFound } from '../../errors.js';
import { fileHead } from '../../util/file-head.js';
import { blobStream } from '../git/blob-stream.js';
import type { ChildOutput } from '../git/child-output.js';
import type { GitStore } from '../git/store.js';
import { entryType } from '../git/tree.js';
import { LFS_POINTER_MAX, parsePointer } from './lfs-pointer.js';
import type { LfsStore } from './lfs-store.js';
import type { RepoContext } from './repos.js';
import { SNIFF_LEN } from './sniff.js';

/** Blobs above this size are streamed by their own git process instead of read whole. */
export const STREAM_ABOVE = 8 * 1024 * 1024;

/** Something to serve: validators, size, and lazy access to its bytes. */
export interface Content {
  /** Quoted entity tag. */
  etag: string;
  /** Seconds since the epoch. */
  lastModified?: number;
  size: number;
  filename: string;
  /** Up to the first 1024 bytes, for sniffing the type. */
  head(): Promise<Buffer>;
  /** Bytes `start`..`end` inclusive. */
  body(start: number, end: number): Uint8Array | ReadableStream<Uint8Array>;
  /** Frees a source opened by `head` when no body will follow (HEAD, errors). */
  release?(): void;
}

/** A file found at a commit, ready to be served. */
export interface FoundBlob {
  content: Content;
  /** `file` or `symlink` (the object type headers). */
  objectType: 'file' | 'symlink';
  /** The bytes are an LFS object from the store (not the blob itself). */
  lfs: boolean;
  /** Whether the answer may be kept: false for an LFS pointer, whose object this repository may receive later. */
  cacheable: boolean;
}

/** What finding blobs needs: git, and the LFS store and links for /media. */
export interface BlobSourceDeps {
  git: GitStore;
  lfsStore: LfsStore;
  lfsRepo: LfsRepo;
  lfsEnabled: boolean;
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
    head: () => fileHead(store.pathOf(oid), SNIFF_LEN),
    body: (start, end) => Readable.toWeb(store.open(oid, { start, end })) as ReadableStream<Uint8Array>,
  };
}

/**
 * Finding what /raw and /media serve (Gitea's GetRawFile / GetRawFileOrLFS
 * once the ref is known): the entry must be a file or symlink (a missing
 * path, directory or submodule is 404 `not found`); for `media`, a small
 * pointer whose object this repository holds stands for that object.
 */
export function createBlobSource(deps: BlobSourceDeps) {
  const { git } = deps;
  return {
    /** The file at `path` (a clean tree path) of `commit`. */
    async find(repo: RepoContext, commit: string, path: string, media: boolean): Promise<FoundBlob> {
      const found = await git.lookup(repo.gitDir, commit, path.split('/'));
      if (!found.found) throw notFound('not found');
      const type = entryType(found.entry.mode);
      if (type !== 'file' && type !== 'symlink') throw notFound('not found');
      const info = await git.info(repo.gitDir, found.entry.sha);
      if (!info || info.type !== 'blob') throw notFound('not found');
      const last = await git.commit(repo.gitDir, await git.lastCommit(repo.gitDir, commit, path));
      const base = {
        filename: path.slice(path.lastIndexOf('/') + 1),
        ...(last ? { lastModified: last.committer.when } : {}),
      };
      let cacheable = true;
      let small: Buffer | undefined;
      if (media && deps.lfsEnabled && info.size <= LFS_POINTER_MAX) {
        small = (await git.blob(repo.gitDir, info.sha)) ?? undefined;
        const pointer = small ? parsePointer(small) : null;
        const meta = pointer ? deps.lfsRepo.linked(repo.row.id, pointer.oid) : undefined;
        if (pointer) cacheable = false; // its object may be uploaded to this repository later
        if (pointer && meta) {
          const size = await deps.lfsStore.size(pointer.oid);
          if (size === null) throw new Error(`LFS object ${pointer.oid} is recorded for repository ${repo.row.id} but missing from the store`);
          return { content: { ...base, etag: `"${pointer.oid}"`, size, ...lfsContent(deps.lfsStore, pointer.oid) }, objectType: type, lfs: true, cacheable: false };
        }
      }
      return { content: { ...base, etag: `"${info.sha}"`, size: info.size, ...blobContent(git, repo.gitDir, info.sha, info.size, small) }, objectType: type, lfs: false, cacheable };
    },
  };
}

/** The blob finder's interface. */
export type BlobSource = ReturnType<typeof createBlobSource>;
