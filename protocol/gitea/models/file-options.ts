import { rq, requestModel } from '../request.js';

export const Identity = requestModel('Identity', 'Identity for a person\'s identity like an author or committer', {
  name: rq.string('Name', { maxSize: 100 }),
  email: rq.string('Email', { maxSize: 254 }),
});

export const CommitDateOptions = requestModel('CommitDateOptions', 'CommitDateOptions store dates for GIT_AUTHOR_DATE and GIT_COMMITTER_DATE', {
  author: rq.datetime('Author'),
  committer: rq.datetime('Committer'),
});

/** FileOptions, embedded first in every write option (Go struct order decides which 422 comes first). */
const fileOptions = {
  message: rq.string('Message', {}, 'message (optional) for the commit of this file. if not supplied, a default message will be used'),
  branch: rq.string('BranchName', { gitRefName: true, maxSize: 100 }, 'branch (optional) to base this file from. if not given, the default branch is used'),
  new_branch: rq.string('NewBranchName', { gitRefName: true, maxSize: 100 }, 'new_branch (optional) will make a new branch from `branch` before creating the file'),
  force_push: rq.bool('ForcePush', 'force_push (optional) will do a force-push if the new branch already exists'),
  author: rq.object('Author', Identity),
  committer: rq.object('Committer', Identity),
  dates: rq.object('Dates', CommitDateOptions),
  signoff: rq.bool('Signoff', 'Add a Signed-off-by trailer by the committer at the end of the commit log message.'),
};

export const CreateFileOptions = requestModel('CreateFileOptions', 'CreateFileOptions options for creating files. Note: `author` and `committer` are optional (if only one is given, it will be used for the other, otherwise the authenticated user will be used)', {
  ...fileOptions,
  content: rq.string('ContentBase64', { required: true }, 'content must be base64 encoded'),
});

export const UpdateFileOptions = requestModel('UpdateFileOptions', 'UpdateFileOptions options for updating files. Note: `author` and `committer` are optional (if only one is given, it will be used for the other, otherwise the authenticated user will be used)', {
  ...fileOptions,
  sha: rq.string('SHA', {}, 'the blob ID (SHA) for the file that already exists, it is required for changing existing files'),
  content: rq.string('ContentBase64', { required: true }, 'content must be base64 encoded'),
  from_path: rq.string('FromPath', { maxSize: 500 }, 'from_path (optional) is the path of the original file which will be moved/renamed to the path in the URL'),
});

/**
 * The spec answers 400 for a delete without `sha` (not a bind-time 422),
 * so `sha` is checked by the service, not required here.
 */
export const DeleteFileOptions = requestModel('DeleteFileOptions', 'DeleteFileOptions options for deleting files (used for other File structs below). Note: `author` and `committer` are optional (if only one is given, it will be used for the other, otherwise the authenticated user will be used)', {
  ...fileOptions,
  sha: rq.string('SHA', {}, 'the blob ID (SHA) for the file to delete'),
});

export const ChangeFileOperation = requestModel('ChangeFileOperation', 'ChangeFileOperation for creating, updating or deleting a file', {
  operation: rq.string('Operation', { required: true, in: ['create', 'update', 'upload', 'rename', 'delete'] }, 'indicates what to do with the file: "create" for creating a new file, "update" for updating an existing file, "upload" for creating or replacing a file, "rename" for renaming a file, and "delete" for deleting an existing file.'),
  path: rq.string('Path', { required: true, maxSize: 500 }, 'path to the existing or new file'),
  content: rq.string('ContentBase64', {}, 'new or updated file content, it must be base64 encoded'),
  sha: rq.string('SHA', {}, 'the blob ID (SHA) for the file that already exists, required for changing existing files'),
  from_path: rq.string('FromPath', { maxSize: 500 }, 'old path of the file to move'),
});

export const ChangeFilesOptions = requestModel('ChangeFilesOptions', 'ChangeFilesOptions options for creating, updating or deleting multiple files. Note: `author` and `committer` are optional (if only one is given, it will be used for the other, otherwise the authenticated user will be used)', {
  ...fileOptions,
  files: rq.array('Files', ChangeFileOperation, { required: true }, 'list of file operations'),
});
