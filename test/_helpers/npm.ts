import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';

/** Errors that say npm could not reach the registry (the test then skips rather than fails). */
export const NETWORK = /E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH|HOSTUNREACH)|getaddrinfo|network/i;

/**
 * npm's environment: none of the npm_* variables `npm test` passed down (one of them
 * names this checkout as the prefix), but the user's npm configuration and cache, which
 * the test runner's temporary HOME would hide (the cache is warm; the configuration may
 * say where Node's headers are, so nothing is downloaded to compile better-sqlite3).
 */
export function npmEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, val] of Object.entries(process.env)) if (val !== undefined && !/^npm_/i.test(k)) env[k] = val;
  const home = userInfo().homedir;
  env.npm_config_cache = process.env.npm_config_cache ?? join(home, '.npm');
  const userconfig = process.env.npm_config_userconfig ?? join(home, '.npmrc');
  if (existsSync(userconfig)) env.npm_config_userconfig = userconfig;
  return env;
}

/** Runs a command to its end; resolves with its exit code (or signal) and its stdout and stderr together. */
export function runCommand(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | string; output: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    p.stdout.on('data', (d) => (output += d));
    p.stderr.on('data', (d) => (output += d));
    p.once('error', (err) => resolve({ code: -1, output: `${output}${err.message}` }));
    p.once('close', (code, signal) => resolve({ code: code ?? signal ?? -1, output }));
  });
}

/**
 * Copies the files git tracks in `root` (as they are on disk) to `to`: no node_modules, no
 * data, no .env, nothing untracked. Returns the list, or undefined when `root` is not a git checkout.
 */
export function copyTrackedFiles(root: string, to: string): string[] | undefined {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) return undefined;
  const files = listed.stdout.split('\0').filter(Boolean);
  for (const f of files) {
    const from = join(root, f);
    if (!existsSync(from) || !lstatSync(from).isFile()) continue; // deleted in this checkout, or a link
    mkdirSync(dirname(join(to, f)), { recursive: true });
    copyFileSync(from, join(to, f));
  }
  return files;
}
