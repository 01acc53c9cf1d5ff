import { defineGiteaOperation, reply } from '../operation.js';
import { GeneralAPISettings, GeneralAttachmentSettings, GeneralRepoSettings, GeneralUISettings } from '../models/settings.js';

const open = { params: {}, body: null, success: 200, scopes: [], guards: [], errors: [] } as const;

export const getGeneralAPISettings = defineGiteaOperation({
  ...open,
  operationId: 'getGeneralAPISettings',
  method: 'GET',
  path: '/settings/api',
  tags: ['settings'],
  summary: 'The paging and size limits this server applies to API answers',
  response: reply.one(GeneralAPISettings),
});

export const getGeneralRepositorySettings = defineGiteaOperation({
  ...open,
  operationId: 'getGeneralRepositorySettings',
  method: 'GET',
  path: '/settings/repository',
  tags: ['settings'],
  summary: 'Which repository features (mirrors, migrations, LFS, …) are switched off here',
  response: reply.one(GeneralRepoSettings),
});

export const getGeneralUISettings = defineGiteaOperation({
  ...open,
  operationId: 'getGeneralUISettings',
  method: 'GET',
  path: '/settings/ui',
  tags: ['settings'],
  summary: 'Interface settings a web front end would use',
  response: reply.one(GeneralUISettings),
});

export const getGeneralAttachmentSettings = defineGiteaOperation({
  ...open,
  operationId: 'getGeneralAttachmentSettings',
  method: 'GET',
  path: '/settings/attachment',
  tags: ['settings'],
  summary: 'Whether attachments can be uploaded, and their limits',
  response: reply.one(GeneralAttachmentSettings),
});
