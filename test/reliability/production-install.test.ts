import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyTrackedFiles, npmEnv, NETWORK, runCommand as run } from '../_helpers/npm.js';
import { requireTool, skipBecause } from '../_helpers/skip.js';

// test-file-timeout-minutes: 30
// A production install: the tracked files only, `npm ci --omit=dev` (better-sqlite3 compiles
// from source, which takes minutes on a busy machine), then `npm start`. It proves that
// nothing the server loads at run time (main.ts and all it reaches, the pre-receive hook) is
// a devDependency, and that SIGTERM sent to npm reaches the server, which exits 0.
const test = suite('reliability: production install');

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
let work = '';
let server: ReturnType<typeof spawn> | undefined;

test.after(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    // npm start runs detached in its own group: take the server with it.
    try {
      process.kill(-server.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const NAME = 'production install';

test('npm ci --omit=dev, npm start: ARI and the repository API answer, a push runs the hook, SIGTERM exits 0', async () => {
  if (!requireTool(NAME, 'npm', 'npm') || !requireTool(NAME, 'git', 'git')) return;

  // The tracked files (as they are on disk), nothing else: no node_modules, no data, no .env.
  work = mkdtempSync(join(tmpdir(), 'trunkline-prod-'));
  const app = join(work, 'app');
  const files = copyTrackedFiles(root, app);
  if (!files) return skipBecause(NAME, 'not a git checkout: git ls-files failed');
  assert.ok(files.includes('package-lock.json') && files.includes('server/main.ts'), 'the lock file and the server are tracked');

  const env = npmEnv();
  const ci = await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], app, env);
  if (ci.code !== 0 && NETWORK.test(ci.output)) return skipBecause(NAME, `npm ci could not reach the registry: ${NETWORK.exec(ci.output)![0]}`);
  assert.is(ci.code, 0, `npm ci failed:\n${ci.output.slice(-4000)}`);
  for (const dep of Object.keys(pkg.dependencies)) assert.ok(existsSync(join(app, 'node_modules', dep, 'package.json')), `${dep} installed`);
  // Dev-only packages are absent, so the server cannot be loading one. (typescript is still
  // installed: npm keeps it as valibot's optional peer, "devOptional" in the lock file.)
  const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const devOnly = Object.keys(pkg.devDependencies).filter((d) => lock.packages[`node_modules/${d}`]?.dev);
  assert.ok(devOnly.includes('uvu') && devOnly.includes('ari-client'), devOnly.join(', '));
  for (const dev of devOnly) assert.not.ok(existsSync(join(app, 'node_modules', dev)), `${dev} (dev) not installed`);

  const dataDir = join(work, 'data');
  server = spawn('npm', ['start'], {
    cwd: app,
    env: { ...env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn', ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password-1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  server.stdout!.on('data', (d) => (out += d));
  server.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string>((resolve) => server!.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    };
    server!.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`npm start exited (${code}) before listening:\n${out}`)));
  });

  const ping = await fetch(`${url}/ari/asterisk/ping`, { headers: { authorization: basic('asterisk', 'asterisk') } });
  assert.is(ping.status, 200);
  assert.is(((await ping.json()) as { ping: string }).ping, 'pong');
  const version = await fetch(`${url}/api/v1/version`);
  assert.is(version.status, 200);
  assert.match(((await version.json()) as { version: string }).version, /\+trunkline$/);

  // A push runs DATA_DIR/hooks/pre-receive, i.e. server/gitea/git/hooks/pre-receive.mjs of this install.
  const made = await fetch(`${url}/api/v1/user/repos`, {
    method: 'POST',
    headers: { authorization: basic('root', 'root-password-1'), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'prod', auto_init: true }),
  });
  assert.is(made.status, 201, await made.clone().text());
  const clone = join(work, 'clone');
  const remote = `${url.replace('http://', 'http://root:root-password-1@')}/root/prod.git`;
  const gitEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0' } as Record<string, string>;
  assert.is((await run('git', ['clone', '-q', remote, clone], work, gitEnv)).code, 0);
  mkdirSync(join(clone, 'docs'));
  copyFileSync(join(app, 'package.json'), join(clone, 'docs', 'package.json'));
  assert.is((await run('git', ['add', '.'], clone, gitEnv)).code, 0);
  assert.is((await run('git', ['commit', '-q', '-m', 'from a production install'], clone, gitEnv)).code, 0);
  const push = await run('git', ['push', '-q', 'origin', 'HEAD'], clone, gitEnv);
  assert.is(push.code, 0, push.output);
  const pushed = await fetch(`${url}/api/v1/repos/root/prod/contents/docs/package.json`, { headers: { authorization: basic('root', 'root-password-1') } });
  assert.is(pushed.status, 200);

  // SIGTERM to npm (as a process manager would send it) reaches the server: graceful stop, exit 0.
  server.kill('SIGTERM');
  assert.is(await exited, 0, out);
});

test.run();
