import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyTrackedFiles, npmEnv, NETWORK, runCommand } from '../_helpers/npm.js';
import { requireTool, skipBecause } from '../_helpers/skip.js';
import { tempDir } from '../_helpers/temp-dir.js';

// test-file-timeout-minutes: 30
// The package as a user gets it: `npm pack` of the tracked files (prepack compiles to dist/),
// installed in a fresh project outside the repository (one npm install; better-sqlite3
// compiles there), where the README's example test runs under node --test with tsx taken
// away, as do the example IVR's tests (examples/ivr, on ari-client) and the same kind of test
// under vitest and under jest as ESM (examples/runners), a TypeScript file type-checks against
// the shipped declarations, and the bin answers.
const test = suite('package: pack and install');
const root = join(import.meta.dirname, '..', '..');
const EXAMPLE = join(root, 'examples', 'first-test', 'first.test.mjs');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const NAME = 'pack and install';
let work = '';

test.after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the README shows the example test the install runs, word for word', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  assert.ok(readme.includes(`\`\`\`js\n${readFileSync(EXAMPLE, 'utf8')}\`\`\`\n`), 'README.md holds examples/first-test/first.test.mjs in a js block');
});

// A user's TypeScript: the declarations resolve through the package's exports, and wrong arguments are errors.
const TYPED = `import { startTrunkline, TrunklineError, type Trunkline } from 'trunkline';
const pbx: Trunkline = await startTrunkline({ clock: 'virtual' });
const call = await pbx.sim.call({ endpoint: 'PJSIP/alice', extension: '1000', app: 'x' });
const items: { kind: string; duration_ms?: number }[] = await call.heard();
const channel = await pbx.sim.placeCall({ endpoint: 'PJSIP/bob' });
const state: string = channel.state;
// @ts-expect-error endpoint is required
await pbx.sim.placeCall({ extension: '1000' });
// @ts-expect-error ms is a number
await pbx.sim.advanceClock({ ms: '10' });
const now: string = await pbx.clock.advance(10);
console.log(items, state, now, TrunklineError.name);
await pbx.close();
`;

/** What console-check.mjs saw of the console: the page, and the script and style sheet it names. */
interface ConsoleSeen {
  page: { status: number; type: string; title: string };
  script: { url: string; status: number; type: string; sha256: string };
  style: { url: string; status: number; type: string; sha256: string };
}

// Run in the installed project: starts the installed server, asks for / as a browser does, then
// for the script and style sheet the page names; prints what it saw as one line of JSON.
const CONSOLE_CHECK = `import { createHash } from 'node:crypto';
import { startTrunkline } from 'trunkline';
const pbx = await startTrunkline();
try {
  const page = await fetch(pbx.url + '/', { headers: { accept: 'text/html' } });
  const html = await page.text();
  const fetchOne = async (path) => {
    const url = new URL(path, pbx.url + '/').href;
    const r = await fetch(url);
    const body = Buffer.from(await r.arrayBuffer());
    return { url, status: r.status, type: r.headers.get('content-type') ?? '', sha256: createHash('sha256').update(body).digest('hex') };
  };
  const script = /<script src="([^"]+)"/.exec(html)?.[1] ?? 'missing';
  const style = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1] ?? 'missing';
  const title = /<title>([^<]*)<\\/title>/.exec(html)?.[1] ?? '';
  console.log(JSON.stringify({ page: { status: page.status, type: page.headers.get('content-type') ?? '', title }, script: await fetchOne(script), style: await fetchOne(style) }));
} finally {
  await pbx.close();
}
`;

