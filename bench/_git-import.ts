import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };

/** One commit of a fast-import stream: files written (full content) on `refs/heads/main`. */
export interface ImportCommit {
  files: Record<string, string>;
  message: string;
}

/**
 * Builds a repository with `git fast-import` (thousands of files or commits in
 * a second) and pushes `main` to `pushUrl`; the temporary repository is removed.
 */
export function importAndPush(pushUrl: string, commits: Iterable<ImportCommit>): void {
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-bench-import-'));
  try {
    const run = (args: string[], input?: Buffer) => {
      const r = spawnSync('git', args, { cwd: dir, env: ENV, input, maxBuffer: 64 * 1024 * 1024 });
      if (r.status !== 0) throw new Error(`git ${args[0]}: ${r.stderr}`);
    };
    run(['init', '-q', '--bare', '.']);
    const parts: Buffer[] = [];
    let when = 1_700_000_000;
    for (const c of commits) {
      const msg = Buffer.from(c.message);
      parts.push(Buffer.from(`commit refs/heads/main\ncommitter Bench <bench@example.com> ${when++} +0000\ndata ${msg.length}\n`), msg, Buffer.from('\n'));
      for (const [path, content] of Object.entries(c.files)) {
        const data = Buffer.from(content);
        parts.push(Buffer.from(`M 100644 inline ${path}\ndata ${data.length}\n`), data, Buffer.from('\n'));
      }
      parts.push(Buffer.from('\n'));
    }
    run(['fast-import', '--quiet'], Buffer.concat(parts));
    run(['push', '-q', pushUrl, 'main']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A request made after the synchronous import kept this process busy: the
 * server may have closed the keep-alive socket meanwhile, so a reset is retried once.
 */
export async function afterIdle<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if ((err as { code?: string }).code !== 'ECONNRESET') throw err;
    return f();
  }
}
