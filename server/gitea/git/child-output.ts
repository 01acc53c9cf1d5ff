import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { GitError } from './run.js';

/** A git child process with piped stdout and stderr. */
export type GitChild = ChildProcessByStdio<null, Readable, Readable>;

/**
 * A git process's output as a response body. The first bytes can be peeked
 * before the answer commits to a status (sniffing, early failures); then the
 * output streams with backpressure, optionally cut to a byte range. Whatever
 * ends the body ends git: a client that goes away cancels the stream, a
 * range that is complete stops reading, and `kill` covers answers that send
 * no body. A git that fails errors the stream (the client sees a truncated
 * transfer, never a silently short file).
 */
export class ChildOutput {
  private readonly it: AsyncIterator<Buffer>;
  private readonly queued: Buffer[] = [];
  private queuedBytes = 0;
  private eof = false;
  private killed = false;
  private stderr = '';
  private readonly exited: Promise<{ code: number | null; error?: Error }>;

  constructor(
    private readonly child: GitChild,
    private readonly args: readonly string[],
  ) {
    this.it = child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    child.stderr.on('data', (d: Buffer) => {
      if (this.stderr.length < 4096) this.stderr += d.toString('utf8');
    });
    this.exited = new Promise((resolve) => {
      child.once('error', (error) => resolve({ code: null, error }));
      child.once('close', (code) => resolve({ code }));
    });
  }

  /** Resolves once git has exited (however it ended). */
  get done(): Promise<void> {
    return this.exited.then(() => undefined);
  }

  /** Ends git now; its output is no longer wanted. */
  kill(): void {
    if (this.killed) return;
    this.killed = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    this.child.stdout.destroy();
  }

  private async read(): Promise<Buffer | null> {
    if (this.queued.length) {
      const b = this.queued.shift()!;
      this.queuedBytes -= b.length;
      return b;
    }
    if (this.eof) return null;
    const r = await this.it.next();
    if (!r.done) return r.value;
    this.eof = true;
    const { code, error } = await this.exited;
    if (!this.killed && (error || code !== 0)) throw error ?? new GitError(this.args, code, this.stderr);
    return null;
  }

  /** The first `n` bytes of the output (fewer when it is shorter), kept for the stream. Rejects if git fails first. */
  async peek(n: number): Promise<Buffer> {
    while (this.queuedBytes < n && !this.eof) {
      const chunk = await this.read();
      if (!chunk) break;
      this.queued.push(chunk);
      this.queuedBytes += chunk.length;
    }
    return Buffer.concat(this.queued).subarray(0, n);
  }

  /** The output's bytes `start`..`end` (inclusive) as a web stream. */
  stream(start = 0, end = Number.POSITIVE_INFINITY): ReadableStream<Uint8Array> {
    let pos = 0;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          for (;;) {
            if (pos > end) {
              this.kill(); // the range is served; the rest of the object is not needed
              controller.close();
              return;
            }
            const chunk = await this.read();
            if (!chunk) {
              controller.close();
              return;
            }
            const at = pos;
            pos += chunk.length;
            const from = Math.max(start - at, 0);
            const to = Math.min(end + 1 - at, chunk.length);
            if (from < to) {
              controller.enqueue(from === 0 && to === chunk.length ? chunk : chunk.subarray(from, to));
              return;
            }
          }
        } catch (err) {
          this.kill();
          controller.error(err);
        }
      },
      cancel: () => this.kill(),
    });
  }
}
