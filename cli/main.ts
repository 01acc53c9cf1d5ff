#!/usr/bin/env node
import { commands } from './commands.js';
import { usage } from './help.js';

// `trunkline <command> [args]`: finds the command, prints help when asked, and
// turns the outcome into the exit status (2 for a command line it cannot use).

const HELP = new Set(['--help', '-h']);

async function main(argv: string[]): Promise<number | undefined> {
  const [name, ...args] = argv;
  if (name === undefined) {
    process.stderr.write(usage());
    return 2;
  }
  if (HELP.has(name) || (name === 'help' && args.length === 0)) {
    process.stdout.write(usage());
    return 0;
  }
  if (name === 'help') return main([args[0]!, '--help']);
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(`trunkline: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  if (!command.load) {
    process.stderr.write(`trunkline ${name}: not available yet\n`);
    return 2;
  }
  const mod = await command.load();
  if (args.some((a) => HELP.has(a))) {
    process.stdout.write(mod.help);
    return 0;
  }
  return mod.run(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`trunkline: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
