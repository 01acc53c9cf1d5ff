import { defineGiteaOperation, gp, repoParams } from '../operation.js';
import { EditorConfigDefinition } from '../models/contents.js';

const ref = gp.query('The name of the commit/branch/tag. Default to the repository’s default branch.');
const filepath = (description: string) => gp.path(description, { wildcard: true });
const scopes = ['repository'] as const;

const rawParams = { ...repoParams, filepath: filepath('path of the file to get, it should be "{ref}/{filepath}". If there is no ref could be inferred, it will be treated as the default branch'), ref };

export const repoGetRawFile = defineGiteaOperation({
  operationId: 'repoGetRawFile',
  method: 'GET',
  path: '/repos/{owner}/{repo}/raw/{filepath}',
  tags: ['repository'],
  summary: 'Get a file from a repository',
  params: rawParams,
  body: null,
  success: 200,
  alsoSuccess: [206, 304],
  response: null,
  responseSchema: { type: 'file' },
  produces: ['application/octet-stream'],
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 403, reason: 'token scope' }, { code: 404, reason: 'empty repository, no such path, or the path is a directory or submodule' }, { code: 416, reason: 'range not satisfiable' }],
});

export const repoGetRawFileOrLFS = defineGiteaOperation({
  operationId: 'repoGetRawFileOrLFS',
  method: 'GET',
  path: '/repos/{owner}/{repo}/media/{filepath}',
  tags: ['repository'],
  summary: 'Get a file or it\'s LFS object from a repository',
  params: rawParams,
  body: null,
  success: 200,
  alsoSuccess: [206, 304],
  response: null,
  responseSchema: { type: 'file' },
  produces: ['application/octet-stream'],
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 403, reason: 'token scope' }, { code: 404, reason: 'empty repository, no such path, or the path is a directory or submodule' }, { code: 416, reason: 'range not satisfiable' }],
});

export const repoGetArchive = defineGiteaOperation({
  operationId: 'repoGetArchive',
  method: 'GET',
  path: '/repos/{owner}/{repo}/archive/{archive}',
  tags: ['repository'],
  summary: 'Get an archive of a repository (`<ref>.zip`, `<ref>.tar.gz` or `<ref>.bundle`)',
  params: { ...repoParams, archive: filepath('the git reference for download with attached archive format (e.g. master.zip)'), path: gp.query('limit a zip or tar.gz archive to this path (repeatable)') },
  body: null,
  success: 200,
  response: null,
  responseSchema: { type: 'file' },
  produces: ['application/octet-stream', 'application/zip', 'application/gzip'],
  scopes,
  guards: ['repo', 'reader'],
  errors: [
    { code: 400, reason: 'unknown format' },
    { code: 403, reason: 'token scope' },
    { code: 404, reason: 'unrecognized repository reference' },
    { code: 429, reason: 'this client already has its share of archives being made and waiting, or too many failed password checks (Retry-After)' },
    { code: 503, reason: 'the archive queue is full (Retry-After)' },
  ],
});

export const repoGetEditorConfig = defineGiteaOperation({
  operationId: 'repoGetEditorConfig',
  method: 'GET',
  path: '/repos/{owner}/{repo}/editorconfig/{filepath}',
  tags: ['repository'],
  summary: 'Get the EditorConfig definitions of a file in a repository',
  params: { ...repoParams, filepath: filepath('path of the file, from the repository root, to get the definitions of'), ref },
  body: null,
  success: 200,
  response: EditorConfigDefinition.schema,
  responseSchema: EditorConfigDefinition.ref,
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 403, reason: 'token scope' }, { code: 404, reason: 'no .editorconfig, or no section matches the file' }],
});
