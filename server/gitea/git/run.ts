import { spawn, type SpawnOptions } from 'node:child_process';

/**
 * The environment every git process of ours runs in. Inherited GIT_* variables
 * are dropped (a server started from inside a hook must not act on that hook's
 * repository), user and system configuration are ignored (a developer's
 * signing or hooks settings must not leak into served repositories), and
 * git never prompts.
 */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, val] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = val;
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    LC_ALL: 'C',
    ...extra,
  };
}

/** A git command that failed: its exit code and what it wrote to stderr. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ''} failed (${code ?? 'signal'}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
    this.name = 'GitError';
  }
}

/** How to run one git command. */
export interface RunOptions {
  /** The repository (`--git-dir`); omitted for commands that take a path themselves. */
  gitDir?: string;
  input?: string | Buffer;
  env?: Record<string, string>;
  /** Output above this many bytes kills git and fails (default 64 MiB). */
  maxBuffer?: number;
  /** Exit codes that are answers, not failures (e.g. 1 for "not found"). */
  okCodes?: readonly number[];
  /**
   * Aborting kills git and every process it started (it runs in a process
   * group of its own: a remote helper, ssh); the promise then rejects with a
   * GitError whose code is null.
   */
  signal?: AbortSignal;
}

/** What a finished git command produced. */
export interface RunResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/** Runs git to completion and collects its output; a non-zero exit (outside okCodes) rejects with GitError. */
export function runGit(args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const full = opts.gitDir ? ['--git-dir', opts.gitDir, ...args] : [...args];
  const max = opts.maxBuffer ?? 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const signal = opts.signal;
    if (signal?.aborted) return reject(new GitError(args, null, 'aborted before it started'));
    const child = spawn('git', full, { env: gitEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'], detached: !!signal } satisfies SpawnOptions);
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    signal?.addEventListener('abort', killGroup, { once: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let overflow = false;
    child.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size > max) {
        overflow = true;
        child.kill('SIGKILL');
      } else out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 64) err.push(d);
    });
    child.on('error', (err) => {
      signal?.removeEventListener('abort', killGroup);
      reject(err);
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', killGroup);
      // Whatever git left running in its group (a helper stuck on the network) goes with it.
      if (signal && code !== 0) killGroup();
      const stderr = Buffer.concat(err).toString('utf8');
      if (overflow) return reject(new GitError(args, code, `output exceeds ${max} bytes`));
      if (code === 0 || (code !== null && opts.okCodes?.includes(code))) resolve({ stdout: Buffer.concat(out), stderr, code: code ?? 0 });
      else reject(new GitError(args, code, stderr));
    });
    child.stdin.on('error', () => {}); // git may exit before reading all input; its exit code tells the story
    child.stdin.end(opts.input ?? '');
  });
}
