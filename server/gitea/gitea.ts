import type { Config } from '../config.js';
import type { Db } from '../db/open.js';
import { createLfsRepo } from '../db/repos/lfs-repo.js';
import { createMirrorRepo, createPullMirrorRepo } from '../db/repos/mirror-repo.js';
import { createOrgRepo } from '../db/repos/org-repo.js';
import { createProtectionRepo } from '../db/repos/protection-repo.js';
import { createAttachmentRepo } from '../db/repos/attachment-repo.js';
import { createReleaseRepo } from '../db/repos/release-repo.js';
import { createRepositoryRepo } from '../db/repos/repository-repo.js';
import { createTokenRepo } from '../db/repos/token-repo.js';
import { createOAuth2AppRepo } from '../db/repos/oauth2-app-repo.js';
import { createOAuth2GrantRepo } from '../db/repos/oauth2-grant-repo.js';
import { createWebSessionRepo } from '../db/repos/web-session-repo.js';
import { createUserRepo } from '../db/repos/user-repo.js';
import type { Logger } from '../log.js';
import { GitStore } from './git/store.js';
import { closeRefUpdaters } from './git/ref-updater.js';
import { createBrowser } from './services/browse.js';
import { createContentsBatch } from './services/contents-batch.js';
import { createLanguages } from './services/languages.js';
import { createAccounts } from './services/accounts.js';
import { createArchives } from './services/archive.js';
import { ArchiveSlots } from './services/archive-slots.js';
import { createBlobSource } from './services/blob-source.js';
import { createBranches } from './services/branches.js';
import { createBranchWriter } from './services/branch-writes.js';
import { createTags } from './services/tags.js';
import { createReleases } from './services/releases.js';
import { attachmentJson, createReleaseAssets } from './services/release-assets.js';
import { createAttachmentStore } from './services/attachment-store.js';
import { createCommitJson } from './services/commit-json.js';
import { createCommitStatuses } from './services/commit-statuses.js';
import { createCommits } from './services/commits.js';
import { createGitData } from './services/git-data.js';
import { createCommitStatusRepo } from '../db/repos/commit-status-repo.js';
import { toRepository, toUser } from './convert.js';
import { createEditorConfigReader } from './services/editorconfig.js';
import { createRefResolver } from './services/ref-resolver.js';
import { bootstrapAdmin } from './services/bootstrap-admin.js';
import { CommitBus } from './services/commit-bus.js';
import { LoginThrottle } from './services/login-throttle.js';
import { createOAuth2Apps } from './services/oauth2-apps.js';
import { createOAuth2Authorize } from './services/oauth2-authorize.js';
import { createOAuth2Tokens } from './services/oauth2-tokens.js';
import { createWebSessions } from './services/web-sessions.js';
import { createContentsReader } from './services/contents.js';
import { createFiles } from './services/files.js';
import { createLfsStore } from './services/lfs-store.js';
import { createProtections } from './services/protections.js';
import { createRepoService } from './services/repos.js';
import { createOrgService } from './services/orgs.js';
import { createRepoSearch } from './services/repo-search.js';
import { createLfsMirroring } from './services/lfs-mirror.js';
import { createMirrorScheduler } from './services/mirror-scheduler.js';
import { createPullMirrors } from './services/pull-mirrors.js';
import { createPushMirrors } from './services/push-mirrors.js';
import { openSecretBox } from '../util/secret-box.js';
import { pushLfsObjects } from './mirrors/lfs-push.js';
import { createRemoteGit } from './mirrors/remote-git.js';
import { RepoEvents } from './repo-events.js';
import { Site } from './site.js';

/** What the repository half is built from. */
export interface GiteaDeps {
  db: Db;
  config: Config;
  log: Logger;
  /** Test mode: where events that break protocol/ are reported. */
  violations?: string[];
  /** Where the one-time admin password goes (stderr by default; never the JSON log). */
  announce?: (line: string) => void;
}

/**
 * The repository half of the server, wired: each service gets its
 * collaborators here and nowhere else. The result is the list of services
 * (each mount picks the few it uses) plus the lifecycle steps start.ts runs.
 */
