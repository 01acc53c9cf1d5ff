/** LFS pointers are at most this many bytes; anything larger is content. */
export const LFS_POINTER_MAX = 1024;

const VERSION_LINE = 'version https://git-lfs.github.com/spec/v1';

/** What an LFS pointer file names. */
export interface LfsPointer {
  oid: string;
  size: number;
}

/**
 * Parses a blob as an LFS pointer exactly as Gitea's ReadPointerFromBuffer
 * does (only the first 1024 bytes count): the version line first, then the
 * oid on the second line and the size on the third, by position; the size
 * as strconv.ParseInt reads it (a sign allowed), and not negative.
 */
export function parsePointer(data: Buffer): LfsPointer | null {
  if (data.length === 0 || data.length > LFS_POINTER_MAX) return null;
  const text = data.toString('utf8');
  if (!text.startsWith(VERSION_LINE)) return null;
  const lines = text.split('\n');
  if (lines.length < 3) return null;
  const oid = lines[1]!.startsWith('oid sha256:') ? lines[1]!.slice(11) : lines[1]!;
  if (!/^[0-9a-f]{64}$/.test(oid)) return null;
  const sizeText = lines[2]!.startsWith('size ') ? lines[2]!.slice(5) : lines[2]!;
  if (!/^[+-]?\d+$/.test(sizeText)) return null;
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size) || size < 0) return null;
  return { oid, size };
}

/** The pointer file git-lfs writes for an object. */
export const formatPointer = (p: LfsPointer) => `${VERSION_LINE}\noid sha256:${p.oid}\nsize ${p.size}\n`;
