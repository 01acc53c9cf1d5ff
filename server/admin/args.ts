/** A command line that does not fit the command (exit code 2). */
export class UsageError extends Error {}
/** A command that could not be carried out (exit code 1, one line). */
export class Failure extends Error {}

/** Which flags a command takes: switches, flags with a value, and short or Gitea-style names for them. */
export interface FlagSpec {
  bools?: readonly string[];
  strings?: readonly string[];
  aliases?: Readonly<Record<string, string>>;
  /** How many plain words (after the command) it takes at most. */
  maxPositionals?: number;
}

/** A parsed command line: the plain words in order and the flags by their long name. */
export interface Parsed {
  positionals: string[];
  bools: Map<string, boolean>;
  strings: Map<string, string>;
}

/**
 * Parses `--flag`, `--flag=value`, `--flag value`, `-x value` and plain
 * words (`--` ends the flags). A switch takes `=true` / `=false`.
 */
export function parseArgs(argv: readonly string[], spec: FlagSpec): Parsed {
  const out: Parsed = { positionals: [], bools: new Map(), strings: new Map() };
  const bools = new Set(spec.bools ?? []);
  const strings = new Set(spec.strings ?? []);
  let flags = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (flags && arg === '--') {
      flags = false;
      continue;
    }
    if (!flags || !arg.startsWith('-') || arg === '-') {
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const given = (eq < 0 ? arg : arg.slice(0, eq)).replace(/^--?/, '');
    const name = spec.aliases?.[given] ?? given;
    const inline = eq < 0 ? undefined : arg.slice(eq + 1);
    if (bools.has(name)) {
      if (inline !== undefined && inline !== 'true' && inline !== 'false') throw new UsageError(`--${name} takes no value (or =true, =false)`);
      out.bools.set(name, inline !== 'false');
    } else if (strings.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      out.strings.set(name, value);
    } else {
      throw new UsageError(`unknown flag ${arg.slice(0, eq < 0 ? undefined : eq)}`);
    }
  }
  if (out.positionals.length > (spec.maxPositionals ?? 0)) throw new UsageError(`unexpected argument "${out.positionals[spec.maxPositionals ?? 0]}"`);
  return out;
}

/**
 * A departure from Gitea, whose `--password` / `-p` flags take the password
 * on the command line: there it is seen by every user of the machine (ps,
 * /proc) and kept in shell history. Here the flag is refused wherever it
 * appears, before anything else is looked at.
 */
export function refusePasswordOnArgv(argv: readonly string[]): void {
  const flags = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : undefined);
  if (flags.some((a) => /^(--password|-p)(=|$)/.test(a))) {
    throw new UsageError('a password is never taken on the command line (other users see it in ps, and it stays in shell history): pipe it to --password-stdin, or use --random-password');
  }
}

/** The user a command acts on: its one plain word, or --username / -u as Gitea names it. */
export function userArg(p: Parsed): string {
  const named = p.strings.get('username');
  const word = p.positionals[0];
  if (named !== undefined && word !== undefined && named !== word) throw new UsageError('name the user once: USER or --username');
  const user = named ?? word;
  if (!user) throw new UsageError('which user? name one: USER or --username USER');
  return user;
}
