// Builds the console (console/, Preact + TSX) into one script and one style sheet that the
// server serves at `/` (server/http/console.ts). It runs before the server starts (`prestart`),
// before the tests (test/run.mjs) and before packing (scripts/build-package.mjs): the server
// never builds anything at run time, and the page fetches nothing from anywhere else.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
/** Where the server looks for the built files (gitignored; copied into dist/ by build-package). */
export const CONSOLE_OUT = join(root, 'server', 'http', 'console-dist');

rmSync(CONSOLE_OUT, { recursive: true, force: true });
try {
  await build({
    absWorkingDir: root,
    entryPoints: { console: join(root, 'console', 'main.tsx') },
    outdir: CONSOLE_OUT,
    bundle: true,
    format: 'iife',
    minify: true,
    sourcemap: false,
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
} catch {
  // esbuild has printed what went wrong.
  process.stderr.write('build-console: the console did not build\n');
  process.exit(1);
}
process.stdout.write(`build-console: ${relative(process.cwd(), CONSOLE_OUT) || '.'} ready\n`);
