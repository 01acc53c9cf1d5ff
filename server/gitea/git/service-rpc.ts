import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { gitEnv } from './run.js';

/** The two smart-HTTP services. */
export type GitService = 'upload-pack' | 'receive-pack';

/** How to run upload-pack or receive-pack for smart HTTP. */
export interface ServiceRunOptions {
  /** `--advertise-refs`: the ref advertisement of `GET info/refs`, not an RPC exchange. */
  advertise?: boolean;
  /** `-c key=value` settings for this run only. */
  config?: Record<string, string>;
  /** Extra environment (GIT_PROTOCOL, the hook's callback address). */
  env?: Record<string, string>;
  /** The request body (already decompressed); git's stdin. */
  input?: Readable;
}

/** How a git service process ended. */
export interface ServiceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last few KiB git wrote to stderr (for the log). */
  stderr: string;
}

/** A running `git <service> --stateless-rpc`. */
export interface ServiceProcess {
  /** What git answers: the response body. */
  stdout: Readable;
  /** Settles once git has exited and its pipes are closed. */
  exited: Promise<ServiceExit>;
  /** Stops git and everything it started (pack-objects, index-pack, hooks); a no-op once it has exited. */
  kill(): void;
}

const STDERR_KEEP = 8 * 1024;
const KILL_GRACE_MS = 3000;

/**
 * Starts `git <service> --stateless-rpc [--advertise-refs] <gitDir>`.
 *
 * git runs as the leader of its own process group, so stopping it also stops
 * its helpers: a client that goes away mid-transfer leaves nothing behind.
 * SIGTERM first (git removes its quarantine directory and lock files on that
 * signal), SIGKILL if it has not gone a few seconds later.
 */
export function runService(service: GitService, gitDir: string, opts: ServiceRunOptions = {}): ServiceProcess {
  const args: string[] = [];
  for (const [k, val] of Object.entries(opts.config ?? {})) args.push('-c', `${k}=${val}`);
  args.push(service, '--stateless-rpc');
  if (opts.advertise) args.push('--advertise-refs');
  args.push(gitDir);
  const child = spawn('git', args, { env: gitEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'], detached: true });

  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-STDERR_KEEP);
  });
  let done = false;
  const exited = new Promise<ServiceExit>((resolve) => {
    child.on('error', (err) => {
      done = true;
      resolve({ code: null, signal: null, stderr: `${stderr}${String(err)}` });
    });
    child.on('close', (code, signal) => {
      done = true;
      resolve({ code, signal, stderr });
    });
  });

  const signalGroup = (sig: NodeJS.Signals) => {
    if (done || child.pid === undefined) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // the group is already gone
    }
  };
  let killing = false;
  const kill = () => {
    if (done || killing) return;
    killing = true;
    child.stdin.destroy();
    signalGroup('SIGTERM');
    const t = setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS);
    t.unref();
    void exited.then(() => clearTimeout(t));
  };

  child.stdin.on('error', () => {}); // git may stop reading early; its exit status tells why
  if (opts.input) {
    const input = opts.input;
    input.on('error', () => kill()); // a broken upload (bad gzip, size limit, reset) must not look like a complete one
    input.pipe(child.stdin);
  } else child.stdin.end();

  return { stdout: child.stdout, exited, kill };
}
