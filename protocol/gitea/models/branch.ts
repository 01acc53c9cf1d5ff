import { rq, requestModel } from '../request.js';
import { nullable, responseModel, t } from '../schema.js';
import { PayloadCommitVerification, PayloadUser } from './contents.js';

export const PayloadCommit = responseModel('PayloadCommit', 'A commit as a branch reports its head.', {
  id: t.string('Commit id.'),
  message: t.string(),
  url: t.string(),
  author: t.refOrNull(PayloadUser),
  committer: t.refOrNull(PayloadUser),
  verification: t.refOrNull(PayloadCommitVerification),
  timestamp: t.datetime(),
  added: nullable(t.strings()),
  removed: nullable(t.strings()),
  modified: nullable(t.strings()),
});

export const Branch = responseModel('Branch', 'A branch, its head commit, and what the caller may do with it.', {
  name: t.string(),
  commit: t.refOrNull(PayloadCommit),
  protected: t.bool(),
  required_approvals: t.int64(),
  enable_status_check: t.bool(),
  status_check_contexts: t.strings(),
  user_can_push: t.bool(),
  user_can_merge: t.bool(),
  effective_branch_protection_name: t.string(),
});

/** Fields a protection rule carries, in Gitea's order; push and file rules are enforced, review rules only stored (there are no pull requests here). */
const protectionFields = {
  enable_push: rq.bool('EnablePush'),
  enable_push_whitelist: rq.bool('EnablePushWhitelist'),
  push_whitelist_usernames: rq.strings('PushWhitelistUsernames'),
  push_whitelist_teams: rq.strings('PushWhitelistTeams'),
  push_whitelist_deploy_keys: rq.bool('PushWhitelistDeployKeys'),
  enable_force_push: rq.bool('EnableForcePush'),
  enable_force_push_allowlist: rq.bool('EnableForcePushAllowlist'),
  force_push_allowlist_usernames: rq.strings('ForcePushAllowlistUsernames'),
  force_push_allowlist_teams: rq.strings('ForcePushAllowlistTeams'),
  force_push_allowlist_deploy_keys: rq.bool('ForcePushAllowlistDeployKeys'),
  enable_merge_whitelist: rq.bool('EnableMergeWhitelist'),
  merge_whitelist_usernames: rq.strings('MergeWhitelistUsernames'),
  merge_whitelist_teams: rq.strings('MergeWhitelistTeams'),
  enable_status_check: rq.bool('EnableStatusCheck'),
  status_check_contexts: rq.strings('StatusCheckContexts'),
  required_approvals: rq.int64('RequiredApprovals'),
  enable_approvals_whitelist: rq.bool('EnableApprovalsWhitelist'),
  approvals_whitelist_username: rq.strings('ApprovalsWhitelistUsernames'),
  approvals_whitelist_teams: rq.strings('ApprovalsWhitelistTeams'),
  block_on_rejected_reviews: rq.bool('BlockOnRejectedReviews'),
  block_on_official_review_requests: rq.bool('BlockOnOfficialReviewRequests'),
  block_on_outdated_branch: rq.bool('BlockOnOutdatedBranch'),
  dismiss_stale_approvals: rq.bool('DismissStaleApprovals'),
  ignore_stale_approvals: rq.bool('IgnoreStaleApprovals'),
  require_signed_commits: rq.bool('RequireSignedCommits'),
  protected_file_patterns: rq.string('ProtectedFilePatterns'),
  unprotected_file_patterns: rq.string('UnprotectedFilePatterns'),
  block_admin_merge_override: rq.bool('BlockAdminMergeOverride'),
};

export const CreateBranchProtectionOption = requestModel('CreateBranchProtectionOption', 'Body of a new protection rule. Push and file rules are enforced; review rules are only kept, as there are no pull requests here.', {
  branch_name: rq.string('BranchName', {}, 'Older spelling of rule_name, used when rule_name is empty.'),
  rule_name: rq.string('RuleName'),
  priority: rq.int64('Priority'),
  ...protectionFields,
});

export const EditBranchProtectionOption = requestModel('EditBranchProtectionOption', 'Changes to a protection rule; a field left out keeps its value.', {
  priority: rq.int64('Priority'),
  ...protectionFields,
});

export const BranchProtection = responseModel('BranchProtection', 'A protection rule: which pushes and file changes the branches it matches accept.', {
  branch_name: t.string('Older spelling of rule_name: the same for a plain branch name, empty for a glob pattern.'),
  rule_name: t.string(),
  priority: t.int64(),
  enable_push: t.bool(),
  enable_push_whitelist: t.bool(),
  push_whitelist_usernames: t.strings(),
  push_whitelist_teams: t.strings(),
  push_whitelist_deploy_keys: t.bool(),
  enable_force_push: t.bool(),
  enable_force_push_allowlist: t.bool(),
  force_push_allowlist_usernames: t.strings(),
  force_push_allowlist_teams: t.strings(),
  force_push_allowlist_deploy_keys: t.bool(),
  enable_merge_whitelist: t.bool(),
  merge_whitelist_usernames: t.strings(),
  merge_whitelist_teams: t.strings(),
  enable_status_check: t.bool(),
  status_check_contexts: t.strings(),
  required_approvals: t.int64(),
  enable_approvals_whitelist: t.bool(),
  approvals_whitelist_username: t.strings(),
  approvals_whitelist_teams: t.strings(),
  block_on_rejected_reviews: t.bool(),
  block_on_official_review_requests: t.bool(),
  block_on_outdated_branch: t.bool(),
  dismiss_stale_approvals: t.bool(),
  ignore_stale_approvals: t.bool(),
  require_signed_commits: t.bool(),
  protected_file_patterns: t.string(),
  unprotected_file_patterns: t.string(),
  block_admin_merge_override: t.bool(),
  created_at: t.datetime(),
  updated_at: t.datetime(),
});

export const CreateBranchRepoOption = requestModel('CreateBranchRepoOption', 'Where a new branch starts.', {
  new_branch_name: rq.string('BranchName', { required: true, gitRefName: true, maxSize: 100 }, 'Name of the new branch.'),
  old_branch_name: rq.string('OldBranchName', { gitRefName: true, maxSize: 100 }, 'Deprecated: a branch to start from (use old_ref_name).'),
  old_ref_name: rq.string('OldRefName', { gitRefName: true, maxSize: 100 }, 'A branch, tag or commit id to start from; the default branch when neither this nor old_branch_name is given.'),
});
