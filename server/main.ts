import { ConfigError, loadConfig, readEnvironment } from './config.js';
import { FixtureError } from './ari/fixtures.js';
import { DataDirLockError } from './db/data-dir-lock.js';
import { ListenError } from './http/early-server.js';
import { createLogger } from './log.js';
import { startServer } from './start.js';

/** Entry point: configuration from the environment (and .env), one line with the URL, graceful stop on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  // Everything the server writes (database and WAL, secret key, recordings, repositories, LFS objects)
  // is its user's alone: no group or world access, whatever umask it was started with.
  process.umask(0o077);
  let config;
  try {
    config = loadConfig(readEnvironment());
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`trunkline: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel, process.stdout, config.logFormat);
  let server;
  try {
    server = await startServer(config, log);
  } catch (err) {
    // Problems the operator can fix get one line; anything else, its stack.
    const known = err instanceof FixtureError || err instanceof ListenError || err instanceof DataDirLockError;
    const msg = known ? (err as Error).message : String((err as Error).stack ?? err);
    process.stderr.write(`trunkline: ${msg}\n`);
    process.exit(1);
  }
  process.stdout.write(`Trunkline listening on ${server.url} (ARI ${server.url}/ari, simulation ${server.url}/sim, Gitea API ${server.url}/api/v1; data in ${config.dataDir})\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
