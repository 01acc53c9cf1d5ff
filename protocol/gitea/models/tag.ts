import { rq, requestModel } from '../request.js';
import { responseModel, t } from '../schema.js';
import { CommitMeta } from './contents.js';

/** A tag as the tags API shows it. */
export const Tag = responseModel('Tag', 'A tag: annotated (a tag object with its own id and message) or lightweight (the commit\'s id and message).', {
  name: t.string(),
  message: t.string(),
  id: t.string('The tag object\'s id, or the commit\'s for a lightweight tag.'),
  commit: t.ref(CommitMeta, 'The tagged commit; `created` is the tagger\'s time (the committer\'s for a lightweight tag).'),
  zipball_url: t.string(),
  tarball_url: t.string(),
});

export const CreateTagOption = requestModel('CreateTagOption', 'A new tag.', {
  tag_name: rq.string('TagName', { required: true, gitRefName: true }, 'Name of the tag (a valid git reference name).'),
  message: rq.string('Message', {}, 'With a message the tag is annotated (tagged by the caller); without, lightweight.'),
  target: rq.string('Target', {}, 'Branch, tag or full commit id to tag; the default branch when empty.'),
});
