import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../server/config.js';
import { createLogger } from '../../server/log.js';
import { startServer } from '../../server/start.js';
import type { ScenarioHost } from './scenario-host.js';

/** A server started for one scenario file; `close` stops it and removes its data directory. */
export interface ScenarioServer extends ScenarioHost {
  close(): Promise<void>;
}

/**
 * Starts a server in this process for one scenario file: 127.0.0.1, port 0, a fresh temporary
 * DATA_DIR, the bundled fixtures, the clock the file asks for, one ARI user with a random
 * password. (Meant to become the package's startTrunkline, which runs it as a child.)
 */
export async function startScenarioServer(clock: 'virtual' | 'real'): Promise<ScenarioServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-scenario-'));
  const password = randomBytes(12).toString('hex');
  try {
    const config = loadConfig({
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      FIXTURES_DIR: join(import.meta.dirname, '..', '..', 'fixtures'),
      SIM_CLOCK: clock,
      ARI_USERS: `scenario:${password}`,
      ADMIN_USERNAME: 'scenario-admin',
      ADMIN_PASSWORD: randomBytes(12).toString('hex'),
      LOG_LEVEL: 'error',
    });
    // The server's own log lines would interleave with the report: they are dropped.
    const quiet = new Writable({ write: (_c, _e, cb) => cb() });
    const server = await startServer(config, createLogger(config.logLevel, quiet, config.logFormat));
    return {
      url: server.url,
      ari: { url: server.url, username: 'scenario', password },
      async close() {
        await server.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
