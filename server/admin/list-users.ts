import type { AdminCommand } from './command.js';

/**
 * Lays rows out in columns as Go's tabwriter does with Gitea's settings
 * (minimum cell 5, one space of padding): every column but the last is as
 * wide as its longest cell plus one; the last is not padded.
 */
export function columns(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(5, ...rows.map((r) => r[i]!.length + 1)));
  return rows.map((r) => r.map((cell, i) => (i < r.length - 1 ? cell.padEnd(widths[i]!) : cell)).join(''));
}

/** `list-users [--admin]`: Gitea's `admin user list` table. */
export const listUsers: AdminCommand = {
  name: 'list-users',
  alias: 'list',
  summary: 'list the accounts',
  help: `Usage: npm run admin -- list-users [--admin]

Lists every account, oldest first, in Gitea's columns: ID, Username, Email,
IsActive, IsAdmin and 2FA (always false: Trunkline has no second factor).

  --admin   only site administrators (columns ID, Username, Email, IsActive)`,
  flags: { bools: ['admin'] },
  async run(args, session, io) {
    const users = session.accounts.all();
    const yes = (n: number) => String(!!n);
    if (args.bools.get('admin')) {
      const rows = users.filter((u) => u.is_admin).map((u) => [String(u.id), u.name, u.email, yes(u.is_active)]);
      for (const line of columns([['ID', 'Username', 'Email', 'IsActive'], ...rows])) io.out(line);
      return;
    }
    const rows = users.map((u) => [String(u.id), u.name, u.email, yes(u.is_active), yes(u.is_admin), 'false']);
    for (const line of columns([['ID', 'Username', 'Email', 'IsActive', 'IsAdmin', '2FA'], ...rows])) io.out(line);
  },
};
