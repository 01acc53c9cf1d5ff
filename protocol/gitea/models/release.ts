import { rq, requestModel } from '../request.js';
import { nullable, responseModel, t } from '../schema.js';
import { User } from './user.js';

/** The longest release body taken (Gitea sets no limit; a note is text a page shows whole). */
export const MAX_RELEASE_NOTE = 1024 * 1024;

/** A file attached to a release. */
export const Attachment = responseModel('Attachment', 'A file attached to a release.', {
  id: t.int64(),
  name: t.string('The file name downloads are offered under.'),
  size: t.int64('In bytes.'),
  download_count: t.int64('How many times the file was fetched.'),
  created_at: t.datetime(),
  uuid: t.string('The file\'s lasting identity (names can change and repeat).'),
  browser_download_url: t.string('Where the bytes are fetched: /attachments/{uuid} under ROOT_URL.'),
});

export const EditAttachmentOptions = requestModel('EditAttachmentOptions', 'A new name for a release file.', {
  name: rq.string('Name', {}, 'The new name (empty: unchanged); held to the allowed types.'),
});

export const Release = responseModel('Release', 'Notes published for a tag; a draft has no tag of its own until it is published.', {
  id: t.int64(),
  tag_name: t.string(),
  target_commitish: t.string('The branch or commit the tag was (or will be) made from, as given; may be empty when the tag existed first.'),
  name: t.string('The release\'s title.'),
  body: t.string('The release notes, as written.'),
  url: t.string(),
  html_url: t.string(),
  tarball_url: t.string(),
  zipball_url: t.string(),
  upload_url: t.string(),
  draft: t.bool(),
  prerelease: t.bool(),
  created_at: t.datetime(),
  published_at: nullable(t.datetime('When the release was last published; null for a draft.')),
  author: t.ref(User, 'Who published the release (Gitea\'s ghost user once the account is gone).'),
  assets: t.array(Attachment, 'The release\'s files, by name.'),
});

export const CreateReleaseOption = requestModel('CreateReleaseOption', 'A new release.', {
  tag_name: rq.string('TagName', { required: true }, 'The tag to publish; made from target_commitish when it does not exist and the release is not a draft.'),
  target_commitish: rq.string('Target', {}, 'Branch, tag or commit to make the tag from; the default branch when empty.'),
  name: rq.string('Title', {}, 'Title (longer ones are cut to 255 characters).'),
  body: rq.string('Note', { maxSize: MAX_RELEASE_NOTE }, 'Release notes.'),
  draft: rq.bool('IsDraft', 'A draft is seen by writers only and makes no tag.'),
  prerelease: rq.bool('IsPrerelease'),
  tag_message: rq.string('TagMessage', {}, 'With a message the tag made is annotated (tagged by the caller); without, lightweight.'),
});

export const EditReleaseOption = requestModel('EditReleaseOption', 'Changes to a release: what is left out or empty stays as it was.', {
  tag_name: rq.string('TagName'),
  target_commitish: rq.string('Target'),
  name: rq.string('Title'),
  body: rq.string('Note', { maxSize: MAX_RELEASE_NOTE }),
  draft: rq.bool('IsDraft', 'Publishing a draft makes its tag when it does not exist.'),
  prerelease: rq.bool('IsPrerelease'),
});
