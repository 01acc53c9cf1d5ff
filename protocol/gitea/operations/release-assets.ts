import { defineGiteaOperation, gp, reply, repoParams } from '../operation.js';
import { Attachment, EditAttachmentOptions } from '../models/release.js';

const scopes = ['repository'] as const;
const scope403 = { code: 403, reason: 'token scope' } as const;
/** Gitea's guards for release writes: a signed-in writer (reqToken, reqRepoWriter). */
const writeGuards = ['repo', 'reader', 'signedIn', 'writer', 'notArchived'] as const;
const byRelease = { ...repoParams, id: gp.path('The release\'s id.') };
const byFile = { ...byRelease, attachment_id: gp.path('The file\'s id.') };
const noRelease = { code: 404, reason: 'no such release (a draft is hidden from callers who may not write), or no such repository' } as const;
const noFile = { code: 404, reason: 'no such release or file, the file belongs to another release, or no such repository' } as const;
const writeErrors = [{ code: 401, reason: 'token is required' }, { code: 403, reason: 'token scope, or not a writer' }, { code: 423, reason: 'repo is archived' }] as const;

export const repoListReleaseAttachments = defineGiteaOperation({
  operationId: 'repoListReleaseAttachments',
  method: 'GET',
  path: '/repos/{owner}/{repo}/releases/{id}/assets',
  tags: ['repository'],
  summary: 'A release\'s files, by name',
  params: byRelease,
  body: null,
  success: 200,
  response: reply.list(Attachment),
  scopes,
  guards: ['repo', 'reader'],
  errors: [scope403, noRelease],
});

export const repoCreateReleaseAttachment = defineGiteaOperation({
  operationId: 'repoCreateReleaseAttachment',
  method: 'POST',
  path: '/repos/{owner}/{repo}/releases/{id}/assets',
  tags: ['repository'],
  summary: 'Attach a file to a release: a multipart form\'s `attachment` field, or the whole request body (then `name` is required)',
  params: { ...byRelease, name: gp.query('The file\'s name; for a form, instead of the name the form gives.') },
  body: null,
  upload: { field: 'attachment', description: 'The file (a multipart form field; or send the bytes as the body).' },
  success: 201,
  response: reply.one(Attachment),
  scopes,
  guards: writeGuards,
  errors: [
    { code: 400, reason: 'no name for the file, a name over 255 characters, with control characters or `.`/`..`, a type RELEASE_ALLOWED_TYPES does not list, or a form that is not valid multipart or has no `attachment` file' },
    ...writeErrors,
    noRelease,
    { code: 413, reason: 'the file is larger than ATTACHMENT_MAX_SIZE' },
  ],
});

export const repoGetReleaseAttachment = defineGiteaOperation({
  operationId: 'repoGetReleaseAttachment',
  method: 'GET',
  path: '/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}',
  tags: ['repository'],
  summary: 'One file of a release',
  params: byFile,
  body: null,
  success: 200,
  response: reply.one(Attachment),
  scopes,
  guards: ['repo', 'reader'],
  errors: [scope403, noFile],
});

export const repoEditReleaseAttachment = defineGiteaOperation({
  operationId: 'repoEditReleaseAttachment',
  method: 'PATCH',
  path: '/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}',
  tags: ['repository'],
  summary: 'Rename a file of a release (answered with 201, as Gitea does)',
  params: byFile,
  body: EditAttachmentOptions,
  success: 201,
  response: reply.one(Attachment),
  scopes,
  guards: writeGuards,
  errors: [...writeErrors, noFile, { code: 422, reason: 'the new name is over 255 characters, has control characters, is `.`/`..`, or is of a type RELEASE_ALLOWED_TYPES does not list, or the body is not valid' }],
});

export const repoDeleteReleaseAttachment = defineGiteaOperation({
  operationId: 'repoDeleteReleaseAttachment',
  method: 'DELETE',
  path: '/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}',
  tags: ['repository'],
  summary: 'Remove a file of a release',
  params: byFile,
  body: null,
  success: 204,
  response: null,
  scopes,
  guards: writeGuards,
  errors: [...writeErrors, noFile],
});
