import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, link, mkdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import type { ObjectType } from './cat-file.js';

const deflateAsync = promisify(deflate);

/** The git object id of `content` stored as `type` (SHA-1 repositories). */
export function objectId(type: ObjectType, content: Buffer): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

const exists = (p: string) =>
  access(p, constants.F_OK).then(
    () => true,
    () => false,
  );

/**
 * Writes one loose object into a bare repository, in process: no git spawn
 * for the commonest write. The file appears atomically (written aside, then
 * hard-linked into place, as git itself does), so a reader never sees a torn
 * object and a crash leaves at worst a stray temporary file. Writing an
 * object that already exists is a no-op.
 */
export async function writeObject(gitDir: string, type: ObjectType, content: Buffer): Promise<string> {
  const sha = objectId(type, content);
  const dir = join(gitDir, 'objects', sha.slice(0, 2));
  const file = join(dir, sha.slice(2));
  if (await exists(file)) return sha;
  const header = Buffer.from(`${type} ${content.length}\0`);
  const compressed = await deflateAsync(Buffer.concat([header, content]), { level: 1 });
  await mkdir(dir, { recursive: true });
  const tmp = join(gitDir, 'objects', `tmp_obj_${randomBytes(6).toString('hex')}`);
  await writeFile(tmp, compressed, { mode: 0o444 });
  try {
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // a concurrent writer stored the same object
  } finally {
    await unlink(tmp).catch(() => {});
  }
  return sha;
}
