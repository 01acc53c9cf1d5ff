// The subcommands of `trunkline`. A command's module is loaded only when it runs,
// and exports `help` (its --help text) and `run(args)`. A command
// without `load` is listed but says it is not available yet. A new one is one line
// of the table: its summary, and `load` returning a dynamic import of its module.

/** What a command's module exports. */
export interface CommandModule {
  /** The text `trunkline <name> --help` prints. */
  help: string;
  /** Runs the command; resolves with the exit code, or undefined when the command goes on running and exits by itself. */
  run(args: string[]): Promise<number | undefined>;
}

export interface Command {
  /** One line for the command list. */
  summary: string;
  load?: () => Promise<CommandModule>;
}

export const commands: Record<string, Command> = {
  serve: { summary: 'run the server, configured by the environment (what npm start does)', load: () => import('./serve.js') },
  scenario: { summary: 'run scenario files against a Stasis application and report', load: () => import('./scenario/command.js') },
  load: { summary: 'place many calls against an application and report as SIPp does', load: () => import('./load/command.js') },
};
