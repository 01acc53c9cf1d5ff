import type { Logger } from '../../log.js';
import type { Accounts } from './accounts.js';
import { newPassword } from './passwords.js';

/** Who the first admin is (ADMIN_* settings) and where to report it. */
export interface BootstrapAdminOptions {
  adminUsername?: string | undefined;
  adminPassword?: string | undefined;
  adminEmail?: string | undefined;
  log: Logger;
  /** Where the one-time password goes (stderr by default; never the JSON log). */
  announce?: ((line: string) => void) | undefined;
}

/**
 * First start: with no user yet, create the admin from ADMIN_USERNAME /
 * ADMIN_PASSWORD, or `admin` with a random password shown once.
 */
export async function bootstrapAdmin(accounts: Pick<Accounts, 'count' | 'createUser'>, o: BootstrapAdminOptions): Promise<void> {
  if (accounts.count() > 0) return;
  const username = o.adminUsername ?? 'admin';
  const password = o.adminPassword ?? newPassword();
  await accounts.createUser({ username, email: o.adminEmail ?? `${username}@localhost`, password, isAdmin: true, bootstrap: true });
  o.log.info({ user: username }, 'created the first admin user');
  if (!o.adminPassword) {
    (o.announce ?? ((l) => process.stderr.write(`${l}\n`)))(`Trunkline: created admin user "${username}" with password ${password} (shown once; set ADMIN_PASSWORD to choose it)`);
  }
}
