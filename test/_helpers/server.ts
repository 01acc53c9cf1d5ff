import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../server/config.js';
import { createLogger } from '../../server/log.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { ariHttp, type AriHttp } from './http.js';
import { tempDir } from './temp-dir.js';
import { reportViolations, trackViolations } from './violations.js';

/** A server started in the test process (startTestServer), with its client, logs and contract checks. */
export interface TestServer {
  url: string;
  /** `127.0.0.1:<port>`, as a Host header. */
  host: string;
  dataDir: string;
  server: RunningServer;
  /** Every log line the server wrote (JSON). */
  logs: string[];
  /** ARI/sim HTTP client authenticated as asterisk:asterisk. */
  http: AriHttp;
  /** Throws when the server answered or emitted anything off its protocol/ declarations (since the last check). */
  assertNoViolations(): void;
  /** The violations not yet checked (each is handed out once). */
  takeViolations(): string[];
  /**
   * Stops the server; with `keepData` the data directory survives (restart tests).
   * Violations no check took (including any found while stopping) are reported and fail
   * the test file; a server never closed has its violations reported when the process exits.
   */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

/** A log destination that adds each line the server writes to `lines`. */
export function logLines(lines: string[]): Writable {
  return new Writable({
    write(chunk, _enc, cb) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      cb();
    },
  });
}

/** Default simulated-time speed-up in tests: fixture delays of 1 s take 50 ms. */
export const TEST_SCALE = 20;

/** Starts a real server on 127.0.0.1, port 0, with a fresh data directory (or `dataDir`) and test-mode contract checks. */
export async function startTestServer(env: Record<string, string> = {}, dataDir?: string): Promise<TestServer> {
  const dir = dataDir ?? tempDir('data');
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dir,
    FIXTURES_DIR: join(import.meta.dirname, '..', '..', 'fixtures'),
    SIM_TIME_SCALE: String(TEST_SCALE),
    LOG_LEVEL: 'info',
    CHECK_RESPONSES: 'true',
    ARI_USERS: 'asterisk:asterisk,viewer:secret-viewer:ro',
    // A known admin (see _helpers/gitea.ts), so no one-time password is printed.
    ADMIN_USERNAME: 'root',
    ADMIN_PASSWORD: 'root-password-1',
    // Every suite sends its wrong passwords from 127.0.0.1: the failed-password limit is kept on, but
    // out of their way (test/gitea/login-throttle.test.ts sets its own).
    LOGIN_THROTTLE: '100000/15m',
    ...env,
  });
  const logs: string[] = [];
  const server = await startServer(config, createLogger(config.logLevel, logLines(logs), config.logFormat));
  // The server runs in the test's own process, so a test blocked in spawnSync (git checks) blocks
  // it too: an idle keep-alive connection would then expire on the server while the test, let go,
  // sends its next request on it (ECONNRESET, on a busy machine). Idle connections are the
  // client's to close here (fetch closes them after a few seconds).
  server.httpServer.keepAliveTimeout = 10 * 60_000;
  const host = `127.0.0.1:${server.port}`;
  let reported = 0;
  const takeViolations = () => {
    const v = server.violations.slice(reported);
    reported += v.length;
    return v;
  };
  // Every server is held to the contract checks, whether or not its test remembers to ask.
  const tracked = trackViolations(`test server ${server.url}`, { takeViolations });
  return {
    url: server.url,
    host,
    dataDir: dir,
    server,
    logs,
    http: ariHttp(server.url),
    takeViolations,
    assertNoViolations() {
      const v = takeViolations();
      if (v.length) throw new Error(`contract violations:\n${v.join('\n')}`);
    },
    async close(opts = {}) {
      await server.close();
      tracked.release();
      reportViolations(`test server ${server.url} (unchecked until close)`, takeViolations());
      if (!opts.keepData && !dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
