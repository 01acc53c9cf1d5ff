import { rq, requestModel } from '../request.js';

export const Identity = requestModel('Identity', 'Name and email put on a commit as its author or committer.', {
  name: rq.string('Name', { maxSize: 100 }),
  email: rq.string('Email', { maxSize: 254 }),
});

export const CommitDateOptions = requestModel('CommitDateOptions', 'Dates to put on the commit instead of now.', {
  author: rq.datetime('Author'),
  committer: rq.datetime('Committer'),
});

/** FileOptions, embedded first in every write option (Go struct order decides which 422 comes first). */
const fileOptions = {
  message: rq.string('Message', {}, 'Commit message; one is made up when it is empty.'),
  branch: rq.string('BranchName', { gitRefName: true, maxSize: 100 }, 'Branch the change starts from; the default branch when empty.'),
  new_branch: rq.string('NewBranchName', { gitRefName: true, maxSize: 100 }, 'Commit to this new branch, made from `branch`, instead of to `branch` itself.'),
  force_push: rq.bool('ForcePush', 'With new_branch: overwrite that branch when it exists already.'),
  author: rq.object('Author', Identity),
  committer: rq.object('Committer', Identity),
  dates: rq.object('Dates', CommitDateOptions),
  signoff: rq.bool('Signoff', 'End the message with a Signed-off-by line for the committer.'),
};

export const CreateFileOptions = requestModel('CreateFileOptions', 'Body of a file creation. Given author or committer alone, it stands for both; given neither, the signed-in user does.', {
  ...fileOptions,
  content: rq.string('ContentBase64', { required: true }, 'The file\'s bytes, base64.'),
});

export const UpdateFileOptions = requestModel('UpdateFileOptions', 'Body of a file update. Given author or committer alone, it stands for both; given neither, the signed-in user does.', {
  ...fileOptions,
  sha: rq.string('SHA', {}, 'Blob id the file holds now; empty to create the file instead.'),
  content: rq.string('ContentBase64', { required: true }, 'The file\'s bytes, base64.'),
  from_path: rq.string('FromPath', { maxSize: 500 }, 'Move the file from this path to the one in the URL.'),
});

/**
 * The spec answers 400 for a delete without `sha` (not a bind-time 422),
 * so `sha` is checked by the service, not required here.
 */
export const DeleteFileOptions = requestModel('DeleteFileOptions', 'Body of a file deletion. Given author or committer alone, it stands for both; given neither, the signed-in user does.', {
  ...fileOptions,
  sha: rq.string('SHA', {}, 'Blob id the file holds now; a deletion without it is refused (400).'),
});

export const ChangeFileOperation = requestModel('ChangeFileOperation', 'One step of a multi-file change.', {
  operation: rq.string('Operation', { required: true, in: ['create', 'update', 'upload', 'rename', 'delete'] }, 'create: a file that must not exist yet; update: one that must; upload: either; rename: move from_path here (new content optional); delete: remove it.'),
  path: rq.string('Path', { required: true, maxSize: 500 }, 'Path the step acts on.'),
  content: rq.string('ContentBase64', {}, 'The file\'s new bytes, base64.'),
  sha: rq.string('SHA', {}, 'Blob id the file holds now; when given, the step fails unless it matches.'),
  from_path: rq.string('FromPath', { maxSize: 500 }, 'Where the file is now, when the step moves it.'),
});

export const ChangeFilesOptions = requestModel('ChangeFilesOptions', 'Body of a multi-file change: steps applied in order, one commit. Given author or committer alone, it stands for both; given neither, the signed-in user does.', {
  ...fileOptions,
  files: rq.array('Files', ChangeFileOperation, { required: true }, 'The steps, applied in order, each to the tree the earlier ones left.'),
});

export const GetFilesOptions = requestModel('GetFilesOptions', 'Paths of the files to read in one request.', {
  files: rq.strings('Files', {}, 'Paths from the repository root, in the order the answer lists them.'),
});
