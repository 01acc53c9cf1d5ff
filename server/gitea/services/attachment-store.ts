import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { tooLarge } from '../../errors.js';
import { fileHead } from '../../util/file-head.js';

/** An attachment's name on disk: a UUID as Gitea makes them (lowercase, hyphenated). */
export const ATTACHMENT_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Gitea's answer to a file over the limit. */
export const exceedsLimit = (max: number) => tooLarge(`attachment exceeds limit ${max}`);

/**
 * Release files under DATA_DIR/attachments, laid out as Gitea's
 * (`a/b/abcdef…` by uuid). A file is written aside, flushed to disk and
 * renamed into place whole; the caller records its row only then, and removes
 * the row before the file, so no row ever names a missing or partial file.
 */
export function createAttachmentStore(dataDir: string) {
  const root = join(dataDir, 'attachments');
  const tmpDir = join(root, 'tmp');
  const pathOf = (uuid: string) => {
    if (!ATTACHMENT_UUID.test(uuid)) throw new Error('invalid attachment uuid'); // a uuid never reaches the filesystem unchecked
    return join(root, uuid[0]!, uuid[1]!, uuid);
  };

  return {
    pathOf,

    /**
     * Streams `body` into the file of `uuid` and returns its size. Reading stops
     * (and nothing is kept) as soon as the body passes `maxBytes`: 413.
     */
    async save(uuid: string, body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<number> {
      const file = pathOf(uuid);
      await mkdir(tmpDir, { recursive: true });
      const tmp = join(tmpDir, randomBytes(8).toString('hex'));
      const fh = await open(tmp, 'wx', 0o600);
      let size = 0;
      let kept = false;
      try {
        for await (const chunk of body) {
          size += chunk.byteLength;
          if (size > maxBytes) throw exceedsLimit(maxBytes);
          await fh.write(chunk);
        }
        await fh.sync();
        await fh.close();
        await mkdir(dirname(file), { recursive: true });
        await rename(tmp, file);
        kept = true;
        return size;
      } finally {
        if (!kept) {
          await fh.close().catch(() => {});
          await unlink(tmp).catch(() => {});
        }
      }
    },

    /** Bytes `start`..`end` (inclusive) of a stored file. */
    open: (uuid: string, start: number, end: number): Readable => createReadStream(pathOf(uuid), { start, end }),

    /** Up to the first `n` bytes of a stored file (to sniff its type). */
    head: (uuid: string, n: number): Promise<Buffer> => fileHead(pathOf(uuid), n),

    /** Removes stored files (their rows are already gone); a file already missing is no error. */
    async remove(uuids: readonly string[]): Promise<void> {
      for (const uuid of uuids) await unlink(pathOf(uuid)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    },

    /**
     * At start: removes what a crash left behind, files being written and
     * files whose row never came (killed between the rename and the insert)
     * or is gone (killed between the delete and the unlink). Returns how many.
     */
    async sweep(known: ReadonlySet<string>): Promise<number> {
      await rm(tmpDir, { recursive: true, force: true });
      let removed = 0;
      const list = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).filter((n) => n.length >= 1);
      for (const a of await list(root)) {
        for (const b of await list(join(root, a))) {
          for (const name of await list(join(root, a, b))) {
            if (ATTACHMENT_UUID.test(name) && !known.has(name)) {
              await unlink(join(root, a, b, name)).catch(() => {});
              removed++;
            }
          }
        }
      }
      return removed;
    },
  };
}

/** The attachment store's interface. */
export type AttachmentStore = ReturnType<typeof createAttachmentStore>;
