import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pre-receive program the hook runs (plain JavaScript: node starts it without a compiler). */
export const PRE_RECEIVE_SCRIPT = fileURLToPath(new URL('./hooks/pre-receive.mjs', import.meta.url));

/** Environment the hook reads: where to ask, and the push's secret. */
export const HOOK_URL_ENV = 'TRUNKLINE_HOOK_URL';
/** The environment variable that hands the hook its push's one-time secret. */
export const HOOK_SECRET_ENV = 'TRUNKLINE_HOOK_SECRET';
/** Set when the server checks that the hook can run at all. */
export const HOOK_PROBE_ENV = 'TRUNKLINE_HOOK_PROBE';
const PROBE_ANSWER = 'trunkline-pre-receive-ok';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The hooks directory every push runs with (`-c core.hooksPath=<dir>`):
 * DATA_DIR/hooks, holding only `pre-receive`, a shell stub that execs this
 * node on PRE_RECEIVE_SCRIPT. Repositories' own hooks directories are never
 * consulted, so nothing inside a repository can run code on the server.
 */
export class PushHooks {
  readonly dir: string;
  private readonly file: string;
  private readonly content: string;
  private probe: Promise<string | null> | undefined;

  constructor(dataDir: string) {
    this.dir = resolve(dataDir, 'hooks');
    this.file = join(this.dir, 'pre-receive');
    this.content = `#!/bin/sh\n# Written by Trunkline at start: asks the server whether a push may go ahead.\nexec ${shellQuote(process.execPath)} ${shellQuote(PRE_RECEIVE_SCRIPT)} "$@"\n`;
  }

  /** Writes the hook (atomically) unless it is already there as it should be. */
  install(): void {
    let current: string | undefined;
    try {
      current = readFileSync(this.file, 'utf8');
    } catch {}
    if (current === this.content) {
      chmodSync(this.file, 0o700);
      return;
    }
    mkdirSync(this.dir, { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, this.content, { mode: 0o700 });
    chmodSync(tmp, 0o700);
    renameSync(tmp, this.file);
    this.probe = undefined;
  }

  /**
   * Checks once that the hook really runs (git silently skips a hook it
   * cannot execute, e.g. on a noexec mount, and would then accept every
   * push unchecked). Resolves to null when it works, else the reason.
   */
  ready(): Promise<string | null> {
    this.install();
    this.probe ??= new Promise<string | null>((done) => {
      const child = spawn(this.file, [], { env: { ...process.env, [HOOK_PROBE_ENV]: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
      child.on('error', (err) => done(`cannot run ${this.file}: ${err.message}`));
      child.on('close', (code) => done(code === 0 && out.includes(PROBE_ANSWER) ? null : `${this.file} failed (${code}): ${out.trim().slice(0, 500)}`));
    }).then((problem) => {
      if (problem) this.probe = undefined; // try again next time (the operator may fix the mount)
      return problem;
    });
    return this.probe;
  }
}
