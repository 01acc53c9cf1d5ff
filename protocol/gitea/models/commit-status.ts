import { rq, requestModel } from '../request.js';
import { nullable, responseModel, t } from '../schema.js';
import { Repository } from './repository.js';
import { User } from './user.js';

/** The states a status may be created with. */
export const COMMIT_STATUS_STATES = ['pending', 'success', 'error', 'failure', 'warning', 'skipped'] as const;

export const CommitStatus = responseModel('CommitStatus', 'A status an outside service reported for a commit under a context name.', {
  id: t.int64('Position of the status among those of its commit, from 1.'),
  status: t.string('The state reported (Gitea names this field status).'),
  target_url: t.string(),
  description: t.string(),
  url: t.string(),
  context: t.string(),
  creator: t.refOrNull(User),
  created_at: t.datetime(),
  updated_at: t.datetime(),
});

export const CombinedStatus = responseModel('CombinedStatus', 'The newest status of each context of a commit, and the state they add up to.', {
  state: t.string('failure when a context reports error or failure; success when every context reports success, warning or skipped; pending otherwise; empty when the commit has no status.'),
  sha: t.string(),
  total_count: t.int64(),
  statuses: nullable(t.array(CommitStatus)),
  repository: t.refOrNull(Repository),
  commit_url: t.string(),
  url: t.string(),
});

export const CreateStatusOption = requestModel('CreateStatusOption', 'Body of a new commit status.', {
  state: rq.string('State', { required: true, in: COMMIT_STATUS_STATES }),
  target_url: rq.string('TargetURL', {}, 'Where the reporting service shows details.'),
  description: rq.string('Description'),
  context: rq.string('Context', {}, 'Name of the check; the newest status of each context counts.'),
});
