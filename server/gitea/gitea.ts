import type { Config } from '../config.js';
import type { Db } from '../db/open.js';
import { createLfsRepo } from '../db/repos/lfs-repo.js';
import { createProtectionRepo } from '../db/repos/protection-repo.js';
import { createRepositoryRepo } from '../db/repos/repository-repo.js';
import { createTokenRepo } from '../db/repos/token-repo.js';
import { createUserRepo, type UserRow } from '../db/repos/user-repo.js';
import type { Logger } from '../log.js';
import { GitStore } from './git/store.js';
import { closeRefUpdaters } from './git/ref-updater.js';
import { createAccounts } from './services/accounts.js';
import { createContentsReader } from './services/contents.js';
import { createFiles } from './services/files.js';
import { createLfsStore } from './services/lfs-store.js';
import { newPassword } from './services/passwords.js';
import { createProtections } from './services/protections.js';
import { createRepoService, type RepoContext } from './services/repos.js';
import { Site } from './site.js';

export interface GiteaDeps {
  db: Db;
  config: Config;
  log: Logger;
  /** Where the one-time admin password goes (stderr by default; never the JSON log). */
  announce?: (line: string) => void;
}

/** The repository half of the server: accounts, repositories, git, files, LFS, wired together. */
export async function createGitea(deps: GiteaDeps) {
  const { db, config, log } = deps;
  const site = new Site(config.rootUrl ?? 'http://127.0.0.1/');
  const git = new GitStore();
  const users = createUserRepo(db);
  const accounts = createAccounts(users, createTokenRepo(db));
  const repoRows = createRepositoryRepo(db);
  const repos = createRepoService({ repos: repoRows, accounts, git, dataDir: config.dataDir });
  const protections = createProtections(createProtectionRepo(db), accounts);
  const contents = createContentsReader(git, site, { maxBlobSize: config.apiMaxBlobSize });
  const lfsStore = createLfsStore(config.dataDir);
  const lfsRepo = createLfsRepo(db);
  const commitListeners = new Set<(repo: RepoContext, branch: string, sha: string) => void>();
  const files = createFiles({
    git,
    repos,
    protections,
    contents,
    lfsStore,
    lfsRepo,
    lfsEnabled: config.lfsEnabled,
    site,
    onCommit: (repo, branch, sha) => {
      for (const l of commitListeners) l(repo, branch, sha);
    },
  });

  await repos.repair();

  const gitea = {
    config,
    site,
    git,
    accounts,
    repos,
    protections,
    contents,
    files,
    lfsStore,
    lfsRepo,
    /** Subscribes to commits made through the API or pushes (issue 5's sync-on-commit hooks in here). */
    onCommit(listener: (repo: RepoContext, branch: string, sha: string) => void): () => void {
      commitListeners.add(listener);
      return () => commitListeners.delete(listener);
    },
    notifyCommit(repo: RepoContext, branch: string, sha: string): void {
      for (const l of commitListeners) l(repo, branch, sha);
    },

    /** `auto_init`: Gitea's first commit, a README from the default template. */
    async initialCommit(repo: RepoContext, doer: UserRow, name: string, description: string): Promise<void> {
      const readme = `# ${name}\n\n${description}`.trimEnd() + '\n';
      await files.change(repo, doer, {
        files: [{ operation: 'create', path: 'README.md', content: Buffer.from(readme) }],
        message: 'Initial commit',
        branch: repo.row.default_branch,
        newBranch: repo.row.default_branch,
      });
    },

    /**
     * First start: with no user yet, create the admin from ADMIN_USERNAME /
     * ADMIN_PASSWORD, or `admin` with a random password shown once.
     */
    async bootstrapAdmin(): Promise<void> {
      if (accounts.count() > 0) return;
      const username = config.adminUsername ?? 'admin';
      const password = config.adminPassword ?? newPassword();
      await accounts.createUser({ username, email: config.adminEmail ?? `${username}@localhost`, password, isAdmin: true, bootstrap: true });
      log.info({ user: username }, 'created the first admin user');
      if (!config.adminPassword) {
        (deps.announce ?? ((l) => process.stderr.write(`${l}\n`)))(`Trunkline: created admin user "${username}" with password ${password} (shown once; set ADMIN_PASSWORD to choose it)`);
      }
    },

    close(): void {
      git.close();
      closeRefUpdaters();
    },
  };
  return gitea;
}

export type Gitea = Awaited<ReturnType<typeof createGitea>>;
