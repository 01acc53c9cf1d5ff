import type { RepositoryRow } from '../db/repos/repository-repo.js';
import type { UserRow } from '../db/repos/user-repo.js';

/**
 * Where we are reachable: every absolute URL we emit is built from ROOT_URL
 * (decisions.md). When ROOT_URL is unset it is `http://HOST:PORT/`, known only
 * once the server listens, so the value is filled in then.
 */
export class Site {
  constructor(private root = 'http://127.0.0.1/') {}

  get rootUrl(): string {
    return this.root;
  }

  set rootUrl(url: string) {
    this.root = url.endsWith('/') ? url : `${url}/`;
  }

  /** The path part of ROOT_URL (for a server behind a sub-path). */
  get basePath(): string {
    return new URL(this.root).pathname.replace(/\/$/, '');
  }

  get swaggerUrl(): string {
    return `${this.root}api/swagger`;
  }

  userHtml(u: Pick<UserRow, 'name'>): string {
    return `${this.root}${encodeURIComponent(u.name)}`;
  }

  repoHtml(owner: Pick<UserRow, 'name'>, repo: Pick<RepositoryRow, 'name'>): string {
    return `${this.root}${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}`;
  }

  repoApi(owner: Pick<UserRow, 'name'>, repo: Pick<RepositoryRow, 'name'>): string {
    return `${this.root}api/v1/repos/${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}`;
  }
}
