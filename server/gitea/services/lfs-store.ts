import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';

/** An LFS object id: 64 lowercase hex digits. */
export const OID = /^[0-9a-f]{64}$/;

/**
 * The content-addressed LFS store under DATA_DIR/lfs, laid out as Gitea's
 * (`aa/bb/rest-of-oid`). Objects are written aside and renamed into place
 * only once their hash is verified, so a stored object is always whole.
 */
export function createLfsStore(dataDir: string) {
  const root = join(dataDir, 'lfs');
  const pathOf = (oid: string) => {
    if (!OID.test(oid)) throw new Error('invalid LFS oid'); // an oid never reaches the filesystem unchecked
    return join(root, oid.slice(0, 2), oid.slice(2, 4), oid.slice(4));
  };
  const tmpPath = () => join(root, 'tmp', randomBytes(8).toString('hex'));

  return {
    pathOf,

    async size(oid: string): Promise<number | null> {
      try {
        return (await stat(pathOf(oid))).size;
      } catch {
        return null;
      }
    },

    open: (oid: string, range?: { start: number; end: number }) => createReadStream(pathOf(oid), range),

    /** Stores bytes already in memory (contents API writes); returns the oid. */
    async putBuffer(data: Buffer): Promise<string> {
      const oid = createHash('sha256').update(data).digest('hex');
      const file = pathOf(oid);
      try {
        await stat(file);
        return oid;
      } catch {}
      const tmp = tmpPath();
      await mkdir(dirname(tmp), { recursive: true });
      await writeFile(tmp, data);
      await mkdir(dirname(file), { recursive: true });
      await rename(tmp, file);
      return oid;
    },

    /**
     * Streams an upload into the store, checking it is exactly `size` bytes
     * hashing to `oid`; on a mismatch nothing is kept and the answer says which.
     * Reading stops as soon as the body outgrows `size`, instead of storing it all first.
     */
    async putStream(oid: string, size: number, body: Readable): Promise<'ok' | 'hash' | 'size'> {
      const file = pathOf(oid);
      const tmp = tmpPath();
      await mkdir(dirname(tmp), { recursive: true });
      const hash = createHash('sha256');
      let got = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          got += chunk.length;
          if (got > size) return cb(new Error('more bytes than declared'));
          hash.update(chunk);
          cb(null, chunk);
        },
      });
      try {
        await pipeline(body, meter, createWriteStream(tmp));
      } catch (err) {
        await unlink(tmp).catch(() => {});
        if (got > size) return 'size';
        throw err;
      }
      if (got !== size) {
        await unlink(tmp).catch(() => {});
        return 'size';
      }
      if (hash.digest('hex') !== oid) {
        await unlink(tmp).catch(() => {});
        return 'hash';
      }
      await mkdir(dirname(file), { recursive: true });
      await rename(tmp, file);
      return 'ok';
    },
  };
}

/** The LFS store's interface. */
export type LfsStore = ReturnType<typeof createLfsStore>;
