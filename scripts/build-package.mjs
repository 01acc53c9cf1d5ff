// Builds what the npm package ships (npm pack runs it as prepack): dist/ holds the
// compiled JavaScript of protocol/, server/, client/ and cli/, the type declarations
// of what a user imports (client/ and the protocol/ types it names), every other file those folders read at run time (SQL migrations, the
// pre-receive hook, the console's bundle), and the bundled fixtures, so an installed package runs on
// plain node with no compiler and no loader.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const SOURCE_DIRS = ['protocol', 'server', 'client', 'cli'];

rmSync(dist, { recursive: true, force: true });

// The console's bundle lands in server/http/console-dist/, which the copy of run-time files below takes along.
const consoleBuilt = spawnSync(process.execPath, [join(root, 'scripts', 'build-console.mjs')], { cwd: root, stdio: 'inherit' });
if (consoleBuilt.status !== 0) {
  process.stderr.write(`build-package: the console did not build (${consoleBuilt.status ?? consoleBuilt.signal})\n`);
  process.exit(1);
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
for (const config of ['tsconfig.build.json', 'tsconfig.types.json']) {
  const built = spawnSync(process.execPath, [tsc, '-p', join(root, config)], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) {
    process.stderr.write(`build-package: tsc -p ${config} failed (${built.status ?? built.signal})\n`);
    process.exit(1);
  }
}

/** Files that are not TypeScript, which tsc leaves behind. */
function assets(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...assets(p));
    else if (!name.endsWith('.ts')) out.push(p);
  }
  return out;
}

for (const dir of SOURCE_DIRS) {
  for (const file of assets(join(root, dir))) cpSync(file, join(dist, relative(root, file)));
}
cpSync(join(root, 'fixtures'), join(dist, 'fixtures'), { recursive: true, filter: (src) => !src.endsWith('.ts') });
chmodSync(join(dist, 'cli', 'main.js'), 0o755);
process.stdout.write(`build-package: ${relative(process.cwd(), dist) || '.'} ready\n`);
