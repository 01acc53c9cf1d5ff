import type { GOperation } from './operation.js';
import type { GModel } from './schema.js';
import * as branchModels from './models/branch.js';
import * as commitStatusModels from './models/commit-status.js';
import * as contentModels from './models/contents.js';
import * as fileOptionModels from './models/file-options.js';
import * as gitDataModels from './models/git-data.js';
import * as mirrorModels from './models/mirror.js';
import * as oauth2Models from './models/oauth2.js';
import * as orgModels from './models/org.js';
import * as releaseModels from './models/release.js';
import * as repoModels from './models/repository.js';
import * as settingsModels from './models/settings.js';
import * as tagModels from './models/tag.js';
import * as userModels from './models/user.js';
import * as branchOps from './operations/branches.js';
import * as branchWriteOps from './operations/branch-writes.js';
import * as commitOps from './operations/commits.js';
import * as contentOps from './operations/contents.js';
import * as discoveryOps from './operations/discovery.js';
import * as gitDataOps from './operations/git-data.js';
import * as miscOps from './operations/misc.js';
import * as mirrorOps from './operations/mirrors.js';
import * as oauth2AppOps from './operations/oauth2-apps.js';
import * as orgOps from './operations/orgs.js';
import * as releaseOps from './operations/releases.js';
import * as releaseAssetOps from './operations/release-assets.js';
import * as repoOps from './operations/repos.js';
import * as rawOps from './operations/raw.js';
import * as settingsOps from './operations/settings.js';
import * as tagOps from './operations/tags.js';
import * as userOps from './operations/users.js';

export * from './models/branch.js';
export * from './models/commit-status.js';
export * from './models/contents.js';
export * from './models/file-options.js';
export * from './models/git-data.js';
export * from './models/mirror.js';
export * from './models/oauth2.js';
export * from './models/org.js';
export * from './models/release.js';
export * from './models/repository.js';
export * from './models/settings.js';
export * from './models/tag.js';
export * from './models/user.js';
export * as branches from './operations/branches.js';
export * as branchWrites from './operations/branch-writes.js';
export * as commits from './operations/commits.js';
export * as contents from './operations/contents.js';
export * as discovery from './operations/discovery.js';
export * as gitData from './operations/git-data.js';
export * as misc from './operations/misc.js';
export * as mirrors from './operations/mirrors.js';
export * as oauth2Apps from './operations/oauth2-apps.js';
export * as orgs from './operations/orgs.js';
export * as releases from './operations/releases.js';
export * as releaseAssets from './operations/release-assets.js';
export * as repos from './operations/repos.js';
export * as raw from './operations/raw.js';
export * as settings from './operations/settings.js';
export * as tags from './operations/tags.js';
export * as users from './operations/users.js';

/** Every declared Gitea operation, for the served document and the drift gate. */
export const GITEA_OPERATIONS: readonly GOperation[] = [miscOps, settingsOps, userOps, oauth2AppOps, repoOps, discoveryOps, branchOps, branchWriteOps, tagOps, releaseOps, releaseAssetOps, contentOps, gitDataOps, commitOps, rawOps, mirrorOps, orgOps].flatMap((m) => Object.values(m) as GOperation[]);

/** Every declared model (response and request), by name. */
export const GITEA_MODELS: readonly GModel[] = [userModels, oauth2Models, repoModels, branchModels, contentModels, fileOptionModels, mirrorModels, gitDataModels, commitStatusModels, settingsModels, tagModels, releaseModels, orgModels].flatMap((m) =>
  (Object.values(m) as GModel[]).filter((x) => x && typeof x === 'object' && 'name' in x && 'ref' in x),
);
