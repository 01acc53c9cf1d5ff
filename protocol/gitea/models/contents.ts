import { nullable, omitempty, responseModel, t } from '../schema.js';

export const FileLinksResponse = responseModel('FileLinksResponse', 'Where else an entry can be fetched: the API, git, the web.', {
  self: nullable(t.string()),
  git: nullable(t.string()),
  html: nullable(t.string()),
});

/** Gitea 1.27 field order; the omitempty fields are absent, every other key present (null when empty). */
export const ContentsResponse = responseModel('ContentsResponse', 'One entry of a tree at a ref: what it is, where it lives, the last commit that touched it, and for a single file its content.', {
  name: t.string(),
  path: t.string(),
  sha: t.string(),
  last_commit_sha: omitempty(t.string('Id of the newest commit that touched this path.')),
  last_committer_date: omitempty(t.datetime()),
  last_author_date: omitempty(t.datetime()),
  last_commit_message: omitempty(t.string()),
  type: t.enum(['file', 'dir', 'symlink', 'submodule'], 'Kind of entry.'),
  size: t.int64(),
  encoding: nullable(t.enum(['base64'], '`base64` when content is given; null otherwise.')),
  content: nullable(t.string('A single file read by its own path, or just written: its bytes in base64, up to API_MAX_BLOB_SIZE. Null otherwise, directory listings included.')),
  target: nullable(t.string('Where a symlink points; null for other kinds.')),
  url: nullable(t.string()),
  html_url: nullable(t.string()),
  git_url: nullable(t.string()),
  download_url: nullable(t.string()),
  submodule_git_url: nullable(t.string('A submodule\'s URL from .gitmodules; null for other kinds.')),
  _links: t.refOrNull(FileLinksResponse),
  lfs_oid: omitempty(t.string()),
  lfs_size: omitempty(t.int64()),
});

export const CommitMeta = responseModel('CommitMeta', 'A commit by id, with its API address and date.', {
  url: t.string(),
  sha: t.string(),
  created: t.datetime(),
});

export const CommitUser = responseModel('CommitUser', 'Name, email and date of a commit\'s author or committer.', {
  name: t.string(),
  email: t.string(),
  date: t.string(),
});

export const FileCommitResponse = responseModel('FileCommitResponse', 'The commit a file change produced.', {
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

export const PayloadUser = responseModel('PayloadUser', 'Name, email and user name of a commit\'s author or committer.', {
  name: t.string(),
  email: t.string(),
  username: t.string(),
});

export const PayloadCommitVerification = responseModel('PayloadCommitVerification', 'Outcome of checking a commit\'s signature; signatures are not checked here, so it always says unsigned.', {
  verified: t.bool(),
  reason: t.string(),
  signature: t.string(),
  signer: t.refOrNull(PayloadUser),
  payload: t.string(),
});

export const FileResponse = responseModel('FileResponse', 'The answer to a single-file write: the file as it now is, and the commit.', {
  content: t.refOrNull(ContentsResponse),
  commit: t.refOrNull(FileCommitResponse),
  verification: t.refOrNull(PayloadCommitVerification),
});

export const FilesResponse = responseModel('FilesResponse', 'The answer to a multi-file change: each file as it now is (null for one deleted), and the commit.', {
  files: nullable(t.arrayOfNullable(ContentsResponse)),
  commit: t.refOrNull(FileCommitResponse),
  verification: t.refOrNull(PayloadCommitVerification),
});

export const FileDeleteResponse = responseModel('FileDeleteResponse', 'The answer to a file deletion: the commit; content is always null.', {
  content: t.alwaysNull(),
  commit: t.refOrNull(FileCommitResponse),
  verification: t.refOrNull(PayloadCommitVerification),
});

export const GitBlobResponse = responseModel('GitBlobResponse', 'A git blob with its content in base64 (none above API_MAX_BLOB_SIZE).', {
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

export const ContentsExtResponse = responseModel('ContentsExtResponse', 'What contents-ext found: a file (or link, or submodule), or a directory\'s entries; only one of the two is set.', {
  file_contents: omitempty(t.ref(ContentsResponse)),
  dir_contents: omitempty(t.array(ContentsResponse)),
});
