import { DomainError } from '../errors.js';
import { Failure, UsageError, userArg } from './args.js';
import type { AdminCommand } from './command.js';
import { SCOPE_CATEGORIES } from '../../protocol/gitea/operation.js';

/** `create-token USER --name N --scopes a,b`: Gitea's `generate-access-token`, with the API's scope rules. */
export const createToken: AdminCommand = {
  name: 'create-token',
  alias: 'generate-access-token',
  summary: 'create an access token for an account',
  help: `Usage: npm run admin -- create-token USER --scopes SCOPES [--name N] [--raw]

Creates an access token for USER (also --username USER) and prints it once;
only its digest is kept.

  --scopes SCOPES   comma-separated, as the API takes them: all, public-only,
                    read:X or write:X for X in ${[...SCOPE_CATEGORIES].sort().join(', ')}
  --name N          the token's name, unique per user (default trunkline-admin;
                    --token-name and -t are Gitea's names for it)
  --raw             print the token alone`,
  flags: { bools: ['raw'], strings: ['username', 'name', 'scopes'], aliases: { u: 'username', 'token-name': 'name', t: 'name' }, maxPositionals: 1 },
  check(args) {
    userArg(args);
    if (!args.strings.get('scopes')) throw new UsageError('--scopes is required (for example --scopes read:repository,write:issue)');
  },
  async run(args, session, io) {
    const name = userArg(args);
    const user = session.accounts.byName(name);
    if (!user) throw new Failure(`user ${name} does not exist`);
    const tokenName = args.strings.get('name') ?? 'trunkline-admin';
    try {
      const { row, token } = session.accounts.createToken(user, tokenName, [args.strings.get('scopes')!]);
      io.out(args.bools.get('raw') ? token : `Created access token ${row.name} for ${user.name} (scopes ${row.scopes}): ${token}`);
    } catch (err) {
      if (err instanceof DomainError) throw new Failure(err.message);
      throw err;
    }
  },
};
