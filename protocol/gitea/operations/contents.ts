import { defineGiteaOperation, gp, reply, repoParams } from '../operation.js';
import {
  ContentsExtResponse,
  ContentsResponse,
  FileDeleteResponse,
  FileResponse,
  FilesResponse,
  GitBlobResponse,
} from '../models/contents.js';
import { ChangeFilesOptions, CreateFileOptions, DeleteFileOptions, GetFilesOptions, UpdateFileOptions } from '../models/file-options.js';

const ref = gp.query('Branch, tag or full commit id to read at; the default branch when left out.');
const filepath = (description: string) => gp.path(description, { wildcard: true });
const notFound = { code: 404, reason: 'the repository, ref or path does not exist' } as const;
const scopes = ['repository'] as const;

export const repoGetContentsList = defineGiteaOperation({
  operationId: 'repoGetContentsList',
  method: 'GET',
  path: '/repos/{owner}/{repo}/contents',
  tags: ['repository'],
  summary: 'The entries at the top of the tree, without file contents',
  params: { ...repoParams, ref },
  body: null,
  success: 200,
  response: reply.list(ContentsResponse),
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 403, reason: 'token scope' }, notFound, { code: 500, reason: 'no read access to the code' }],
});

export const repoGetContents = defineGiteaOperation({
  operationId: 'repoGetContents',
  method: 'GET',
  path: '/repos/{owner}/{repo}/contents/{filepath}',
  tags: ['repository'],
  summary: 'One tree entry: a file with its content in base64, a symlink, or a submodule; for a directory, its entries without contents',
  params: { ...repoParams, filepath: filepath('Path from the repository root.'), ref },
  body: null,
  success: 200,
  response: reply.oneOrList(ContentsResponse),
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 400, reason: 'path contains a .git component' }, { code: 403, reason: 'token scope' }, notFound, { code: 500, reason: 'no read access to the code' }],
});

/** What every write answers besides success (spec, "Rules for write operations"). */
const writeErrors = [
  { code: 401, reason: 'token is required' },
  { code: 403, reason: 'cannot write to the branch, protected path, or the repository is a mirror or archived' },
  notFound,
  { code: 422, reason: 'invalid content, path or sha, branch exists, or file exists' },
  { code: 423, reason: 'repository archived (declared; archived repositories answer 403)' },
] as const;
const writeGuards = ['repo', 'reader', 'writable', 'signedIn'] as const;

export const repoChangeFiles = defineGiteaOperation({
  operationId: 'repoChangeFiles',
  method: 'POST',
  path: '/repos/{owner}/{repo}/contents',
  tags: ['repository'],
  summary: 'Create, update, rename or delete several files in one commit',
  params: repoParams,
  body: ChangeFilesOptions,
  bodyRequired: true,
  success: 201,
  response: reply.one(FilesResponse),
  scopes,
  guards: writeGuards,
  errors: [...writeErrors],
});

export const repoCreateFile = defineGiteaOperation({
  operationId: 'repoCreateFile',
  method: 'POST',
  path: '/repos/{owner}/{repo}/contents/{filepath}',
  tags: ['repository'],
  summary: 'Add a new file in a commit of its own',
  params: { ...repoParams, filepath: filepath('Path of the new file.') },
  body: CreateFileOptions,
  bodyRequired: true,
  success: 201,
  response: reply.one(FileResponse),
  scopes,
  guards: writeGuards,
  errors: [...writeErrors],
});

export const repoUpdateFile = defineGiteaOperation({
  operationId: 'repoUpdateFile',
  method: 'PUT',
  path: '/repos/{owner}/{repo}/contents/{filepath}',
  tags: ['repository'],
  summary: 'Replace a file\'s content (and move it, with from_path) in a commit of its own; with an empty `sha` the file is created instead (201)',
  params: { ...repoParams, filepath: filepath('Path of the file; where it ends up when from_path moves it.') },
  body: UpdateFileOptions,
  bodyRequired: true,
  success: 200,
  alsoSuccess: [201],
  response: reply.one(FileResponse),
  scopes,
  guards: writeGuards,
  errors: [...writeErrors],
});

