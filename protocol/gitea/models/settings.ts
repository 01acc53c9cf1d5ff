import { responseModel, t } from '../schema.js';

/** The paging and size limits the API applies (Gitea's [api] section). */
export const GeneralAPISettings = responseModel('GeneralAPISettings', 'The limits this server applies to API answers.', {
  max_response_items: t.int64('The largest page a list answers with.'),
  default_paging_num: t.int64('The page size when a request names none.'),
  default_git_trees_per_page: t.int64('The page size of git tree listings when a request names none (also their largest).'),
  default_max_blob_size: t.int64('The largest file, in bytes, whose content a contents answer carries inline.'),
  default_max_response_size: t.int64('The largest answer, in bytes, that batch file reads aim to stay under.'),
});

/** Which repository features the server has switched off. */
export const GeneralRepoSettings = responseModel('GeneralRepoSettings', 'Repository features this server has switched off.', {
  mirrors_disabled: t.bool(),
  http_git_disabled: t.bool(),
  migrations_disabled: t.bool(),
  stars_disabled: t.bool(),
  time_tracking_disabled: t.bool(),
  lfs_disabled: t.bool(),
});

/** What a web front end would show; this server has no web interface of its own, so these are fixed. */
export const GeneralUISettings = responseModel('GeneralUISettings', 'Interface settings (fixed: this server has no web front end of its own).', {
  default_theme: t.string(),
  allowed_reactions: t.strings(),
  custom_emojis: t.strings(),
});

/** Attachment uploads: here, release files. */
export const GeneralAttachmentSettings = responseModel('GeneralAttachmentSettings', 'Attachment uploads (release files here): their allowed types and largest size.', {
  enabled: t.bool(),
  allowed_types: t.string(),
  max_size: t.int64('In MiB.'),
  max_files: t.int64(),
});
