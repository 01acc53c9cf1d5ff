import type { RepositoryRow } from '../../db/repos/repository-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import type { Authenticated } from './accounts.js';

/**
 * Who may see an account, by its visibility (Gitea's IsUserVisibleToViewer
 * and HasOrgOrUserVisible): `public` everyone, `limited` every signed-in
 * user, `private` the account itself and site admins. Gitea also shows a
 * private account to its followers and to fellow members of an organisation;
 * neither exists here yet, and when organisations come their members belong
 * in this function. An unknown value is treated as private.
 *
 * Every lookup of a user or a repository goes through this (the `contextUser`
 * guard, and the repository permission model), so a hidden account is
 * indistinguishable from a missing one.
 */
export function accountVisibleTo(account: UserRow, viewer: UserRow | null): boolean {
  if (viewer && (viewer.is_admin || viewer.id === account.id)) return true;
  if (account.visibility === 'public') return true;
  if (account.visibility === 'limited') return viewer !== null;
  return false;
}

/** The `public-only` rule, once: such a token is refused whatever is not public. */
const publicOnlyRefusesPrivate = (auth: Authenticated | null, isPublic: boolean): boolean => !isPublic && !!auth?.scopes?.publicOnly;

/**
 * Gitea's TokenCanAccessRepo: a `public-only` token reaches a repository only
 * when the repository is public and so is its owner (a limited or private
 * owner's repositories are not public resources).
 */
export function publicOnlyRefuses(auth: Authenticated | null, row: RepositoryRow, owner: UserRow): boolean {
  return publicOnlyRefusesPrivate(auth, !row.is_private && owner.visibility === 'public');
}

/** Gitea's checkTokenPublicOnly for the user scope: a `public-only` token sees public users only. */
export function publicOnlyRefusesUser(auth: Authenticated | null, user: UserRow): boolean {
  return publicOnlyRefusesPrivate(auth, user.visibility === 'public');
}
