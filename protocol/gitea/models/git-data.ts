import { nullable, responseModel, t } from '../schema.js';
import { CommitMeta, CommitUser, PayloadCommitVerification } from './contents.js';
import { User } from './user.js';

export const GitEntry = responseModel('GitEntry', 'One entry of a tree listing: its path below the listed tree, mode, object type and id.', {
  path: t.string('Path below the listed tree (a recursive listing names nested entries by their full path).'),
  mode: t.string('Octal mode, six digits (`100644`, `040000`, …).'),
  type: t.string('Object type: blob, tree or commit (a submodule).'),
  size: t.int64('Size of a blob in bytes; 0 for trees and submodules.'),
  sha: t.string(),
  url: t.string('API address of the blob or tree; empty for a submodule.'),
});

export const GitTreeResponse = responseModel('GitTreeResponse', 'A page of a tree listing.', {
  sha: t.string('The object the listing was resolved from: the commit, annotated tag or tree named.'),
  url: t.string(),
  tree: nullable(t.array(GitEntry, 'The entries of this page; null when the page is past the end.')),
  truncated: t.bool('Entries remain after this page.'),
  page: t.int64(),
  total_count: t.int64('Entries in the whole listing.'),
});

export const GitObject = responseModel('GitObject', 'The object a reference points to.', {
  type: t.string(),
  sha: t.string(),
  url: t.string(),
});

export const Reference = responseModel('Reference', 'A git reference and the object it points to.', {
  ref: t.string('Full name, `refs/heads/main`.'),
  url: t.string(),
  object: t.refOrNull(GitObject),
});

export const AnnotatedTagObject = responseModel('AnnotatedTagObject', 'The commit an annotated tag points to.', {
  type: t.string(),
  url: t.string(),
  sha: t.string(),
});

export const TagArchiveDownloadCount = responseModel('TagArchiveDownloadCount', 'How often the archives of a tag were downloaded; not counted here.', {
  zip: t.int64(),
  tar_gz: t.int64(),
});

export const AnnotatedTag = responseModel('AnnotatedTag', 'An annotated tag object.', {
  tag: t.string('Tag name.'),
  sha: t.string('Id of the tag object.'),
  url: t.string(),
  message: t.string(),
  tagger: t.refOrNull(CommitUser),
  object: t.refOrNull(AnnotatedTagObject),
  verification: t.refOrNull(PayloadCommitVerification),
  archive_download_count: t.refOrNull(TagArchiveDownloadCount),
});

export const RepoCommit = responseModel('RepoCommit', 'What git stores for a commit: people, message and tree.', {
  url: t.string(),
  author: t.refOrNull(CommitUser),
  committer: t.refOrNull(CommitUser),
  message: t.string(),
  tree: t.refOrNull(CommitMeta),
  verification: t.refOrNull(PayloadCommitVerification),
});

export const CommitStats = responseModel('CommitStats', 'Lines added and removed by a commit, against its first parent.', {
  total: t.int64(),
  additions: t.int64(),
  deletions: t.int64(),
});

export const CommitAffectedFiles = responseModel('CommitAffectedFiles', 'A file a commit added, removed or modified.', {
  filename: t.string(),
  status: t.string('added, removed or modified.'),
});

export const Commit = responseModel('Commit', 'A commit with its addresses, the accounts of its author and committer (null when no account has the email), its parents and, when asked for, its files and line counts.', {
  url: t.string(),
  sha: t.string(),
  created: t.datetime('The committer\'s date.'),
  html_url: t.string(),
  commit: t.refOrNull(RepoCommit),
  author: t.refOrNull(User),
  committer: t.refOrNull(User),
  parents: nullable(t.array(CommitMeta)),
  files: nullable(t.array(CommitAffectedFiles)),
  stats: t.refOrNull(CommitStats),
});

export const Note = responseModel('Note', 'A git note and the commit of the notes history that last changed it.', {
  message: t.string(),
  commit: t.refOrNull(Commit),
});

export const Compare = responseModel('Compare', 'The commits on head that base does not have, newest first.', {
  total_commits: t.int64(),
  commits: nullable(t.array(Commit)),
});
