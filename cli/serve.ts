import { readEnvironment } from '../server/config.js';
import { BUNDLED_FIXTURES_DIR } from '../client/package-paths.js';

/** `trunkline serve --help`. */
export const help = `Usage: trunkline serve

Runs the Trunkline server in the foreground, as \`npm start\` does in the repository:
ARI under /ari, the simulation API under /sim and the Gitea API under /api/v1. It
prints one line with its address once it listens, logs JSON lines on stdout, and
stops gracefully on SIGTERM or SIGINT.

It is configured by the environment (and a .env file in the working directory);
README, "Configuration", lists every key. The ones most often set:

  PORT          port to listen on (default 8088; 0 picks a free one)
  HOST          address to listen on (default 127.0.0.1)
  DATA_DIR      where the database and recordings live (default ./data)
  FIXTURES_DIR  endpoints, dialplan and sounds (default: the bundled fixtures)
  ARI_USERS     name:password[:ro], comma separated (default asterisk:asterisk)
  SIM_CLOCK     real (default) or virtual (time moves only when advanced)
  SIM_TIME_SCALE  how much faster than the wall clock simulated time runs
  LOG_LEVEL     fatal, error, warn, info (default), debug, trace or silent
`;

/** Starts the server; it runs until a signal stops it, and exits by itself. */
export async function run(args: string[]): Promise<number | undefined> {
  if (args.length) {
    process.stderr.write(`trunkline serve: unexpected argument '${args[0]}'\n\n${help}`);
    return 2;
  }
  // Installed as a package, ./fixtures of the working directory is not there: use the bundled ones.
  if (readEnvironment().FIXTURES_DIR === undefined) process.env.FIXTURES_DIR = BUNDLED_FIXTURES_DIR;
  await import('../server/main.js');
  return undefined;
}
