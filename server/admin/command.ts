import type { FlagSpec, Parsed } from './args.js';
import type { AdminSession } from './session.js';

/** What a command may use besides the database: its output, and stdin for passwords. */
export interface AdminIo {
  /** One line to stdout. */
  out(line: string): void;
  /** Text to stderr (prompts). */
  prompt(text: string): void;
  stdin: NodeJS.ReadStream;
}

/** One admin command: its name (and Gitea's name for it), its flags, its help, and what it does. */
export interface AdminCommand {
  name: string;
  /** Gitea's name for the same command (`gitea admin user …`), accepted too. */
  alias?: string;
  summary: string;
  /** The synopsis and flag descriptions shown by --help. */
  help: string;
  flags: FlagSpec;
  /** Checks the command line before the database is opened (throws UsageError). */
  check?(args: Parsed): void;
  run(args: Parsed, session: AdminSession, io: AdminIo): Promise<void>;
}
