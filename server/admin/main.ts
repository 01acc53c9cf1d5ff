import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig, readEnvironment } from '../config.js';
import { Failure, parseArgs, refusePasswordOnArgv, UsageError } from './args.js';
import type { AdminCommand, AdminIo } from './command.js';
import { createToken } from './create-token.js';
import { createUser } from './create-user.js';
import { listUsers } from './list-users.js';
import { resetPassword } from './reset-password.js';
import { openSession } from './session.js';

const COMMANDS: readonly AdminCommand[] = [listUsers, createUser, resetPassword, createToken];

const USAGE = `Usage: npm run admin -- <command> [flags]

Manages the accounts of the repository API in DATA_DIR's database (settings
from the environment and .env, as the server reads them), whether the server
runs or not.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(16)}${c.summary} (Gitea: ${c.alias})`).join('\n')}

Run a command with --help for its flags. Exit codes: 0 done, 1 failed, 2 usage.`;

/** Runs one admin command line; resolves with the exit code. Messages go to `io` and stderr, one line each. */
export async function runAdmin(argv: readonly string[], io: AdminIo, env: Record<string, string | undefined>, err: (line: string) => void): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? err : io.out)(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name || c.alias === name);
  if (!command) {
    err(`trunkline admin: unknown command "${name}" (see npm run admin -- --help)`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.help);
    return 0;
  }
  let session;
  try {
    refusePasswordOnArgv(rest);
    const args = parseArgs(rest, command.flags);
    command.check?.(args);
    session = openSession(loadConfig(env));
    await command.run(args, session, io);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      err(`trunkline admin ${command.name}: ${e.message} (see --help)`);
      return 2;
    }
    if (e instanceof Failure || e instanceof ConfigError) {
      err(`trunkline admin ${command.name}: ${e.message}`);
      return 1;
    }
    err(`trunkline admin ${command.name}: ${String((e as Error).stack ?? e)}`);
    return 1;
  } finally {
    session?.close();
  }
}

// Run as a program (npm run admin), not when imported by a test.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // As the server: what this process creates in DATA_DIR (WAL files, on a stopped server) is its user's alone.
  process.umask(0o077);
  const io: AdminIo = { out: (l) => process.stdout.write(`${l}\n`), prompt: (t) => process.stderr.write(t), stdin: process.stdin };
  const code = await runAdmin(process.argv.slice(2), io, readEnvironment(), (l) => process.stderr.write(`${l}\n`));
  process.exitCode = code;
}