test('npm pack, npm install in a fresh project: the example test passes, types check, the console is served, npx trunkline --help', async () => {
  if (!requireTool(NAME, 'npm', 'npm') || !requireTool(NAME, 'git', 'git') || !requireTool(NAME, 'tar', 'tar')) return;
  work = tempDir('pack');
  const src = join(work, 'src');
  if (!copyTrackedFiles(root, src)) return skipBecause(NAME, 'not a git checkout: git ls-files failed');
  symlinkSync(realpathSync(join(root, 'node_modules')), join(src, 'node_modules')); // typescript, for prepack
  const env = npmEnv();

  const packed = await runCommand('npm', ['pack', '--pack-destination', work], src, env);
  assert.is(packed.code, 0, `npm pack failed:\n${packed.output.slice(-4000)}`);
  const tarball = join(work, `trunkline-${version}.tgz`);
  assert.ok(existsSync(tarball), packed.output.slice(-2000));
  const listing = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  for (const f of ['dist/cli/main.js', 'dist/client/index.js', 'dist/client/index.d.ts', 'dist/server/main.js', 'dist/server/db/migrations/001-channels.sql', 'dist/server/gitea/git/hooks/pre-receive.mjs', 'dist/fixtures/ari/dialplan.json', 'dist/fixtures/ari/sounds/en/hello-world.wav', 'dist/server/http/console-dist/console.js', 'dist/server/http/console-dist/console.css', 'package.json', 'README.md']) {
    assert.ok(listing.includes(`package/${f}`), `${f} is in the tarball`);
  }
  assert.equal(listing.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts')), [], 'no TypeScript source');
  assert.equal(listing.filter((f) => !f.startsWith('package/dist/') && !['package/package.json', 'package/README.md'].includes(f)), [], 'nothing but dist/');

  const project = join(work, 'project');
  mkdirSync(join(project, 'test'), { recursive: true });
  assert.is((await runCommand('npm', ['init', '-y'], project, env)).code, 0);
  // ari-client is for the example IVR (examples/ivr), vitest and jest for examples/runners: one install for all.
  const installed = await runCommand('npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', tarball, 'ws', 'ari-client', 'vitest', 'jest'], project, env);
  if (installed.code !== 0 && NETWORK.test(installed.output)) return skipBecause(NAME, `npm install could not reach the registry: ${NETWORK.exec(installed.output)![0]}`);
  assert.is(installed.code, 0, `npm install failed:\n${installed.output.slice(-4000)}`);
  // Nothing at run time needs tsx: take it away before the example runs.
  rmSync(join(project, 'node_modules', 'tsx'), { recursive: true, force: true });

  copyFileSync(EXAMPLE, join(project, 'test', 'first.test.mjs'));
  const ran = await runCommand(process.execPath, ['--test', join('test', 'first.test.mjs')], project, env);
  assert.is(ran.code, 0, ran.output);
  assert.match(ran.output, /^# pass 1$/m);
  assert.match(ran.output, /^# fail 0$/m);

  // The example IVR, copied as a user would take it, runs its node:test suite against the installed package.
  const ivr = join(project, 'ivr');
  cpSync(join(root, 'examples', 'ivr'), ivr, { recursive: true, filter: (f) => basename(f) !== 'node_modules' });
  const ivrRan = await runCommand(process.execPath, ['--test', 'test/'], ivr, env);
  assert.is(ivrRan.code, 0, ivrRan.output);
  assert.match(ivrRan.output, /^# pass 12$/m);
  assert.match(ivrRan.output, /^# fail 0$/m);

  // Other runners: nothing in the package is global, so a server per file works under each.
  cpSync(join(root, 'examples', 'runners'), join(project, 'runners'), { recursive: true });
  // Both write the same JSON summary (Jest's format, which vitest's json reporter follows).
  const summary = (file: string) => {
    const r = JSON.parse(readFileSync(join(project, file), 'utf8')) as { numTotalTests: number; numPassedTests: number; numFailedTests: number };
    return [r.numTotalTests, r.numPassedTests, r.numFailedTests];
  };
  const vitest = await runCommand('npx', ['--no-install', 'vitest', 'run', '--dir', join('runners', 'vitest'), '--reporter=json', '--outputFile=vitest.json'], project, env);
  assert.is(vitest.code, 0, vitest.output);
  assert.equal(summary('vitest.json'), [1, 1, 0], 'vitest: 1 test, passed');
  const jestEnv = { ...env, NODE_OPTIONS: '--experimental-vm-modules' };
  const jest = await runCommand('npx', ['--no-install', 'jest', '--roots', join('runners', 'jest'), '--json', '--outputFile=jest.json'], project, jestEnv);
  assert.is(jest.code, 0, jest.output);
  assert.equal(summary('jest.json'), [1, 1, 0], 'jest: 1 test, passed');

  writeFileSync(join(project, 'typed.mts'), TYPED);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', '--typeRoots', join(root, 'node_modules', '@types'), '--types', 'node', 'typed.mts'];
  const checked = await runCommand(process.execPath, [tsc, ...flags], project, env);
  assert.is(checked.code, 0, checked.output);

  // The console: the installed server answers a browser's GET / with the page, and serves the
  // script and style sheet it names, byte for byte the files the package installed.
  writeFileSync(join(project, 'console-check.mjs'), CONSOLE_CHECK);
  const consoleRan = await runCommand(process.execPath, ['console-check.mjs'], project, env);
  assert.is(consoleRan.code, 0, consoleRan.output);
  const seen = JSON.parse(consoleRan.output.trim().split('\n').at(-1)!) as ConsoleSeen;
  assert.is(seen.page.status, 200);
  assert.match(seen.page.type, /^text\/html/);
  assert.match(seen.page.title, /Trunkline console/);
  const shipped = join(project, 'node_modules', 'trunkline', 'dist', 'server', 'http', 'console-dist');
  for (const [name, got] of [['console.js', seen.script], ['console.css', seen.style]] as const) {
    assert.is(got.status, 200, `${name}: ${got.url}`);
    assert.ok(got.url.endsWith(`/${name}`), got.url);
    assert.is(got.sha256, createHash('sha256').update(readFileSync(join(shipped, name))).digest('hex'), `${name} is the installed file`);
  }
  assert.match(seen.script.type, /javascript/);
  assert.match(seen.style.type, /^text\/css/);

  const help = await runCommand('npx', ['--no-install', 'trunkline', '--help'], project, env);
  assert.is(help.code, 0, help.output);
  assert.match(help.output, /Usage: trunkline <command> \[options\]/);
});

test.run();
