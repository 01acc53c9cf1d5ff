import type { ModelOf } from '../../protocol/model.js';
import type { RepositoryRow } from '../db/repos/repository-repo.js';
import type { TokenRow } from '../db/repos/token-repo.js';
import type { UserRow } from '../db/repos/user-repo.js';
import type { AccessToken, Repository, User } from '../../protocol/gitea/index.js';
import { GO_ZERO_TIME, goTime } from '../util/go-format.js';
import type { Perm } from './services/perm.js';
import { Scopes } from './services/scopes.js';
import type { RepoFacts } from './services/repos.js';
import type { Site } from './site.js';


/**
 * A User as the API shows it to `viewer` (Gitea's ToUser): signed-in callers
 * see the email (anonymous ones a no-reply placeholder); only the user and
 * site admins see whether the account is an admin, active, or when it last
 * signed in.
 */
export function toUser(u: UserRow, site: Site, viewer: UserRow | null): ModelOf<typeof User> {
  return userJson(u, site, !!viewer, !!viewer && (viewer.id === u.id || !!viewer.is_admin));
}

/**
 * A repository's owner (Gitea's ToUserWithAccessMode): the email is shown to
 * anyone with access to the repository, the private details to no one.
 */
export function toUserWithAccess(u: UserRow, site: Site, hasAccess: boolean): ModelOf<typeof User> {
  return userJson(u, site, hasAccess, false);
}

function userJson(u: UserRow, site: Site, signed: boolean, authed: boolean): ModelOf<typeof User> {
  return {
    id: u.id,
    login: u.name,
    login_name: '',
    source_id: 0,
    full_name: u.full_name,
    // Gitea's placeholder is <lower name>@<NO_REPLY_ADDRESS>, which defaults to noreply.<DOMAIN>.
    email: signed ? u.email : `${u.lower_name}@noreply.${new URL(site.rootUrl).hostname}`,
    avatar_url: '',
    html_url: site.userHtml(u),
    language: '',
    is_admin: authed && !!u.is_admin,
    // Gitea renders an unset last login as the Unix epoch to those who may see it, else Go's zero time.
    last_login: authed ? goTime(u.last_login_at) : GO_ZERO_TIME,
    created: goTime(u.created_at),
    restricted: false,
    active: authed && !!u.is_active,
    prohibit_login: authed && !!u.prohibit_login,
    location: u.location,
    website: u.website,
    description: u.description,
    visibility: u.visibility as 'public',
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    username: u.name,
  };
}

/** An access token as the API lists it; `token` is the secret, shown only in the answer that creates it. */
export function toAccessToken(t: TokenRow, token = ''): ModelOf<typeof AccessToken> {
  return {
    id: t.id,
    name: t.name,
    sha1: token,
    token_last_eight: t.last_eight,
    scopes: [...new Scopes(t.scopes).list],
    created_at: goTime(t.created_at),
    last_used_at: t.last_used_at ? goTime(t.last_used_at) : GO_ZERO_TIME,
  };
}

/** A repository as the API shows it (Gitea's ToRepo), with the caller's permissions and the git facts. */
export function toRepository(r: RepositoryRow, owner: UserRow, perm: Perm, facts: RepoFacts, site: Site): ModelOf<typeof Repository> {
  const html = site.repoHtml(owner, r);
  return {
    id: r.id,
    owner: toUserWithAccess(owner, site, perm.read),
    name: r.name,
    full_name: `${owner.name}/${r.name}`,
    description: r.description,
    empty: facts.empty,
    private: !!r.is_private,
    fork: false,
    template: !!r.is_template,
    mirror: !!r.is_mirror,
    size: facts.sizeKiB,
    language: '',
    languages_url: `${site.repoApi(owner, r)}/languages`,
    html_url: html,
    url: site.repoApi(owner, r),
    link: '',
    ssh_url: '',
    clone_url: `${html}.git`,
    original_url: r.original_url,
    website: r.website,
    stars_count: 0,
    forks_count: 0,
    watchers_count: 0,
    branch_count: facts.branchCount,
    open_issues_count: 0,
    open_pr_counter: 0,
    release_counter: facts.releaseCount,
    default_branch: r.default_branch,
    archived: !!r.is_archived,
    created_at: goTime(r.created_at),
    updated_at: goTime(r.updated_at),
    archived_at: goTime(r.archived_at),
    permissions: { admin: perm.admin, push: perm.write, pull: perm.read },
    // A unit is on only where this server serves it (code, releases): a client that checks has_issues or
    // has_pull_requests before calling those APIs skips them here instead of meeting a 404. The
    // merge settings and the tracker's options are Gitea's defaults for a new repository
    // (time tracking off, as /settings/repository says).
    has_code: true,
    has_issues: false,
    internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
    has_wiki: false,
    has_pull_requests: false,
    has_projects: false,
    projects_mode: 'all',
    has_releases: true,
    has_packages: false,
    has_actions: false,
    ignore_whitespace_conflicts: false,
    allow_merge_commits: true,
    allow_rebase: true,
    allow_rebase_explicit: true,
    allow_squash_merge: true,
    allow_fast_forward_only_merge: true,
    allow_rebase_update: true,
    allow_manual_merge: false,
    autodetect_manual_merge: false,
    default_delete_branch_after_merge: false,
    default_merge_style: 'merge',
    default_allow_maintainer_edit: false,
    avatar_url: '',
    internal: false,
    mirror_interval: '',
    object_format_name: 'sha1',
    mirror_updated: GO_ZERO_TIME,
    topics: [],
    licenses: [],
  };
}
