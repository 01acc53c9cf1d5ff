/** LFS pointers are at most this many bytes; anything larger is content. */
export const LFS_POINTER_MAX = 1024;

const VERSION_LINE = 'version https://git-lfs.github.com/spec/v1';

export interface LfsPointer {
  oid: string;
  size: number;
}

/** Parses a blob as an LFS pointer (Gitea's ReadPointer: only the first 1024 bytes count). */
export function parsePointer(data: Buffer): LfsPointer | null {
  if (data.length === 0 || data.length > LFS_POINTER_MAX) return null;
  const text = data.toString('utf8');
  if (!text.startsWith(VERSION_LINE)) return null;
  let oid = '';
  let size = -1;
  for (const line of text.split('\n').slice(1)) {
    if (line.startsWith('oid sha256:')) oid = line.slice(11);
    else if (line.startsWith('size ')) size = /^\d+$/.test(line.slice(5)) ? Number(line.slice(5)) : -1;
  }
  if (!/^[0-9a-f]{64}$/.test(oid) || size < 0) return null;
  return { oid, size };
}

/** The pointer file git-lfs writes for an object. */
export const formatPointer = (p: LfsPointer) => `${VERSION_LINE}\noid sha256:${p.oid}\nsize ${p.size}\n`;
