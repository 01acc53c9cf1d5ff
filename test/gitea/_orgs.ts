import type { Test } from 'uvu';
import type { Account, GiteaWorld } from '../_helpers/gitea.js';

/** The organisation suites' cast: olga (who creates organisations), pete (made a second owner), sam (an outsider). */
export interface Cast {
  olga: Account;
  pete: Account;
  sam: Account;
}

/** Creates the three accounts, each with an `all` token, one after the other (ids in that order: lists by id are predictable). */
export async function makeCast(g: GiteaWorld): Promise<Cast> {
  const olga = await g.user('olga');
  const pete = await g.user('pete');
  const sam = await g.user('sam');
  return { olga, pete, sam };
}

/** The cast, made before the suite's tests (after the server starts); read its fields inside tests. */
export function useCast(test: Test, ctx: { g: GiteaWorld }): Cast {
  const cast = {} as Cast;
  test.before(async () => void Object.assign(cast, await makeCast(ctx.g)));
  return cast;
}
