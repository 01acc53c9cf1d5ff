import type { RepositoryRow } from '../../db/repos/repository-repo.js';
import type { UserRow } from '../../db/repos/user-repo.js';
import type { Authenticated } from './accounts.js';
import { publicOnlyRefuses } from './visibility.js';

/**
 * The one decision "may this token do this to this repository", for every
 * surface that reaches a repository's content outside the API's operation
 * scopes (git smart HTTP, LFS, downloads, the event socket): a token needs
 * read:repository (pull, download) or write:repository (push, upload), and a
 * public-only token reaches public repositories of public owners only.
 * Password sessions are not scoped. The API checks each operation's scope
 * categories with the same Scopes, and the public-only rule in the `repo`
 * guard's lookup.
 */
export function tokenMayAccessRepo(auth: Authenticated | null, repo: { row: RepositoryRow; owner: UserRow }, level: 'read' | 'write'): boolean {
  const scopes = auth?.scopes;
  if (!scopes) return true;
  if (publicOnlyRefuses(auth, repo.row, repo.owner)) return false;
  return scopes.allows('repository', level);
}

/** Whether the repository takes writes: an archived or mirror one does not (decisions.md; the `writable` guard). */
export const takesWrites = (row: RepositoryRow): boolean => !row.is_archived && !row.is_mirror;
