import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ariHttp, type AriHttp } from './http.js';

const root = join(import.meta.dirname, '..', '..');

export interface ChildServer {
  proc: ChildProcess;
  url: string;
  port: number;
  http: AriHttp;
  output: () => string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
}

/**
 * Runs `server/main.ts` as a child process (the way `npm start` does: one
 * node process with the tsx loader, so signals reach the server itself) on
 * 127.0.0.1 with PORT=0, and resolves once it prints its URL.
 */
export function spawnServer(env: Record<string, string>, timeoutMs = 20_000): Promise<ChildServer> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'main.ts')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', CHECK_RESPONSES: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string>((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
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
      resolve({ proc, url: m[1]!, port: Number(m[2]), http: ariHttp(m[1]!), output: () => out, exited });
    };
    proc.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${out}`));
    });
  });
}

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
  const proc = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'main.ts')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', CHECK_RESPONSES: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
