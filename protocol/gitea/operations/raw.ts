import { defineGiteaOperation, gp, reply, repoParams } from '../operation.js';
import { EditorConfigDefinition } from '../models/contents.js';

const ref = gp.query('Branch, tag or commit id; it is put in front of filepath, which is then read as filepath says.');
const filepath = (description: string) => gp.path(description, { wildcard: true });
const scopes = ['repository'] as const;

const rawParams = { ...repoParams, filepath: filepath('Path of the file, optionally led by a branch, a tag, `HEAD` or a full commit id (`main/docs/a.md`); when no such lead matches, the whole path is read on the default branch.'), ref };

export const repoGetRawFile = defineGiteaOperation({
  operationId: 'repoGetRawFile',
  method: 'GET',
  path: '/repos/{owner}/{repo}/raw/{filepath}',
  tags: ['repository'],
  summary: 'A file\'s bytes as git stores them (an LFS file answers its pointer), with ranges and conditional requests',
  params: rawParams,
  body: null,
  success: 200,
  alsoSuccess: [206, 304],
  response: reply.file,
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
  summary: 'As raw, except that an LFS pointer whose object this server holds is answered with the object',
  params: rawParams,
  body: null,
  success: 200,
  alsoSuccess: [206, 304],
  response: reply.file,
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
  summary: 'The tree at a branch, tag or commit as a zip, a tar.gz or a git bundle, streamed while git builds it',
  params: { ...repoParams, archive: filepath('The ref followed by the format: `main.zip`, `v1.0.tar.gz`, `<commit>.bundle`.'), path: gp.query('Put only this path in a zip or tar.gz; repeat the parameter for several (bundles take none).') },
  body: null,
  success: 200,
  response: reply.file,
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
  summary: 'The settings the repository\'s .editorconfig gives a file',
  params: { ...repoParams, filepath: filepath('Path of the file, from the repository root.'), ref: gp.query('Branch, tag, `HEAD` or full commit id to read .editorconfig at; the default branch when left out or when it names none of these.') },
  body: null,
  success: 200,
  response: reply.one(EditorConfigDefinition),
  scopes,
  guards: ['repo', 'reader'],
  errors: [{ code: 403, reason: 'token scope' }, { code: 404, reason: 'no .editorconfig, or no section matches the file' }],
});
