import { open } from 'node:fs/promises';

/** Up to the first `n` bytes of the file at `path` (fewer when it is shorter), e.g. to sniff its type. */
export async function fileHead(path: string, n: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}
