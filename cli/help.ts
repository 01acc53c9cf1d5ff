import { commands } from './commands.js';

/** The text `trunkline --help` prints: how to call it, and the commands. */
export function usage(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const list = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}${c.load ? '' : ' (not available yet)'}`);
  return [
    'Usage: trunkline <command> [options]',
    '',
    'A simulated Asterisk (ARI) with the far ends of its calls, for testing Stasis applications.',
    '',
    'Commands:',
    ...list,
    '',
    'trunkline <command> --help shows what a command takes.',
    'Exit status: 0 success, 1 failure, 2 a command line that could not be understood.',
    '',
  ].join('\n');
}
