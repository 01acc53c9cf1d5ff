import { MIN_PASSWORD_LENGTH } from '../gitea/services/accounts.js';
import { newPassword } from '../gitea/services/passwords.js';
import { Failure, UsageError, type Parsed } from './args.js';
import type { AdminIo } from './command.js';
import { readPassword } from './password-input.js';

/** The flags of commands that set a password. */
export const PASSWORD_FLAGS = ['password-stdin', 'random-password'] as const;

/** Refuses asking for both sources of a password at once. */
export function checkPasswordFlags(args: Parsed): void {
  if (args.bools.get('password-stdin') && args.bools.get('random-password')) throw new UsageError('--password-stdin and --random-password exclude each other');
}

/**
 * The password a command sets: generated (`--random-password`, returned
 * for the caller to print once) or read from stdin (the default), at least
 * MIN_PASSWORD_LENGTH bytes as the API requires.
 */
export async function passwordFor(args: Parsed, io: AdminIo): Promise<{ password: string; generated: boolean }> {
  if (args.bools.get('random-password')) return { password: newPassword(), generated: true };
  const password = await readPassword(io.stdin, io.prompt);
  if (Buffer.byteLength(password) < MIN_PASSWORD_LENGTH) throw new Failure(`the password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  return { password, generated: false };
}
