import type { Context, Hono } from 'hono';
import { DomainError, forbidden } from '../../../errors.js';
import { giteaError } from '../../http/errors.js';
import { giteaAuth, type CallerDeps } from '../../http/auth.js';
import { tooMany } from '../git-access.js';
import { RESERVED } from '../download.js';
import type { Accounts, Authenticated } from '../../services/accounts.js';
import type { Browser } from '../../services/browse.js';
import type { Releases } from '../../services/releases.js';
import type { RepoSearch } from '../../services/repo-search.js';
import type { RepoContext, RepoService } from '../../services/repos.js';
import { tokenMayAccessRepo } from '../../services/repo-access.js';
import { accountVisibleTo, publicOnlyRefusesUser } from '../../services/visibility.js';
import type { Site } from '../../site.js';
import { goPathEscape } from '../../../util/go-format.js';
import { pageAssets } from './html.js';
import { releasePage, releasesPage } from './release-views.js';
import { commitPage, errorPage, homePage, srcPage, userPage, type RepoLinks } from './repo-views.js';

/** What the repository pages read. */
export type PagesDeps = CallerDeps & { site: Site; accounts: Pick<Accounts, 'byName'>; repos: RepoService; browser: Browser; search: RepoSearch; releases: Releases };

/** The newest releases one page lists (the API pages through all of them). */
const RELEASES_SHOWN = 50;

/** First path segments the pages leave to other routes: the reserved names, and the icon browsers ask for on their own. */
const notAnOwner = (segment: string) => RESERVED.has(segment.toLowerCase()) || segment.toLowerCase() === 'favicon.ico';

/** The request's path split into decoded segments (empty ones dropped), or null when it does not decode. */
function segments(c: Context): string[] | null {
  try {
    return new URL(c.req.url).pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
}

/**
 * Server-rendered pages behind the `html_url`s the API gives out, so every link
 * a client follows answers: a user's repositories (`/{owner}`), a repository's
 * home (`/{owner}/{repo}`, and `/{owner}/{repo}.git`, the clone URL, which leads
 * there), directories and files at a branch, tag or commit
 * (`/{owner}/{repo}/src/{branch|tag|commit}/{ref}/{path}`), a commit with its diff
 * (`/{owner}/{repo}/commit/{sha}`), releases (`/{owner}/{repo}/releases`, and
 * `/{owner}/{repo}/releases/tag/{tag}`, a release's `html_url`), and archives (`/{owner}/{repo}/archive/{ref}.{zip|tar.gz}`,
 * answered by the API's archive route). The caller is who the API would take
 * (Basic, token); private repositories are 404 to anyone who may not read them.
 */
export function mountRepoPages(app: Hono<any>, g: PagesDeps): void {
  const base = () => g.site.basePath;
  const auth = giteaAuth(g, (_c, throttled) => (throttled ? tooMany(throttled) : errorPage(base(), 401, 'Those credentials were not accepted.')));
  const links = (repo: RepoContext): RepoLinks => ({ basePath: base(), owner: repo.owner, row: repo.row });

  app.get(`${pageAssets.prefix}/:version/:name`, (c) => pageAssets.answer(c.req.raw, c.req.param('version'), c.req.param('name')));

  const page = (render: (parts: string[], who: Authenticated | null, c: Context) => Promise<Response | undefined>) => async (c: Context, next: () => Promise<void>) => {
    const parts = segments(c);
    if (!parts || !parts[0] || notAnOwner(parts[0])) return next();
    let res: Response | undefined;
    const failed = await auth(c, async () => {
      try {
        res = await render(parts, (c.get('giteaAuth') as Authenticated | null) ?? null, c);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        const mapped = giteaError(err)!;
        res = errorPage(base(), mapped.status, mapped.status === 404 ? 'Nothing is here, or you may not see it.' : mapped.message);
      }
    });
    if (failed) return failed;
    return res ?? next();
  };

  /** The repository named by the first two segments, as the caller may read it (a token needs read:repository). */
  const repoOf = (parts: string[], who: Authenticated | null): RepoContext => {
    const repo = g.repos.lookup(parts[0]!, parts[1]!.replace(/\.git$/i, ''), who);
    if (!tokenMayAccessRepo(who, repo, 'read')) throw forbidden('Forbidden');
    return repo;
  };

  app.get('/:owner', page(async ([name], who) => {
    const user = g.accounts.byName(name!);
    if (!user || !accountVisibleTo(user, who?.user ?? null) || publicOnlyRefusesUser(who, user)) return errorPage(base(), 404, 'Nothing is here, or you may not see it.');
    const repos = await g.search.search({ ownerId: user.id, exclusive: true, private: !!who && !who.scopes?.publicOnly, sort: 'alpha' }, who?.user ?? null, async () => 0);
    return userPage(base(), user, repos.map(links));
  }));

  app.get('/:owner/:repo', page(async (parts, who) => {
    const repo = repoOf(parts, who);
    if (/\.git$/i.test(parts[1]!)) return Response.redirect(new URL(`${base()}/${goPathEscape(repo.owner.name)}/${goPathEscape(repo.row.name)}`, g.site.rootUrl), 302);
    return homePage(links(repo), await g.browser.home(repo), await g.browser.branches(repo));
  }));

  app.get('/:owner/:repo/src/*', page(async (parts, who) => {
    const repo = repoOf(parts, who);
    const [kind = '', ...rest] = parts.slice(3);
    if (!rest.length) return errorPage(base(), 404, 'Name a branch, tag or commit: src/branch/{name}/{path}.');
    return srcPage(links(repo), await g.browser.src(repo, kind, rest.join('/')));
  }));

  app.get('/:owner/:repo/commit/:sha', page(async (parts, who) => {
    const repo = repoOf(parts, who);
    const view = await g.browser.commit(repo, parts[3] ?? '');
    const diffUrl = `${base()}/api/v1/repos/${goPathEscape(repo.owner.name)}/${goPathEscape(repo.row.name)}/git/commits/${view.commit.sha}.diff`;
    return commitPage(links(repo), view, diffUrl);
  }));

  app.get('/:owner/:repo/releases', page(async (parts, who) => {
    const repo = repoOf(parts, who);
    const shown = g.releases.recent(repo, who?.user ?? null, RELEASES_SHOWN);
    return releasesPage(links(repo), shown.releases, shown.total);
  }));

  app.get('/:owner/:repo/releases/tag/*', page(async (parts, who) => {
    const repo = repoOf(parts, who);
    const found = g.releases.page(repo, parts.slice(4).join('/'), who?.user ?? null);
    return releasePage(links(repo), found.release, found.sha1);
  }));

  // The web archive URL (tags' zipball_url and tarball_url) is the API's archive, answered by the same route.
  app.get('/:owner/:repo/archive/*', page(async (parts, who, c) => {
    const repo = repoOf(parts, who);
    const url = new URL(c.req.url);
    // Routes see paths without ROOT_URL's sub-path (the proxy in front strips it).
    url.pathname = `/api/v1/repos/${goPathEscape(repo.owner.name)}/${goPathEscape(repo.row.name)}/archive/${parts.slice(3).map(goPathEscape).join('/')}`;
    return app.fetch(new Request(url, { method: 'GET', headers: c.req.raw.headers, signal: c.req.raw.signal }), c.env);
  }));
}