export async function createGitea(deps: GiteaDeps) {
  const { db, config, log } = deps;
  const site = new Site(config.rootUrl ?? 'http://127.0.0.1/');
  const git = new GitStore();
  const users = createUserRepo(db);
  // OAuth2: applications, then the tokens they are issued, which the accounts check beside access tokens.
  const oauth2Apps = createOAuth2Apps(createOAuth2AppRepo(db));
  const grantRows = createOAuth2GrantRepo(db);
  const oauth2Tokens = createOAuth2Tokens({ apps: oauth2Apps, grants: grantRows });
  const accounts = createAccounts(users, createTokenRepo(db), undefined, new LoginThrottle(config.loginThrottle), oauth2Tokens);
  const repoRows = createRepositoryRepo(db);
  const orgRows = createOrgRepo(db);
  const orgs = createOrgService({ rows: orgRows, accounts, checkName: accounts.checkName });
  // An organisation's team members reach its repositories through the one permission model.
  const teamAccess = (orgId: number, userId: number) => orgRows.access(orgId, userId).access;
  const releaseRows = createReleaseRepo(db);
  const attachmentRows = createAttachmentRepo(db);
  const attachmentStore = createAttachmentStore(config.dataDir);
  const discard = (uuids: readonly string[]) => attachmentStore.remove(uuids);
  const repos = createRepoService({
    repos: repoRows,
    accounts,
    git,
    dataDir: config.dataDir,
    teamAccess,
    releaseCount: (id) => releaseRows.countPublished(id),
    releaseFiles: { uuids: (id) => attachmentRows.uuidsOfRepo(id), discard },
  });
  const protections = createProtections(createProtectionRepo(db), accounts);
  const contents = createContentsReader(git, site, { maxBlobSize: config.apiMaxBlobSize });
  const lfsStore = createLfsStore(config.dataDir);
  const lfsRepo = createLfsRepo(db);
  const commits = new CommitBus();
  const files = createFiles({ git, repos, protections, contents, lfsStore, lfsRepo, lfsEnabled: config.lfsEnabled, site, commits });

  // Locks older than this process were left by a git that died with the previous run.
  const cleared = await repos.repair(Date.now() - Math.round(process.uptime() * 1000));
  if (cleared.length) log.warn({ locks: cleared }, 'removed ref locks left by git processes of the previous run');
  const events = new RepoEvents(config.checkResponses ? deps.violations : undefined);
  const tags = createTags({ git, site, touch: (r) => repos.touch(r), commits, hasRelease: (id, tag) => !!releaseRows.byTag(id, tag) });
  const userJson = (u: Parameters<typeof toUser>[0], viewer: Parameters<typeof toUser>[2]) => toUser(u, site, viewer);
  const releaseFiles = { json: (id: number) => attachmentRows.ofRelease(id).map((a) => attachmentJson(site, a)), uuids: (id: number) => attachmentRows.uuidsOfRelease(id), discard };
  const releases = createReleases({ rows: releaseRows, git, tags, site, userById: (id) => accounts.byId(id), userJson, files: releaseFiles });
  const releaseAssets = createReleaseAssets({
    rows: attachmentRows,
    store: attachmentStore,
    releases,
    site,
    maxBytes: config.attachmentMaxBytes,
    allowedTypes: config.releaseAllowedTypes,
  });
  // Files a crash left without a row (written but never recorded, or unrecorded but not yet removed) go before anyone asks.
  const swept = await attachmentStore.sweep(attachmentRows.allUuids());
  if (swept) log.warn({ files: swept }, 'removed release files left without a row by the previous run');
  commits.on((repo, branch, sha) => events.commit(repo, branch, sha));
  // A release follows its tag before the tag's event is announced.
  commits.onTag((repo, tag, sha) => releases.tagMoved(repo, tag, sha));
  commits.onTag((repo, tag, sha) => events.tag(repo, tag, sha));

  // Mirrors: credentials sealed with SECRET_KEY, or a key generated once and kept in DATA_DIR.
  const { box, source } = openSecretBox({ secretKey: config.secretKey, dataDir: config.dataDir });
  if (source === 'file-created') log.info({ file: 'secret.key' }, 'generated the key that seals mirror credentials (set SECRET_KEY to supply one)');
  const mirrorRows = createMirrorRepo(db);
  const policy = { allowLocalNetworks: config.mirrorAllowLocalNetworks, allowedDomains: config.mirrorAllowedDomains, blockedDomains: config.mirrorBlockedDomains };
  const remoteGit = createRemoteGit({
    dataDir: config.dataDir,
    policy,
    log,
    limits: { timeoutMs: config.mirrorTimeoutMs, lowSpeedLimit: config.mirrorLowSpeedLimit, lowSpeedTimeS: config.mirrorLowSpeedTimeS },
  });
  const pushMirrors = createPushMirrors({
    rows: mirrorRows,
    remoteGit,
    box,
    events,
    async pushLfs(repo, remote, username, password, signal) {
      if (!config.lfsEnabled) return;
      const objects = lfsRepo.linkedAll(repo.row.id);
      if (objects.length) await pushLfsObjects({ remote, username, password, objects, store: lfsStore, policy, idleMs: config.mirrorLfsIdleMs, ...(signal ? { signal } : {}) });
    },
    dataDir: config.dataDir,
    log,
    config,
    policy,
  });
  const pullMirrors = createPullMirrors({
    rows: createPullMirrorRepo(db),
    remoteGit,
    box,
    events,
    repos,
    accounts,
    isOrgOwner: (org, user) => orgs.isOwner(org, user),
    git,
    dataDir: config.dataDir,
    log,
    config,
    policy,
    lfs: createLfsMirroring({ git, store: lfsStore, links: lfsRepo, policy, log, idleMs: config.mirrorLfsIdleMs }),
    commits,
  });
  const commitJson = createCommitJson({ git, site, userByEmail: (e) => accounts.byEmail(e), usersGeneration: () => users.generation(), userJson });
  const commitReader = createCommits(git, commitJson);
  const commitStatuses = createCommitStatuses({
    rows: createCommitStatusRepo(db),
    commits: commitReader,
    userById: (id) => accounts.byId(id),
    userJson,
    repoJson: async (r) => toRepository(r.row, r.owner, r.perm, await repos.facts(r), site),
    repoApi: (r) => site.repoApi(r.owner, r.row),
  });
  const mirrors = createMirrorScheduler({ rows: mirrorRows, pushMirrors, pullMirrors, repos, remoteGit, log, config });
  commits.on((repo) => mirrors.commitLanded(repo));
  // A tag made or removed reaches push mirrors that sync on commit, as a commit does (Gitea notifies both as pushes).
  commits.onTag((repo) => mirrors.commitLanded(repo));

  return {
    config,
    /** Admission of archive downloads (one git process each). */
    archiveSlots: new ArchiveSlots(config.archive),
    site,
    git,
    /** Git reads for the routes, which hold no git handle. */
    refs: createRefResolver(git),
    branches: createBranches(git),
    /** Branch creation and deletion through the API (announced on the commit bus). */
    branchWriter: createBranchWriter({ git, protections, commits, touch: (r) => repos.touch(r) }),
    /** Tags through the API (announced on the commit bus). */
    tags,
    /** Releases, following their tags. */
    releases,
    /** Release files: uploads, renames, removals, downloads. */
    releaseAssets,
    blobs: createBlobSource({ git, lfsStore, lfsRepo, lfsEnabled: config.lfsEnabled }),
    editorConfig: createEditorConfigReader(git),
    /** Commits: one, history pages, comparisons, diffs. */
    commitReader,
    gitData: createGitData(git, site, commitJson),
    commitStatuses,
    archives: createArchives(git),
    accounts,
    /** OAuth2 applications (the API), the authorization endpoint, the token endpoint, and web sign-in sessions. */
    oauth2Apps,
    oauth2Authorize: createOAuth2Authorize({ apps: oauth2Apps, grants: grantRows }),
    oauth2Tokens,
    webSessions: createWebSessions({ rows: createWebSessionRepo(db), userById: (id) => accounts.byId(id) }),
    /** Changes whenever the account tables may have changed (answers built from them are kept under it). */
    accountsGeneration: () => users.generation(),
    repos,
    /** Organisations and their teams. */
    orgs,
    /** Repository search and the per-user lists. */
    repoSearch: createRepoSearch({ rows: repoRows, repos, accounts, teamAccess }),
    browser: createBrowser(git),
    contentsBatch: createContentsBatch(git, contents),
    languages: createLanguages(git),
    protections,
    contents,
    files,
    lfsStore,
    lfsRepo,
    pushMirrors,
    pullMirrors,
    events,
    /** Commits and tag changes made through the API, pushes and pull mirrors (subscribe with `commits.on` and `commits.onTag`). */
    commits,
    mirrors,
    /** The durable mirror sync queue (tests wait on it). */
    mirrorQueue: mirrors.queue,

    /** First start: creates the admin account when there is no user yet. */
    bootstrapAdmin: () =>
      bootstrapAdmin(accounts, { adminUsername: config.adminUsername, adminPassword: config.adminPassword, adminEmail: config.adminEmail, log, announce: deps.announce }),
    /** Starts the mirror queue (once the server listens). */
    startMirrors: () => mirrors.start(),
    /** Stops the mirror queue within MIRROR_SHUTDOWN_GRACE (see MirrorScheduler.stop). */
    stopMirrors: () => mirrors.stop(),
    /** Closes git's long-lived processes. */
    close(): void {
      git.close();
      closeRefUpdaters();
    },
  };
}

/** The wired repository half: its services and lifecycle. */
export type Gitea = Awaited<ReturnType<typeof createGitea>>;
