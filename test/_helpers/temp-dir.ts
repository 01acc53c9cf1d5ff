import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'uvu';

/** A fresh directory `trunkline-<name>-XXXXXX` under the system's temporary directory; the caller removes it. */
export function tempDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `trunkline-${name}-`));
}

/** For suites that make many: returns a maker of fresh directories, all removed by an after hook on `test`. */
export function tempDirs(test: Test, name: string): () => string {
  const made: string[] = [];
  test.after(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = tempDir(name);
    made.push(d);
    return d;
  };
}
