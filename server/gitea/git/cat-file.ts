import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { gitEnv } from './run.js';

/** The four git object types. */
export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** An object's id, type and size, as `git cat-file --batch-check` reports them. */
export interface ObjectInfo {
  sha: string;
  type: ObjectType;
  size: number;
}

/** An object with its bytes. */
export interface GitObject extends ObjectInfo {
  data: Buffer;
}

interface Pending {
  kind: 'info' | 'contents';
  resolve(value: ObjectInfo | GitObject | null): void;
  reject(err: Error): void;
}

const HEADER = /^([0-9a-f]{40}) (blob|tree|commit|tag) (\d+)$/;

/**
 * One long-lived `git cat-file --batch-command --buffer` for one repository.
 * Requests are pipelined and answered in order, so a burst of reads costs
 * one process, not one each (the design Gitea uses; about 40× cheaper than a
 * spawn per object). The requests made in one turn of the event loop are
 * written together, ending with `flush`, so git answers them in one buffered
 * stream: a directory's thousand sizes are a few writes each way, not a
 * thousand. `name` may be anything rev-parse takes, including `<commit>:<path>`.
 */
export class CatFile {
  private child: ChildProcessWithoutNullStreams | undefined;
  private queue: Pending[] = [];
  private head = 0;
  private pending: Buffer[] = [];
  private pendingLen = 0;
  /** Commands of this turn not yet written (sent together, with `flush`, at the end of the turn). */
  private outbox: string[] = [];
  /** The object whose content is being received. */
  private body: { info: ObjectInfo; buf: Buffer; got: number } | undefined;
  lastUsed = Date.now();

  constructor(private readonly gitDir: string) {}

  get busy(): boolean {
    return this.head < this.queue.length;
  }

  info(name: string): Promise<ObjectInfo | null> {
    return this.request('info', name) as Promise<ObjectInfo | null>;
  }

  read(name: string): Promise<GitObject | null> {
    return this.request('contents', name) as Promise<GitObject | null>;
  }

  close(): void {
    const child = this.child;
    this.child = undefined;
    if (child) {
      child.stdin.end();
      child.kill();
    }
    this.fail(new Error('cat-file closed'));
  }

  private request(kind: Pending['kind'], name: string): Promise<ObjectInfo | GitObject | null> {
    if (/[\n\r\0]/.test(name)) return Promise.resolve(null); // cannot name anything; would break the line protocol
    this.lastUsed = Date.now();
    if (!this.child) this.spawn();
    return new Promise((resolve, reject) => {
      this.queue.push({ kind, resolve, reject });
      if (!this.outbox.length) process.nextTick(() => this.send());
      this.outbox.push(`${kind} ${name}\n`);
    });
  }

  /** Writes this turn's commands and asks git to answer them now. */
  private send(): void {
    if (!this.outbox.length) return;
    const text = `${this.outbox.join('')}flush\n`;
    this.outbox = [];
    this.child?.stdin.write(text);
  }

  private spawn(): ChildProcessWithoutNullStreams {
    const child = spawn('git', ['--git-dir', this.gitDir, 'cat-file', '--batch-command', '--buffer'], { env: gitEnv(), stdio: 'pipe' });
    this.child = child;
    child.stdout.on('data', (d: Buffer) => this.onData(d));
    child.stderr.on('data', () => {});
    child.stdin.on('error', () => {});
    const onEnd = (err?: Error) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.fail(err ?? new Error('git cat-file exited'));
    };
    child.on('error', onEnd);
    child.on('close', () => onEnd());
    return child;
  }

  private fail(err: Error): void {
    const waiting = this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    this.pending = [];
    this.pendingLen = 0;
    this.outbox = [];
    this.body = undefined;
    for (const p of waiting) p.reject(err);
  }

  private shift(): Pending {
    const p = this.queue[this.head++]!;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return p;
  }

  private onData(chunk: Buffer): void {
    let data = chunk;
    while (data.length) {
      if (this.body) {
        const { buf } = this.body;
        const need = buf.length + 1 - this.body.got; // content plus its trailing LF
        const take = Math.min(need, data.length);
        const copy = Math.min(take, buf.length - this.body.got);
        if (copy > 0) data.copy(buf, this.body.got, 0, copy);
        this.body.got += take;
        data = data.subarray(take);
        if (this.body.got === buf.length + 1) {
          const { info } = this.body;
          this.body = undefined;
          this.shift().resolve({ ...info, data: buf });
        }
        continue;
      }
      const nl = data.indexOf(10);
      if (nl < 0) {
        this.pending.push(data);
        this.pendingLen += data.length;
        return;
      }
      let line: string;
      if (this.pendingLen) {
        this.pending.push(data.subarray(0, nl));
        line = Buffer.concat(this.pending).toString('utf8');
        this.pending = [];
        this.pendingLen = 0;
      } else line = data.toString('utf8', 0, nl);
      data = data.subarray(nl + 1);
      const m = HEADER.exec(line);
      const req = this.queue[this.head];
      if (!req) continue; // output nobody asked for: cannot happen with batch-command
      if (!m) {
        this.shift().resolve(null); // "<name> missing" or "<name> ambiguous"
        continue;
      }
      const info: ObjectInfo = { sha: m[1]!, type: m[2] as ObjectType, size: Number(m[3]) };
      if (req.kind === 'info') this.shift().resolve(info);
      // Its own memory, not a slice of the shared pool: a cached blob must not keep an 8 KiB slab alive.
      else this.body = { info, buf: Buffer.allocUnsafeSlow(info.size), got: 0 };
    }
  }
}

/**
 * Keeps a bounded number of cat-file processes, one per recently used
 * repository; idle ones are closed so a server with many repositories does
 * not hold a process for each.
 */
export class CatFilePool {
  private readonly open = new Map<string, CatFile>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly max = 64,
    private readonly idleMs = 60_000,
  ) {
    this.timer = setInterval(() => this.sweep(), Math.min(idleMs, 30_000));
    this.timer.unref();
  }

  get(gitDir: string): CatFile {
    let cf = this.open.get(gitDir);
    if (cf) {
      this.open.delete(gitDir); // re-insert: Map order is our LRU order
      this.open.set(gitDir, cf);
      return cf;
    }
    cf = new CatFile(gitDir);
    this.open.set(gitDir, cf);
    if (this.open.size > this.max) {
      for (const [dir, old] of this.open) {
        if (this.open.size <= this.max) break;
        if (old.busy) continue;
        old.close();
        this.open.delete(dir);
      }
    }
    return cf;
  }

  /** Closes the process of a repository that is being deleted or renamed. */
  drop(gitDir: string): void {
    this.open.get(gitDir)?.close();
    this.open.delete(gitDir);
  }

  closeAll(): void {
    clearInterval(this.timer);
    for (const cf of this.open.values()) cf.close();
    this.open.clear();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [dir, cf] of this.open) {
      if (!cf.busy && now - cf.lastUsed > this.idleMs) {
        cf.close();
        this.open.delete(dir);
      }
    }
  }
}
