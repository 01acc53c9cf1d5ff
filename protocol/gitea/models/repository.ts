import { rq, requestModel } from '../request.js';
import { omitempty, responseModel, t } from '../schema.js';
import { User } from './user.js';

export const Permission = responseModel('Permission', 'What the caller may do with the repository.', {
  admin: t.bool(),
  push: t.bool(),
  pull: t.bool(),
});

/** The issue tracker settings a repository with issues reports (a new repository's defaults here). */
export const InternalTracker = responseModel('InternalTracker', 'Settings of the repository\'s own issue tracker.', {
  enable_time_tracker: t.bool(),
  allow_only_contributors_to_track_time: t.bool(),
  enable_issue_dependencies: t.bool(),
});

/** Gitea's Repository, field order as served; the features we do not have report their defaults. */
export const Repository = responseModel('Repository', 'A repository; fields for features this server does not have carry their default values.', {
  id: t.int64(),
  owner: t.ref(User),
  name: t.string(),
  full_name: t.string(),
  description: t.string(),
  empty: t.bool(),
  private: t.bool(),
  fork: t.bool(),
  template: t.bool(),
  mirror: t.bool(),
  size: t.int64('Disk space taken by its git data, in KiB.'),
  language: t.string(),
  languages_url: t.string(),
  html_url: t.string(),
  url: t.string(),
  link: t.string(),
  ssh_url: t.string(),
  clone_url: t.string(),
  original_url: t.string(),
  website: t.string(),
  stars_count: t.int64(),
  forks_count: t.int64(),
  watchers_count: t.int64(),
  branch_count: t.int64(),
  open_issues_count: t.int64(),
  open_pr_counter: t.int64(),
  release_counter: t.int64(),
  default_branch: t.string(),
  archived: t.bool(),
  created_at: t.datetime(),
  updated_at: t.datetime(),
  archived_at: t.datetime(),
  permissions: omitempty(t.ref(Permission)),
  has_code: t.bool(),
  has_issues: t.bool(),
  internal_tracker: omitempty(t.ref(InternalTracker)),
  has_wiki: t.bool(),
  has_pull_requests: t.bool(),
  has_projects: t.bool(),
  projects_mode: t.string(),
  has_releases: t.bool(),
  has_packages: t.bool(),
  has_actions: t.bool(),
  ignore_whitespace_conflicts: t.bool(),
  allow_merge_commits: t.bool(),
  allow_rebase: t.bool(),
  allow_rebase_explicit: t.bool(),
  allow_squash_merge: t.bool(),
  allow_fast_forward_only_merge: t.bool(),
  allow_rebase_update: t.bool(),
  allow_manual_merge: t.bool(),
  autodetect_manual_merge: t.bool(),
  default_delete_branch_after_merge: t.bool(),
  default_merge_style: t.string(),
  default_allow_maintainer_edit: t.bool(),
  avatar_url: t.string(),
  internal: t.bool(),
  mirror_interval: t.string(),
  object_format_name: t.enum(['sha1', 'sha256']),
  mirror_updated: t.datetime(),
  topics: t.strings(),
  licenses: t.strings(),
});

export const CreateRepoOption = requestModel('CreateRepoOption', 'Body of a new repository.', {
  name: rq.string('Name', { required: true, alphaDashDot: true, maxSize: 100 }, 'Repository name: letters, digits, `-`, `_` and `.`, at most 100.'),
  description: rq.string('Description', { maxSize: 2048 }),
  private: rq.bool('Private', 'Hide the repository from everyone but its owner, its collaborators and site admins.'),
  issue_labels: rq.string('IssueLabels', { maxSize: 255 }),
  auto_init: rq.bool('AutoInit', 'Start with one commit holding a README.'),
  template: rq.bool('Template'),
  gitignores: rq.string('Gitignores'),
  license: rq.string('License', { maxSize: 100 }),
  readme: rq.string('Readme', { maxSize: 255 }),
  default_branch: rq.string('DefaultBranch', { gitRefName: true, maxSize: 100 }, 'Branch the first commit goes to and HEAD names; `main` when empty.'),
  trust_model: rq.string('TrustModel', { in: ['', 'default', 'collaborator', 'committer', 'collaboratorcommitter'] }),
  object_format_name: rq.string('ObjectFormatName', { in: ['', 'sha1', 'sha256'] }),
});

export const EditRepoOption = requestModel('EditRepoOption', 'Changes to a repository\'s settings; a field left out keeps its value.', {
  name: rq.string('Name', { alphaDashDot: true, maxSize: 100 }),
  description: rq.string('Description', { maxSize: 2048 }),
  website: rq.string('Website', { maxSize: 1024 }),
  private: rq.bool('Private'),
  template: rq.bool('Template'),
  default_branch: rq.string('DefaultBranch'),
  archived: rq.bool('Archived', 'true makes the repository read-only (archived); false lifts that.'),
});

export const AddCollaboratorOption = requestModel('AddCollaboratorOption', 'The access to give a collaborator.', {
  permission: rq.string('Permission', {}, 'read, write or admin (default write)'),
});

export const RepoCollaboratorPermission = responseModel('RepoCollaboratorPermission', 'A user\'s access level on a repository.', {
  permission: t.string(),
  role_name: t.string(),
  user: t.ref(User),
});

/** The answer of a repository search: Gitea wraps the page in `{ok, data}`. */
export const SearchResults = responseModel('SearchResults', 'One page of repositories found by a search.', {
  ok: t.bool(),
  data: t.array(Repository),
});
