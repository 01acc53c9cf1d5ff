import * as ops from '../../../protocol/gitea/operations/settings.js';
import type { Config } from '../../config.js';
import type { GiteaBinder } from '../http/bind.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../http/paginate.js';
import { TREE_PAGE_MAX } from '../services/git-data.js';
import { DEFAULT_MAX_RESPONSE_SIZE } from '../services/contents-batch.js';


/** Gitea's default reactions and emojis: what a front end built for Gitea expects to find. */
const REACTIONS = ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'];
const EMOJIS = ['git', 'gitea', 'codeberg', 'gitlab', 'github', 'gogs'];

/** The instance settings clients read before they page or pick features: the limits and switches this server really applies. */
export function mountSettings(b: GiteaBinder, g: { config: Pick<Config, 'apiMaxBlobSize' | 'mirrorEnabled' | 'lfsEnabled' | 'attachmentMaxBytes' | 'releaseAllowedTypes'> }): void {
  b.mount(ops.getGeneralAPISettings, () => ({
    max_response_items: MAX_PAGE_SIZE,
    default_paging_num: DEFAULT_PAGE_SIZE,
    default_git_trees_per_page: TREE_PAGE_MAX,
    default_max_blob_size: g.config.apiMaxBlobSize,
    default_max_response_size: DEFAULT_MAX_RESPONSE_SIZE,
  }));
  // Stars and time tracking do not exist here, so they count as switched off; migrations (plain copies) always work.
  b.mount(ops.getGeneralRepositorySettings, () => ({
    mirrors_disabled: !g.config.mirrorEnabled,
    http_git_disabled: false,
    migrations_disabled: false,
    stars_disabled: true,
    time_tracking_disabled: true,
    lfs_disabled: !g.config.lfsEnabled,
  }));
  b.mount(ops.getGeneralUISettings, () => ({ default_theme: 'gitea-auto', allowed_reactions: REACTIONS, custom_emojis: EMOJIS }));
  // Release files are the only attachments here: their limits (max_files is Gitea's default, a web form's count, which the API does not hold uploads to).
  b.mount(ops.getGeneralAttachmentSettings, () => ({
    enabled: true,
    allowed_types: g.config.releaseAllowedTypes,
    max_size: g.config.attachmentMaxBytes / (1024 * 1024),
    max_files: 5,
  }));
}
