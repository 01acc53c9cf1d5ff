/** What a caller may do with one repository (computed by the repository service's permission model). */
export interface Perm {
  read: boolean;
  write: boolean;
  admin: boolean;
  /** The repository's owner (or a site admin, who may do what an owner may). */
  owner: boolean;
}
