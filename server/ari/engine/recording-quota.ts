import { existsSync, statSync } from 'node:fs';

/** The cause a recording fails with when the quota runs out while it records. */
export const QUOTA_CAUSE = 'Recordings quota exceeded';

/**
 * Disk used by recording files, against RECORDINGS_MAX_BYTES. It is counted
 * from the files at start, then kept up to date by every write, removal and
 * copy; a write that would pass the limit is not made.
 */
export class RecordingQuota {
  private used = 0;

  constructor(readonly max: number) {}

  /** Bytes in use now. */
  get usedBytes(): number {
    return this.used;
  }

  get full(): boolean {
    return this.used >= this.max;
  }

  /** Counts `bytes` as used if they fit; false (and nothing counted) when they would pass the limit. */
  reserve(bytes: number): boolean {
    if (this.used + bytes > this.max) return false;
    this.used += bytes;
    return true;
  }

  /** Counts bytes written whatever the limit (a header rewritten in place, files found at start). */
  add(bytes: number): void {
    this.used += bytes;
  }

  release(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  /** The size of a file about to be removed or truncated, released; 0 when there is none. */
  releaseFile(path: string): void {
    if (existsSync(path)) this.release(statSync(path).size);
  }
}
