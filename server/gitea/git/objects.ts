import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { link, mkdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflate, deflateSync } from 'node:zlib';
import type { ObjectType } from './cat-file.js';

const deflateAsync = promisify(deflate);

/** The git object id of `content` stored as `type` (SHA-1 repositories). */
export function objectId(type: ObjectType, content: Buffer): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/**
 * Objects up to this size are written synchronously: a few tens of
 * microseconds of blocking beat a dozen thread-pool round trips per commit
 * (trees and commits are small; most files are). Larger ones go async.
 */
const SYNC_LIMIT = 256 * 1024;
/** Fan-out directories known to exist (mkdir is skipped for them). */
const knownDirs = new Set<string>();

const isExists = (err: unknown) => (err as NodeJS.ErrnoException).code === 'EEXIST';

/**
 * Writes one loose object into a bare repository, in process: no git spawn
 * for the commonest write. The file appears atomically (written aside, then
 * hard-linked into place, as git itself does), so a reader never sees a torn
 * object and a crash leaves at worst a stray temporary file. Writing an
 * object that already exists changes nothing.
 */
export async function writeObject(gitDir: string, type: ObjectType, content: Buffer): Promise<string> {
  const sha = objectId(type, content);
  const dir = join(gitDir, 'objects', sha.slice(0, 2));
  const file = join(dir, sha.slice(2));
  const tmp = join(gitDir, 'objects', `tmp_obj_${randomBytes(6).toString('hex')}`);
  const raw = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
  if (raw.length <= SYNC_LIMIT) {
    const compressed = deflateSync(raw, { level: 1 });
    if (!knownDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      knownDirs.add(dir);
    }
    writeFileSync(tmp, compressed, { mode: 0o444 });
    // rename, not link + unlink: one syscall fewer, and replacing an existing object with identical bytes is harmless.
    try {
      renameSync(tmp, file);
    } catch (err) {
      // git prune (gc after a push) removes empty fan-out directories we remembered: make it again.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(dir, { recursive: true });
      renameSync(tmp, file);
    }
    return sha;
  }
  const compressed = await deflateAsync(raw, { level: 1 });
  await mkdir(dir, { recursive: true });
  await writeFile(tmp, compressed, { mode: 0o444 });
  try {
    await link(tmp, file);
  } catch (err) {
    if (!isExists(err)) throw err;
  } finally {
    await unlink(tmp).catch(() => {});
  }
  return sha;
}

/** Forgets cached directories of a repository that is being deleted. */
export function forgetObjectDirs(gitDir: string): void {
  for (const d of knownDirs) if (d.startsWith(`${gitDir}/`)) knownDirs.delete(d);
}
