import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClockClient, type ClockClient } from './clock-client.js';
import { onProcessExit } from './exit-cleanup.js';
import { writeFixtures } from './fixture-dir.js';
import { BUNDLED_FIXTURES_DIR, serverNodeArgs } from './package-paths.js';
import { startServerProcess } from './server-process.js';
import { createSimClient, type SimClient } from './sim-client.js';
import { startPlan, type TrunklineOptions } from './start-options.js';

/** A running Trunkline server of one's own, and clients of it. */
export interface Trunkline {
  /** The server's base URL (http://127.0.0.1:PORT); ari-client connects to this one. */
  url: string;
  /** Where ARI is (url ends in /ari) and the user to call it as. */
  ari: { url: string; username: string; password: string };
  /** The simulation API: the far end of every call. */
  sim: SimClient;
  /** The simulation's clock. */
  clock: ClockClient;
  /** The server's data directory (removed by close()). */
  dataDir: string;
  /** The server's process id. */
  pid: number;
  /** The newest part of the server's output (its log at logLevel, and anything on stderr). */
  output(): string;
  /** Stops the server and removes its temporary directories; calling it again does nothing more. */
  close(): Promise<void>;
}

// Variables the server must not inherit from the test process.
const NOT_INHERITED = ['NODE_TEST_CONTEXT'];

/**
 * Starts a Trunkline server in a child process on 127.0.0.1 (a free port) with a fresh
 * temporary data directory, and resolves once it listens. Rejects, with the end of what the
 * server printed, when an option is wrong or the server cannot start.
 */
export async function startTrunkline(options: TrunklineOptions = {}): Promise<Trunkline> {
  const plan = startPlan(options);
  const root = mkdtempSync(join(tmpdir(), 'trunkline-'));
  const removeRoot = () => rmSync(root, { recursive: true, force: true });
  const dataDir = join(root, 'data');
  let proc;
  try {
    let fixturesDir = BUNDLED_FIXTURES_DIR;
    if (options.fixtures !== undefined) writeFixtures(BUNDLED_FIXTURES_DIR, (fixturesDir = join(root, 'fixtures')), options.fixtures);
    const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, ...plan.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, FIXTURES_DIR: fixturesDir };
    for (const k of NOT_INHERITED) delete env[k];
    // The server's working directory is the temporary one, so no .env of the caller's project is read.
    proc = await startServerProcess({ nodeArgs: serverNodeArgs(), env, cwd: root, timeoutMs: options.startTimeoutMs ?? 60_000 });
  } catch (err) {
    removeRoot();
    throw err;
  }
  const server = proc;
  const forget = onProcessExit(() => {
    server.kill();
    removeRoot();
  });
  const conn = { url: server.url, username: plan.user.username, password: plan.user.password };
  const sim = createSimClient(conn);
  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    ari: { url: `${server.url}/ari`, username: conn.username, password: conn.password },
    sim,
    clock: createClockClient(sim),
    dataDir,
    pid: server.pid,
    output: () => server.output(),
    close: () =>
      (closing ??= (async () => {
        try {
          await server.stop(options.stopGraceMs ?? 5_000);
        } finally {
          forget();
          removeRoot();
        }
      })()),
  };
}
