import { spawn } from 'node:child_process';
import { ChildOutput } from './child-output.js';
import { gitEnv } from './run.js';

/**
 * A blob streamed by its own `git cat-file blob` (for objects too large to
 * hold in memory; small ones go through the shared batch reader).
 */
export function blobStream(gitDir: string, sha: string): ChildOutput {
  const args = ['cat-file', 'blob', sha];
  const child = spawn('git', ['--git-dir', gitDir, ...args], { env: gitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  return new ChildOutput(child, args);
}
