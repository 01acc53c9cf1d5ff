import type { Account, GiteaWorld } from '../_helpers/gitea.js';

/** The organisation suites' cast: olga (who creates organisations), pete (made a second owner), sam (an outsider). */
export interface Cast {
  olga: Account;
  pete: Account;
  sam: Account;
}

/** Creates the three accounts, each with an `all` token. */
export async function makeCast(g: GiteaWorld): Promise<Cast> {
  const [olga, pete, sam] = (await Promise.all(['olga', 'pete', 'sam'].map((n) => g.user(n)))) as [Account, Account, Account];
  return { olga, pete, sam };
}
