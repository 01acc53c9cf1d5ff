import { Failure } from './args.js';
import { userArg } from './args.js';
import type { AdminCommand } from './command.js';
import { checkPasswordFlags, PASSWORD_FLAGS, passwordFor } from './new-password.js';

/** `reset-password USER`: a new password for an account; its tokens stay valid, as with Gitea's change-password. */
export const resetPassword: AdminCommand = {
  name: 'reset-password',
  alias: 'change-password',
  summary: "set an account's password",
  help: `Usage: npm run admin -- reset-password USER [--password-stdin | --random-password]

Sets USER's password (also --username USER). The old password stops working
at once, in a running server too. As with Gitea's change-password, nothing
else changes: the account's access tokens stay valid (delete them through the
API if they may have leaked).

  --password-stdin    read the password from stdin (the default): typed at a
                      terminal without echo, or piped as one line
  --random-password   generate a password and print it once

A password is never taken on the command line (--password is refused).`,
  flags: { bools: [...PASSWORD_FLAGS], strings: ['username'], aliases: { u: 'username' }, maxPositionals: 1 },
  check(args) {
    checkPasswordFlags(args);
    userArg(args);
  },
  async run(args, session, io) {
    const name = userArg(args);
    const user = session.accounts.byName(name);
    if (!user) throw new Failure(`user ${name} does not exist`);
    const { password, generated } = await passwordFor(args, io);
    await session.accounts.setPassword(user, password);
    if (generated) io.out(`Password of ${user.name} (shown once): ${password}`);
    io.out(`Changed the password of ${user.name}; its access tokens stay valid.`);
  },
};