export const repoDeleteFile = defineGiteaOperation({
  operationId: 'repoDeleteFile',
  method: 'DELETE',
  path: '/repos/{owner}/{repo}/contents/{filepath}',
  tags: ['repository'],
  summary: 'Remove a file in a commit of its own; `sha` must name the blob it holds now',
  params: { ...repoParams, filepath: filepath('Path of the file to remove.') },
  body: DeleteFileOptions,
  bodyRequired: true,
  success: 200,
  response: reply.one(FileDeleteResponse),
  scopes,
  guards: writeGuards,
  errors: [{ code: 400, reason: 'sha missing or not matching, invalid file name, or branch exists' }, ...writeErrors],
});

export const getBlob = defineGiteaOperation({
  operationId: 'GetBlob',
  method: 'GET',
  path: '/repos/{owner}/{repo}/git/blobs/{sha}',
  tags: ['repository'],
  summary: 'A blob by id, with its content in base64 (no content above API_MAX_BLOB_SIZE)',
  params: { ...repoParams, sha: gp.path('Blob id, in hex.') },
  body: null,
  success: 200,
  response: reply.one(GitBlobResponse),
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 400, reason: 'sha not given' }, { code: 403, reason: 'token scope' }, { code: 404, reason: 'no such blob' }],
});

const batchSummary = 'Several files with their contents, in the order asked (null for a path that is not there); the answer stops after 30 entries, or before the file whose content would take it past 100 MiB';

export const repoGetFileContentsPost = defineGiteaOperation({
  operationId: 'repoGetFileContentsPost',
  method: 'POST',
  path: '/repos/{owner}/{repo}/file-contents',
  tags: ['repository'],
  summary: batchSummary,
  params: { ...repoParams, ref },
  body: GetFilesOptions,
  bodyRequired: true,
  success: 200,
  response: reply.listOfNullable(ContentsResponse),
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 403, reason: 'token scope (a POST asks for write:repository, as in Gitea; the GET form needs read only)' }, notFound, { code: 422, reason: 'a body that is not GetFilesOptions JSON' }],
});

export const repoGetFileContents = defineGiteaOperation({
  operationId: 'repoGetFileContents',
  method: 'GET',
  path: '/repos/{owner}/{repo}/file-contents',
  tags: ['repository'],
  summary: `${batchSummary}. The body of the POST form travels as JSON in the \`body\` parameter`,
  params: { ...repoParams, ref, body: gp.query('The POST form\'s body as JSON: `{"files": ["a.md", "docs/b.md"]}` (required).') },
  body: null,
  success: 200,
  response: reply.listOfNullable(ContentsResponse),
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 400, reason: 'invalid body parameter' }, { code: 403, reason: 'token scope' }, notFound],
});

export const repoGetContentsExt = defineGiteaOperation({
  operationId: 'repoGetContentsExt',
  method: 'GET',
  path: '/repos/{owner}/{repo}/contents-ext/{filepath}',
  tags: ['repository'],
  summary: 'A file, link or submodule, or a directory\'s entries, with only the fields `includes` asks for: `file_content` (a single file\'s content), `lfs_metadata`, `commit_metadata`, `commit_message`',
  params: {
    ...repoParams,
    filepath: filepath('Path from the repository root (empty for the root).'),
    ref,
    includes: gp.query('Comma-separated: file_content, lfs_metadata, commit_metadata, commit_message.'),
  },
  body: null,
  success: 200,
  response: reply.one(ContentsExtResponse),
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 400, reason: 'an unknown include option, or a malformed path' }, { code: 403, reason: 'token scope' }, notFound],
});

export const repoGetContentsExtRoot = defineGiteaOperation({
  operationId: 'repoGetContentsExtRoot',
  method: 'GET',
  path: '/repos/{owner}/{repo}/contents-ext',
  tags: ['repository'],
  summary: 'contents-ext for the root directory (what Gitea answers at `contents-ext/`): its entries, with what `includes` asks for',
  params: { ...repoParams, ref, includes: gp.query('Comma-separated: file_content, lfs_metadata, commit_metadata, commit_message.') },
  body: null,
  success: 200,
  response: reply.one(ContentsExtResponse),
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 400, reason: 'an unknown include option' }, { code: 403, reason: 'token scope' }, notFound],
});
