import { randomUUID } from 'node:crypto';
import type { Attachment } from '../../../protocol/gitea/index.js';
import type { ModelOf } from '../../../protocol/model.js';
import type { AttachmentRepo, AttachmentRow } from '../../db/repos/attachment-repo.js';
import type { ReleaseRow } from '../../db/repos/release-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import { badRequest, notFound, unprocessable } from '../../errors.js';
import { goTime } from '../../util/go-format.js';
import type { Site } from '../site.js';
import type { AttachmentStore } from './attachment-store.js';
import type { Releases } from './releases.js';
import type { RepoContext } from './repos.js';
import { SNIFF_LEN } from './sniff.js';
import { FORBIDDEN_TYPE, typeAllowed } from './upload-types.js';

type AttachmentJson = ModelOf<typeof Attachment>;

/** Gitea's name column holds 255 characters; a longer name is refused rather than cut. */
export const MAX_ATTACHMENT_NAME = 255;

/** Gitea's answer when neither the form nor the query names the file. */
const NO_NAME = 'Could not determine name of attachment.';

/**
 * Why a name is refused, or '' when it is taken. Gitea takes any name; control
 * characters (NUL included) and `.`/`..` are refused here, as no client can save
 * a file under them, and the length is bounded by Gitea's column.
 */
function badName(name: string): string {
  if ([...name].length > MAX_ATTACHMENT_NAME) return `attachment name is longer than ${MAX_ATTACHMENT_NAME} characters`;
  if (/[\x00-\x1f\x7f]/.test(name) || name === '.' || name === '..') return `attachment name is not valid [name: ${JSON.stringify(name)}]`;
  return '';
}

/** An upload as the route hands it over (once the release is found): the name it was given and its bytes, not yet read. */
export interface Upload {
  name: string;
  data: AsyncIterable<Uint8Array>;
}

/** What release files need: their rows and bytes, the releases they belong to, where URLs point, and the limits. */
export interface ReleaseAssetDeps {
  rows: AttachmentRepo;
  store: AttachmentStore;
  releases: Pick<Releases, 'row' | 'rowByTag'>;
  site: Site;
  /** Bytes (ATTACHMENT_MAX_SIZE). */
  maxBytes: number;
  /** RELEASE_ALLOWED_TYPES. */
  allowedTypes: string;
  now?: () => number;
}

/** Gitea's Attachment JSON; the download address is the server-wide `/attachments/{uuid}`, as Gitea's. */
export function attachmentJson(site: Site, a: AttachmentRow): AttachmentJson {
  return {
    id: a.id,
    name: a.name,
    size: a.size,
    download_count: a.download_count,
    created_at: goTime(a.created_at),
    uuid: a.uuid,
    browser_download_url: `${site.rootUrl}attachments/${a.uuid}`,
  };
}

/** The first `n` bytes of a stream (fewer if it ends first), and the stream from there on, as one. */
async function splitHead(data: AsyncIterable<Uint8Array>, n: number): Promise<{ head: Buffer; all: AsyncIterable<Uint8Array> }> {
  const it = data[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let got = 0;
  while (got < n) {
    const next = await it.next();
    if (next.done) break;
    chunks.push(Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength));
    got += next.value.byteLength;
  }
  const head = Buffer.concat(chunks);
  async function* all() {
    if (head.length) yield head;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  }
  return { head: head.subarray(0, n), all: all() };
}

/**
 * Release files (Gitea's release attachments): listed, uploaded, renamed and
 * removed through the API, found by uuid or by tag and name for downloads.
 * A release hidden from the caller (a draft) hides its files too.
 */
export function createReleaseAssets(deps: ReleaseAssetDeps) {
  const { rows, store, site } = deps;
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));

  /** The file `attachmentId` of the release, or Gitea's 404 (a file of another release included). */
  function find(release: ReleaseRow, attachmentId: string): AttachmentRow {
    const a = /^\d{1,15}$/.test(attachmentId) ? rows.byId(Number(attachmentId)) : undefined;
    if (!a || a.release_id !== release.id) throw notFound('not found');
    return a;
  }

  return {
    /** A release's files, in Gitea's order. */
    list(repo: RepoContext, releaseId: string, viewer: UserRow | null): AttachmentJson[] {
      return rows.ofRelease(deps.releases.row(repo, releaseId, viewer).id).map((a) => attachmentJson(site, a));
    },

    get(repo: RepoContext, releaseId: string, attachmentId: string, viewer: UserRow | null): AttachmentJson {
      return attachmentJson(site, find(deps.releases.row(repo, releaseId, viewer), attachmentId));
    },

    /**
     * Stores an upload: its type checked on its first bytes, its size counted as
     * it streams to disk (413 past the limit), its row written once the file is whole.
     */
    async upload(repo: RepoContext, doer: UserRow, releaseId: string, read: () => Promise<Upload>): Promise<AttachmentJson> {
      // The release first, as Gitea: a form is not read for a release that is not there.
      const release = deps.releases.row(repo, releaseId, doer);
      const up = await read();
      if (!up.name) throw badRequest(NO_NAME);
      const bad = badName(up.name);
      if (bad) throw badRequest(bad);
      const { head, all } = await splitHead(up.data, SNIFF_LEN);
      if (!typeAllowed(head, up.name, deps.allowedTypes)) throw badRequest(FORBIDDEN_TYPE);
      const uuid = randomUUID();
      const size = await store.save(uuid, all, deps.maxBytes);
      const row = rows.insert({ uuid, repo_id: repo.row.id, release_id: release.id, uploader_id: doer.id, name: up.name, size, created_at: now() });
      if (!row) {
        // The release was removed while the file streamed in: keep nothing.
        await store.remove([uuid]);
        throw notFound('not found');
      }
      return attachmentJson(site, row);
    },

    /** Gitea's EditReleaseAttachment: a new name (an empty one changes nothing), held to the allowed types. */
    edit(repo: RepoContext, doer: UserRow, releaseId: string, attachmentId: string, name: string | undefined): AttachmentJson {
      const a = find(deps.releases.row(repo, releaseId, doer), attachmentId);
      if (name) {
        const bad = badName(name);
        if (bad) throw unprocessable(bad);
        if (!typeAllowed(null, name, deps.allowedTypes)) throw unprocessable(FORBIDDEN_TYPE);
        rows.rename(a.id, name);
      }
      return attachmentJson(site, rows.byId(a.id)!);
    },

    /** Removes the row, then the file. */
    async remove(repo: RepoContext, doer: UserRow, releaseId: string, attachmentId: string): Promise<void> {
      const a = find(deps.releases.row(repo, releaseId, doer), attachmentId);
      rows.remove(a.id);
      await store.remove([a.uuid]);
    },

    /** The file behind `/attachments/{uuid}`, with its release (to check who may see it); undefined when there is none. */
    byUuid(uuid: string): AttachmentRow | undefined {
      return rows.byUuid(uuid.toLowerCase());
    },

    /** The file behind `/{owner}/{repo}/releases/download/{tag}/{name}`, or 404. */
    byTagAndName(repo: RepoContext, tag: string, name: string, viewer: UserRow | null): AttachmentRow {
      const a = rows.byName(deps.releases.rowByTag(repo, tag, viewer).id, name);
      if (!a) throw notFound('not found');
      return a;
    },

    /** One more download of a file. */
    counted: (a: AttachmentRow) => rows.counted(a.id),

    /** Bytes of a stored file, for serving. */
    store,
  };
}

/** The release files service's interface. */
export type ReleaseAssets = ReturnType<typeof createReleaseAssets>;
