import { defineGiteaOperation, gp, reply, repoParams } from '../operation.js';
import { CreateTagOption, Tag } from '../models/tag.js';

const tag = { ...repoParams, tag: gp.path('Tag name (slashes allowed).', { wildcard: true }) };
/** Gitea's guards for tag writes: a signed-in writer of a repository that is not archived. */
const writeGuards = ['repo', 'reader', 'signedIn', 'writer', 'notArchived'] as const;

export const repoListTags = defineGiteaOperation({
  operationId: 'repoListTags',
  method: 'GET',
  path: '/repos/{owner}/{repo}/tags',
  tags: ['repository'],
  summary: 'A repository\'s tags, newest tagger time first; every tag when no page is given, else a page of limit (30, at most 50)',
  params: { ...repoParams, page: gp.int('Which page to answer, counting from 1; 0 or none: all tags.'), limit: gp.int('Entries per page with page: 30 when unset or 0 or less, at most 50.') },
  body: null,
  success: 200,
  response: reply.list(Tag),
  scopes: ['repository'],
  guards: ['repo', 'reader'],
  errors: [{ code: 403, reason: 'token scope' }, { code: 404, reason: 'the repository does not exist or the caller cannot see it' }],
});

export const repoGetTag = defineGiteaOperation({
  operationId: 'repoGetTag',
  method: 'GET',
  path: '/repos/{owner}/{repo}/tags/{tag}',
  tags: ['repository'],
  summary: 'One tag, by name',
  params: tag,
  body: null,
  success: 200,
  response: reply.one(Tag),
  scopes: ['repository'],
  guards: ['repo', 'reader'],
  errors: [{ code: 403, reason: 'token scope' }, { code: 404, reason: 'no such tag (the message is its name) or repository' }],
});

export const repoCreateTag = defineGiteaOperation({
  operationId: 'repoCreateTag',
  method: 'POST',
  path: '/repos/{owner}/{repo}/tags',
  tags: ['repository'],
  summary: 'Tag a branch, tag or commit: annotated when a message is given, lightweight otherwise (there is no tag protection here)',
  params: repoParams,
  body: CreateTagOption,
  success: 201,
  response: reply.one(Tag),
  scopes: ['repository'],
  guards: writeGuards,
  errors: [
    { code: 403, reason: 'not a writer, or a pull mirror' },
    { code: 404, reason: 'target not found, or no such repository' },
    { code: 409, reason: 'tag already exists, or a release (a draft too) has that name' },
    { code: 422, reason: 'invalid options (tag_name missing or not a valid reference name)' },
    { code: 423, reason: 'repo is archived' },
  ],
});

export const repoDeleteTag = defineGiteaOperation({
  operationId: 'repoDeleteTag',
  method: 'DELETE',
  path: '/repos/{owner}/{repo}/tags/{tag}',
  tags: ['repository'],
  summary: 'Remove a tag (there is no tag protection here)',
  params: tag,
  body: null,
  success: 204,
  response: null,
  scopes: ['repository'],
  guards: writeGuards,
  errors: [
    { code: 403, reason: 'not a writer, or a pull mirror' },
    { code: 404, reason: 'no such tag or repository' },
    { code: 409, reason: 'a release is attached to the tag (remove the release first)' },
    { code: 423, reason: 'repo is archived' },
  ],
});
