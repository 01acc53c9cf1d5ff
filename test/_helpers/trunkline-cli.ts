import { spawn } from 'node:child_process';
import { join } from 'node:path';

// The `trunkline` command from the repository (cli/main.ts through tsx) as a child process,
// for the suites that test a command as a user runs it: its output, and its exit status.

const MAIN = join(import.meta.dirname, '..', '..', 'cli', 'main.ts');
const TSX = import.meta.resolve('tsx');

/** What a finished command printed, and how it ended (the exit code, or the signal's name). */
export interface CliRun {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** The environment without the server keys a test process may carry, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['PORT', 'HOST', 'DATA_DIR', 'FIXTURES_DIR']) delete env[k];
  return { ...env, ...extra };
}

/** Starts `trunkline ...args`; `out` fills as it prints, `done` resolves when it has exited. */
export function startCli(args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const proc = spawn(process.execPath, ['--import', TSX, MAIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  proc.stdout.setEncoding('utf8').on('data', (d: string) => (out.stdout += d));
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (out.stderr += d));
  const done = new Promise<CliRun>((resolve) => proc.once('close', (code, signal) => resolve({ code: code ?? signal ?? -1, ...out })));
  return { proc, out, done };
}
