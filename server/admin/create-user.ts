import { DomainError } from '../errors.js';
import { Failure, UsageError } from './args.js';
import type { AdminCommand } from './command.js';
import { checkPasswordFlags, PASSWORD_FLAGS, passwordFor } from './new-password.js';

/** `create-user`: a new account, checked by the same rules as the API's admin create. */
export const createUser: AdminCommand = {
  name: 'create-user',
  alias: 'create',
  summary: 'create an account',
  help: `Usage: npm run admin -- create-user --username U --email E [--admin]
                              [--password-stdin | --random-password]

Creates an account with the API's rules (name characters, reserved names, a
name or email already taken, passwords of at least 8 characters).

  --username U        the account's name
  --email E           its email address
  --admin             make it a site administrator
  --password-stdin    read the password from stdin (the default): typed at a
                      terminal without echo, or piped as one line
  --random-password   generate a password and print it once
  --must-change-password=false
                      accepted for Gitea's scripts; Trunkline never forces a
                      change (it has no page to make one on)

A password is never taken on the command line (--password is refused).`,
  flags: { bools: [...PASSWORD_FLAGS, 'admin', 'must-change-password'], strings: ['username', 'email'], aliases: { name: 'username' } },
  check(args) {
    checkPasswordFlags(args);
    if (!args.strings.get('username')) throw new UsageError('--username is required');
    if (!args.strings.get('email')) throw new UsageError('--email is required');
    if (args.bools.get('must-change-password')) throw new UsageError('--must-change-password is not supported: Trunkline has no sign-in page where a password could be changed; give the user a password to keep');
  },
  async run(args, session, io) {
    const username = args.strings.get('username')!;
    if (session.accounts.byName(username)) throw new Failure(`user already exists [name: ${username}]`);
    const { password, generated } = await passwordFor(args, io);
    const isAdmin = !!args.bools.get('admin');
    try {
      const user = await session.accounts.createUser({ username, email: args.strings.get('email')!, password, isAdmin });
      if (generated) io.out(`Password of ${user.name} (shown once): ${password}`);
      io.out(`Created ${isAdmin ? 'site administrator' : 'user'} ${user.name} (id ${user.id}).`);
    } catch (err) {
      if (err instanceof DomainError) throw new Failure(err.message);
      throw err;
    }
  },
};
