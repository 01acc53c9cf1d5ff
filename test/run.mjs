#!/usr/bin/env node
// Runs every test/**/*.test.ts file with uvu (under tsx), one process per file so
// a hung or crashing suite cannot take the others down. Each file has a time
// limit and the whole run has one; the last line is always
// "N passed, N failed, N skipped".
//
// A test that cannot run here prints `SKIP <test> (<why>)` on a line of its own
// (test/_helpers/skip.ts) and returns; uvu counts it as passed, this runner counts
// it as skipped instead.
//
//   npm test                 every file
//   npm test -- channels     only files whose path contains "channels"
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const testDir = join(root, 'test');
const FILE_TIMEOUT_MS = Number(process.env.TEST_FILE_TIMEOUT_MS ?? 10 * 60_000);
const TOTAL_TIMEOUT_MS = Number(process.env.TEST_TOTAL_TIMEOUT_MS ?? 80 * 60_000);
const filters = process.argv.slice(2);

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('_') || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...collect(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

// Filters match the path under test/ (test/ari/… as 'ari/…'), never the checkout's own location.
const files = collect(testDir).filter((f) => !filters.length || filters.some((x) => relative(testDir, f).split(sep).join('/').includes(x)));
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const uvu = join(root, 'node_modules', 'uvu', 'bin.js');
const started = Date.now();
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const skips = [];

// Tests run with an isolated git and a fixed timezone (decisions.md: test environment).
const home = mkdtempSync(join(tmpdir(), 'trunkline-test-home-'));
const env = {
  ...process.env,
  TZ: 'UTC',
  NODE_ENV: 'test',
  HOME: home,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Trunkline Test',
  GIT_AUTHOR_EMAIL: 'test@trunkline.invalid',
  GIT_COMMITTER_NAME: 'Trunkline Test',
  GIT_COMMITTER_EMAIL: 'test@trunkline.invalid',
  FORCE_COLOR: '0',
};

const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The SKIP lines of test/_helpers/skip.ts, one per skipped test. */
const SKIP_LINE = /^SKIP (.+) \(([^()\n]*)\)$/gm;

// A file that needs longer than the per-file limit says so in a line of its own:
//   // test-file-timeout-minutes: 30
function fileTimeout(file) {
  const m = /^\/\/ test-file-timeout-minutes: (\d+)$/m.exec(readFileSync(file, 'utf8'));
  return m ? Math.max(FILE_TIMEOUT_MS, Number(m[1]) * 60_000) : FILE_TIMEOUT_MS;
}

function runFile(file) {
  const rel = relative(testDir, file).split(sep).join('/');
  const budget = Math.min(fileTimeout(file), TOTAL_TIMEOUT_MS - (Date.now() - started));
  return new Promise((resolve) => {
    if (budget <= 0) return resolve({ rel, total: 0, ok: 0, skip: 0, skipLines: [], crashed: 'not run: overall time limit reached' });
    const child = spawn(tsx, [uvu, 'test', `^${escape(rel)}$`, '--no-color'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (chunk) => {
      const text = chunk.toString();
      out += text;
      process.stdout.write(text);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, budget);
    // 'exit', not 'close': a stray grandchild holding the pipes must not stall the run.
    child.on('exit', async (code) => {
      clearTimeout(timer);
      await new Promise((r) => setTimeout(r, 100)); // let the last output arrive
      // Children of the suite (servers it spawned) go with it.
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
      const text = strip(out);
      const num = (label) => {
        const m = new RegExp(`${label}:\\s+(\\d+)`).exec(text);
        return m ? Number(m[1]) : undefined;
      };
      const total = num('Total');
      const passedByUvu = num('Passed');
      // uvu's own count (test.skip) plus the tests that skipped themselves, which uvu saw pass.
      const skipLines = [...text.matchAll(SKIP_LINE)].map((m) => `${m[1]} (${m[2]})`);
      const ok = passedByUvu === undefined ? undefined : Math.max(0, passedByUvu - skipLines.length);
      const skip = (num('Skipped') ?? 0) + (passedByUvu === undefined ? 0 : passedByUvu - ok);
      const base = { rel, total: total ?? 0, ok: ok ?? 0, skip, skipLines };
      if (timedOut) return resolve({ ...base, crashed: `timed out after ${budget} ms` });
      if (total === undefined || ok === undefined) return resolve({ ...base, total: 0, ok: 0, skip: 0, crashed: `exited with code ${code} before reporting` });
      // A file whose tests all passed can still fail: contract violations found outside a test
      // (test/_helpers/violations.ts) set the exit code.
      const why = /CONTRACT VIOLATION/.test(text) ? ' (contract violations, see above)' : '';
      if (code !== 0 && ok === total - skip) return resolve({ ...base, crashed: `exited with code ${code}${why}` });
      resolve(base);
    });
  });
}

// The console is served from its built bundle (scripts/build-console.mjs); tests see what `npm start` serves.
const consoleBuilt = spawnSync(process.execPath, [join(root, 'scripts', 'build-console.mjs')], { cwd: root, stdio: 'inherit' });
if (consoleBuilt.status !== 0) {
  process.stdout.write('the console did not build; see above\n0 passed, 1 failed, 0 skipped\n');
  process.exit(1);
}

process.stdout.write(`Running ${files.length} test file(s)\n`);
for (const file of files) {
  process.stdout.write(`\n=== ${relative(root, file)}\n`);
  const r = await runFile(file);
  passed += r.ok;
  skipped += r.skip;
  for (const line of r.skipLines) skips.push(`${r.rel}: ${line}`);
  const bad = r.total - r.ok - r.skip + (r.crashed ? 1 : 0);
  failed += bad;
  if (bad) failures.push(`${r.rel}: ${r.crashed ?? `${r.total - r.ok - r.skip} failing`}`);
}
rmSync(home, { recursive: true, force: true });

process.stdout.write(`\n${'-'.repeat(60)}\n`);
if (failures.length) process.stdout.write(`Failures:\n${failures.map((f) => `  ${f}`).join('\n')}\n`);
if (skips.length) process.stdout.write(`Skipped:\n${skips.map((s) => `  ${s}`).join('\n')}\n`);
process.stdout.write(`Duration: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed ? 1 : 0);
