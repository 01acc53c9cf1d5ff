import { spawnSync } from 'node:child_process';

// A test that cannot run here (a Debian tool is missing) says so with one line the runner
// (test/run.mjs) counts: `SKIP <test> (<why>)`, alone on its line. uvu would count the test as
// passed; the runner moves it from "passed" to "skipped". A test skips whole or not at all:
// call these before the first assertion and return when they say so.

const skipped = new Set<string>();

/** Whether `cmd` runs (exits 0 with `args`). */
export function have(cmd: string, args = ['--version']): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

/** Prints the runner's SKIP line for `test` (once per test): `SKIP <test> (<why>)`. */
export function skipBecause(test: string, why: string): void {
  if (skipped.has(test)) return;
  skipped.add(test);
  // uvu writes its progress dots without a newline: start a line of our own.
  process.stdout.write(`\nSKIP ${test.replace(/\s+/g, ' ')} (${why.replace(/[()\n]/g, ' ')})\n`);
}

/** Prints `SKIP <test> (install <pkg>)`: the test needs a Debian package that is not installed. */
export function skip(test: string, pkg: string): void {
  skipBecause(test, `install ${pkg}`);
}

/**
 * True when `cmd` runs; otherwise prints `SKIP <test> (install <pkg>)` and returns false
 * (the test then returns at once): `if (!requireTool(NAME, 'unzip', 'unzip', ['-v'])) return;`
 */
export function requireTool(test: string, cmd: string, pkg: string, args = ['--version']): boolean {
  if (have(cmd, args)) return true;
  skip(test, pkg);
  return false;
}
