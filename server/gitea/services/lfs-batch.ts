import type { LfsRepo } from '../../db/repos/lfs-repo.js';
import { OID, type LfsStore } from './lfs-store.js';

/** One object of a batch request, as decoded (Go decodes a missing oid as "" and a missing size as 0). */
export interface BatchObject {
  oid: string;
  size: number;
}

interface Link {
  href: string;
  header?: Record<string, string>;
}

/** One entry of the answer: Gitea's ObjectResponse (`actions` and `error` omitted when empty). */
export interface ObjectResponse {
  oid: string;
  size: number;
  actions?: Record<string, Link>;
  error?: { code: number; message: string };
}

/** Where objects of this repository are fetched, stored and verified (built from ROOT_URL). */
export interface LfsHrefs {
  download(oid: string): string;
  upload(oid: string, size: number): string;
  verify(): string;
}

/** git-lfs 2.x needs this Accept on verify (git-lfs/git-lfs#3662); Gitea sends it. */
const VERIFY_ACCEPT = 'application/vnd.git-lfs+json;q=0.9, */*;q=0.8';

/** Whether an object id and size are valid (64 hex digits, a non-negative size). */
export const isValidPointer = (p: BatchObject) => OID.test(p.oid) && Number.isSafeInteger(p.size) && p.size >= 0;

/**
 * Gitea's batch handler, object by object: invalid pointers and size
 * mismatches are per-object 422s, a download of an object this repository
 * has no link to (or whose bytes are missing) is a per-object 404, an upload
 * of an object already stored and linked needs no action. The caller's
 * Authorization header is echoed into every action.
 *
 * An object stored only for other repositories is uploaded again (proving
 * the client has the bytes) rather than linked for free when the caller can
 * read one of those repositories, as Gitea does: one extra upload, and no
 * cross-repository permission query.
 */
export async function batchObjects(
  store: LfsStore,
  links: LfsRepo,
  repoId: number,
  upload: boolean,
  objects: readonly BatchObject[],
  hrefs: LfsHrefs,
  authorization: string | undefined,
): Promise<ObjectResponse[]> {
  // Go's encoding/json writes map keys sorted, so header keys come out in that order.
  const header = authorization ? { Authorization: authorization } : undefined;
  const out: ObjectResponse[] = [];
  for (const p of objects) {
    if (!isValidPointer(p)) {
      out.push({ oid: p.oid, size: p.size, error: { code: 422, message: 'Oid or size are invalid' } });
      continue;
    }
    const exists = (await store.size(p.oid)) !== null;
    const meta = links.linked(repoId, p.oid);
    if (meta && meta.size !== p.size) {
      out.push({ oid: p.oid, size: p.size, error: { code: 422, message: `Object ${p.oid} is not ${p.size} bytes` } });
      continue;
    }
    if (upload) {
      if (exists && meta) out.push({ oid: p.oid, size: p.size });
      else
        out.push({
          oid: p.oid,
          size: p.size,
          actions: {
            upload: { href: hrefs.upload(p.oid, p.size), ...(header ? { header } : {}) },
            verify: { href: hrefs.verify(), header: { Accept: VERIFY_ACCEPT, ...header } },
          },
        });
    } else if (exists && meta) out.push({ oid: p.oid, size: p.size, actions: { download: { href: hrefs.download(p.oid), ...(header ? { header } : {}) } } });
    else out.push({ oid: p.oid, size: p.size, error: { code: 404, message: 'Not Found' } });
  }
  return out;
}
