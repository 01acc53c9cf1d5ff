import { fileURLToPath } from 'node:url';

// Where the parts of the package are, wherever it runs from: the repository (TypeScript
// source, run through tsx) or an installed package (compiled JavaScript under dist/).

const fromSource = import.meta.url.endsWith('.ts');

/** The fixtures the server uses unless told otherwise: fixtures/ of the repository, dist/fixtures of the package. */
export const BUNDLED_FIXTURES_DIR = fileURLToPath(new URL('../fixtures', import.meta.url));

/** The arguments after `node` that run the server: dist/server/main.js, or server/main.ts through tsx in the repository. */
export function serverNodeArgs(): string[] {
  if (!fromSource) return [fileURLToPath(new URL('../server/main.js', import.meta.url))];
  return ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('../server/main.ts', import.meta.url))];
}
