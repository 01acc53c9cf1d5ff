import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ariHttp, type AriHttp } from './http.js';
import { tempDir } from './temp-dir.js';
import { trackViolations } from './violations.js';

const root = join(import.meta.dirname, '..', '..');

/** A server running as a child process (spawnServer): its process, address, client and log. */
export interface ChildServer {
  proc: ChildProcess;
  url: string;
  port: number;
  http: AriHttp;
  output: () => string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
  /** Contract violations the server logged and no check has taken yet (each is handed out once). */
  takeViolations(): string[];
  /** Throws when the server logged contract violations since the last check. */
  assertNoViolations(): void;
}

/** The contract violations in a child server's log (CHECK_RESPONSES logs each one as an error). */
export function violationsIn(output: string): string[] {
  const out: string[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string };
      if (typeof entry.msg === 'string' && (entry.level ?? 0) >= 50 && /^contract violation in |^event \S+ does not match protocol\//.test(entry.msg)) out.push(entry.msg);
    } catch {
      // a line cut short by a kill
    }
  }
  return out;
}

/** `server/main.ts` in a node process of its own with the tsx loader, on 127.0.0.1 port 0, contract checks on. */
function spawnMain(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'main.ts')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', CHECK_RESPONSES: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Runs `server/main.ts` as a child process (the way `npm start` does: one
 * node process with the tsx loader, so signals reach the server itself) on
 * 127.0.0.1 with PORT=0, and resolves once it prints its URL. Contract checks
 * are on: violations it logs and no test took are reported, failing the test
 * file, when the test process exits.
 */
export function spawnServer(env: Record<string, string>, timeoutMs = 20_000): Promise<ChildServer> {
  const proc = spawnMain(env);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string>((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  let taken = 0;
  const takeViolations = () => {
    const v = violationsIn(out).slice(taken);
    taken += v.length;
    return v;
  };
  trackViolations(`child server ${proc.pid}`, { takeViolations });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const check = () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      proc.stdout!.off('data', check);
      const assertNoViolations = () => {
        const v = takeViolations();
        if (v.length) throw new Error(`contract violations:\n${v.join('\n')}`);
      };
      resolve({ proc, url: m[1]!, port: Number(m[2]), http: ariHttp(m[1]!), output: () => out, exited, takeViolations, assertNoViolations });
    };
    proc.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${out}`));
    });
  });
}

/** How a server started to be refused ended: exit code and output (runServerToExit). */
export interface ServerRun {
  /** Exit code, or the signal's name. */
  code: number | string;
  stdout: string;
  stderr: string;
}

/**
 * Runs `server/main.ts` like spawnServer, for a start that is expected to be
 * refused: resolves when the process exits. One that starts after all is
 * killed (code 'SIGKILL', its output kept), so the caller's assertion fails.
 */
export function runServerToExit(env: Record<string, string>, timeoutMs = 20_000): Promise<ServerRun> {
  const proc = spawnMain(env);
  let stdout = '';
  let stderr = '';
  proc.stdout!.on('data', (d) => {
    stdout += d;
    if (/listening on/.test(stdout)) proc.kill('SIGKILL');
  });
  proc.stderr!.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    proc.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? -1, stdout, stderr });
    }),
  );
}

/** Child servers that share one data directory, so a second start is a restart (restartableServer). */
export interface RestartableServer {
  dataDir: string;
  /** spawnServer with the shared DATA_DIR (and the env given at creation). */
  start(): Promise<ChildServer>;
  /** SIGKILLs the running server and waits for it to end. */
  kill(): Promise<void>;
  /** Kills the running server if it still runs and removes the data directory. */
  cleanup(): Promise<void>;
}

/** A fresh data directory `trunkline-<name>-XXXXXX` for child servers started one after another on it. */
export function restartableServer(name: string, env: Record<string, string> = {}): RestartableServer {
  const dataDir = tempDir(name);
  let last: ChildServer | undefined;
  const running = () => last !== undefined && last.proc.exitCode === null && last.proc.signalCode === null;
  return {
    dataDir,
    async start() {
      last = await spawnServer({ ...env, DATA_DIR: dataDir });
      return last;
    },
    async kill() {
      if (!running()) throw new Error('no server is running');
      last!.proc.kill('SIGKILL');
      await last!.exited;
    },
    async cleanup() {
      if (running()) {
        last!.proc.kill('SIGKILL');
        await last!.exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
