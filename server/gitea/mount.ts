import type { Hono } from 'hono';
import { GITEA_MODELS } from '../../protocol/gitea/index.js';
import { giteaSwagger } from '../../protocol/gitea/swagger.js';
import type { AnswerMemo } from '../http/answer-memo.js';
import type { Logger } from '../log.js';
import type { Gitea } from './gitea.js';
import { giteaAuth, TOO_MANY_FAILURES } from './http/auth.js';
import { createGiteaBinder } from './http/bind.js';
import { createReplay } from './http/replay.js';
import { mountBranches } from './routes/branches.js';
import { mountContents } from './routes/contents.js';
import { mountRepos } from './routes/repos.js';
import { mountUsers } from './routes/users.js';
import { mountMirrors } from './routes/mirrors.js';
import { mountRaw } from './routes/raw.js';
import { mountArchive } from './routes/archive.js';
import { mountEditorConfig } from './routes/editorconfig.js';
import { mountCommits } from './routes/commits.js';
import { mountGitData } from './routes/git-data.js';
import { mountSettings } from './routes/settings.js';
import { mountDiscovery } from './routes/discovery.js';
import { mountTags } from './routes/tags.js';
import { mountReleases } from './routes/releases.js';
import { mountReleaseAssets } from './routes/release-assets.js';
import { mountOrgs } from './routes/orgs.js';
import { mountAttachmentDownloads } from './web/attachments.js';
import { mountOAuth2Apps } from './routes/oauth2-apps.js';
import { mountOAuth2Web } from './web/oauth2-web.js';
import { mountSignIn } from './web/sign-in.js';
import { mountDownload } from './web/download.js';
import { mountGitHttp } from './web/git-http.js';
import { mountLfs } from './web/lfs.js';
import { mountRepoPages } from './web/pages/mount-pages.js';

/** How the Gitea surfaces are mounted (limits, test-mode checking, where to log). */
export interface GiteaMountOptions {
  log: Logger;
  violations: string[];
  checkResponses: boolean;
  maxBodyBytes: number;
  maxJsonDepth: number;
  production: boolean;
  /** Where replayable answers are kept (none: every request runs the app). */
  answers?: AnswerMemo;
}

/** Whether a raw request target's path has a `.` or `..` segment (percent-encoded or not). */
export function hasDotSegment(target: string): boolean {
  const q = target.indexOf('?');
  return /\/(?:\.|%2e){1,2}(?=\/|$)/i.test(q < 0 ? target : target.slice(0, q));
}

/** Mounts /api/v1 (the Gitea-compatible API) and /api/swagger.v1.json. */
export function mountGitea(app: Hono<any>, g: Gitea, opts: GiteaMountOptions): void {
  const b = createGiteaBinder(app, {
    site: g.site,
    repos: g.repos,
    users: g.accounts,
    orgs: g.orgs,
    maxBodyBytes: opts.maxBodyBytes,
    maxJsonDepth: opts.maxJsonDepth,
    checkResponses: opts.checkResponses,
    violations: opts.violations,
    log: opts.log,
    production: opts.production,
    mirrorEnabled: g.config.mirrorEnabled,
    ...(opts.answers
      ? {
          replay: createReplay({
            memo: opts.answers,
            accounts: g.accounts,
            accountsGeneration: g.accountsGeneration,
            refsEpoch: (gitDir) => g.git.refsEpoch(gitDir),
          }),
        }
      : {}),
  });
  // The Node adaptor resolves `.` and `..` segments (also `%2e%2e`) before routing, so
  // `DELETE …/collaborators/..` would reach `DELETE /repos/{owner}/{repo}`. Gitea routes the
  // path as sent, where such a segment names nothing: refuse it before it can act on a parent.
  app.use('/api/v1/*', async (c, next) => {
    const raw = (c.env as { incoming?: { url?: string } } | undefined)?.incoming?.url;
    if (raw && hasDotSegment(raw)) return b.errorResponse(404, 'not found');
    await next();
  });
  app.use(
    '/api/v1/*',
    giteaAuth(g, (_c, throttled) =>
      throttled ? b.errorResponse(429, TOO_MANY_FAILURES, { 'retry-after': String(throttled.retryAfter) }) : b.errorResponse(401, 'invalid username, password or token'),
    ),
  );

  const { site, git, config, accounts, repos, files, contents, protections, lfsStore, lfsRepo, refs, blobs } = g;
  mountUsers(b, { site, accounts });
  mountOAuth2Apps(b, { site, apps: g.oauth2Apps });
  mountRepos(b, { site, repos, accounts, files, pullMirrors: g.pullMirrors, mirrors: g.mirrors, languages: g.languages });
  mountBranches(b, { site, branches: g.branches, writer: g.branchWriter, accounts, protections, repos });
  mountContents(b, { files, contents, batch: g.contentsBatch });
  mountGitData(b, { gitData: g.gitData, commits: g.commitReader });
  mountCommits(b, { site, commits: g.commitReader, statuses: g.commitStatuses });
  mountRaw(b, { refs, blobs, config });
  mountMirrors(b, { site, pushMirrors: g.pushMirrors, mirrors: g.mirrors });
  mountArchive(b, { archives: g.archives, site, archiveSlots: g.archiveSlots });
  mountEditorConfig(b, { refs, editorConfig: g.editorConfig });
  mountSettings(b, { config });
  mountDiscovery(b, { site, repos, pullMirrors: g.pullMirrors, search: g.repoSearch });
  mountTags(b, { site, tags: g.tags });
  mountReleases(b, { site, releases: g.releases });
  mountReleaseAssets(b, { releaseAssets: g.releaseAssets });
  mountOrgs(b, { site, orgs: g.orgs, repos, files, pullMirrors: g.pullMirrors, search: g.repoSearch });

  app.get('/api/swagger.v1.json', (c) => c.json(giteaSwagger([...b.mounted], GITEA_MODELS, `${g.site.basePath}/api/v1`)));
  app.all('/api/v1/*', () => b.errorResponse(404, 'not found'));

  // Web routes (outside /api): LFS and git before the download route, which matches more loosely.
  mountLfs(app, { config, accounts, site, repos, lfsStore, lfsRepo }, opts);
  mountGitHttp(app, { config, accounts, repos, git, protections, commits: g.commits }, opts);
  mountDownload(app, { config, accounts, repos, refs, blobs });
  mountAttachmentDownloads(app, { config, accounts, repos, releases: g.releases, releaseAssets: g.releaseAssets });
  // Web sign-in and the OAuth2 provider, before the pages' loose `/{owner}/{repo}` routes.
  mountSignIn(app, { site, accounts, sessions: g.webSessions });
  mountOAuth2Web(app, { site, accounts, sessions: g.webSessions, authorize: g.oauth2Authorize, tokens: g.oauth2Tokens });
  // Last: the pages match the loosest paths of all (`/{owner}`, `/{owner}/{repo}`).
  mountRepoPages(app, { config, accounts, site, repos, browser: g.browser, search: g.repoSearch, releases: g.releases });
}
