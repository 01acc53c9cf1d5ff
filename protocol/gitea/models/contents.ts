import { nullable, omitempty, responseModel, t } from '../schema.js';

export const FileLinksResponse = responseModel('FileLinksResponse', 'FileLinksResponse contains the links for a repo\'s file', {
  self: nullable(t.string()),
  git: nullable(t.string()),
  html: nullable(t.string()),
});

/** Gitea 1.27 field order; the omitempty fields are absent, every other key present (null when empty). */
export const ContentsResponse = responseModel('ContentsResponse', 'ContentsResponse contains information about a repo\'s entry\'s (dir, file, symlink, submodule) metadata and content', {
  name: t.string(),
  path: t.string(),
  sha: t.string(),
  last_commit_sha: omitempty(t.string('the last commit that changed the entry')),
  last_committer_date: omitempty(t.datetime()),
  last_author_date: omitempty(t.datetime()),
  last_commit_message: omitempty(t.string()),
  type: t.enum(['file', 'dir', 'symlink', 'submodule'], '`type` will be `file`, `dir`, `symlink`, or `submodule`'),
  size: t.int64(),
  encoding: nullable(t.enum(['base64'], '`encoding` is populated when `type` is `file`, otherwise null')),
  content: nullable(t.string('`content` is populated when `type` is `file`, otherwise null')),
  target: nullable(t.string('`target` is populated when `type` is `symlink`, otherwise null')),
  url: nullable(t.string()),
  html_url: nullable(t.string()),
  git_url: nullable(t.string()),
  download_url: nullable(t.string()),
  submodule_git_url: nullable(t.string('`submodule_git_url` is populated when `type` is `submodule`, otherwise null')),
  _links: t.refOrNull(FileLinksResponse),
  lfs_oid: omitempty(t.string()),
  lfs_size: omitempty(t.int64()),
});

export const CommitMeta = responseModel('CommitMeta', 'CommitMeta contains meta information of a commit in terms of API.', {
  url: t.string(),
  sha: t.string(),
  created: t.datetime(),
});

export const CommitUser = responseModel('CommitUser', 'CommitUser contains information of a user in the context of a commit.', {
  name: t.string(),
  email: t.string(),
  date: t.string(),
});

export const FileCommitResponse = responseModel('FileCommitResponse', 'FileCommitResponse contains information generated from a Git commit for a repo\'s file.', {
  url: t.string(),
  sha: t.string(),
  created: t.datetime(),
  html_url: t.string(),
  author: t.refOrNull(CommitUser),
  committer: t.refOrNull(CommitUser),
  parents: nullable(t.array(CommitMeta)),
  message: t.string(),
  tree: t.refOrNull(CommitMeta),
});

export const PayloadUser = responseModel('PayloadUser', 'PayloadUser represents the author or committer of a commit', {
  name: t.string(),
  email: t.string(),
  username: t.string(),
});

export const PayloadCommitVerification = responseModel('PayloadCommitVerification', 'PayloadCommitVerification represents the GPG verification of a commit', {
  verified: t.bool(),
  reason: t.string(),
  signature: t.string(),
  signer: t.refOrNull(PayloadUser),
  payload: t.string(),
});

export const FileResponse = responseModel('FileResponse', 'FileResponse contains information about a repo\'s file', {
  content: t.refOrNull(ContentsResponse),
  commit: t.refOrNull(FileCommitResponse),
  verification: t.refOrNull(PayloadCommitVerification),
});

export const FilesResponse = responseModel('FilesResponse', 'FilesResponse contains information about multiple files from a repo', {
  files: nullable(t.arrayOfNullable(ContentsResponse)),
  commit: t.refOrNull(FileCommitResponse),
  verification: t.refOrNull(PayloadCommitVerification),
});

export const FileDeleteResponse = responseModel('FileDeleteResponse', 'FileDeleteResponse contains information about a repo\'s file that was deleted', {
  content: t.alwaysNull(),
  commit: t.refOrNull(FileCommitResponse),
  verification: t.refOrNull(PayloadCommitVerification),
});

export const GitBlobResponse = responseModel('GitBlobResponse', 'GitBlobResponse represents a git blob', {
  content: nullable(t.string()),
  encoding: nullable(t.string()),
  url: t.string(),
  sha: t.string(),
  size: t.int64(),
  lfs_oid: omitempty(t.string()),
  lfs_size: omitempty(t.int64()),
});

/** What /editorconfig answers: only the four properties Gitea reports, each left out when unset. */
export const EditorConfigDefinition = responseModel('EditorConfigDefinition', 'The EditorConfig properties that apply to a file', {
  charset: omitempty(t.string()),
  indent_style: omitempty(t.string()),
  indent_size: omitempty(t.string()),
  end_of_line: omitempty(t.string()),
});
