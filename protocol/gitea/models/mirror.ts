import { rq, requestModel } from '../request.js';
import { responseModel, t } from '../schema.js';

export const PushMirror = responseModel('PushMirror', 'A remote this repository is pushed to.', {
  repo_name: t.string(),
  remote_name: t.string('`remote_mirror_` and 10 random characters'),
  remote_address: t.string('the address with any credentials removed'),
  created: t.datetime(),
  last_update: t.datetime('the Unix epoch until the first sync'),
  last_error: t.string('empty when the last sync succeeded; credentials masked'),
  interval: t.string('Go duration (`8h0m0s`, `0s` for no scheduled sync)'),
  sync_on_commit: t.bool(),
  public_key: t.string('with use_ssh: the OpenSSH public key to install on the remote (`ssh-ed25519 …`); empty otherwise'),
});

export const CreatePushMirrorOption = requestModel('CreatePushMirrorOption', 'Body of a new push mirror: the remote, how to sign in to it, and when to push.', {
  remote_address: rq.string('RemoteAddress'),
  remote_username: rq.string('RemoteUsername'),
  remote_password: rq.string('RemotePassword'),
  interval: rq.string('Interval', {}, 'Go duration string, e.g. `8h0m0s`; `0` for no scheduled sync'),
  sync_on_commit: rq.bool('SyncOnCommit'),
  use_ssh: rq.bool('UseSSH', 'authenticate with a generated ed25519 key pair (exclusive with remote_username/remote_password)'),
});

export const MigrateRepoOptions = requestModel('MigrateRepoOptions', 'Body of a migration: what to copy, who owns the copy, and whether it stays a mirror.', {
  clone_addr: rq.string('CloneAddr', { required: true }),
  uid: rq.int64('RepoOwnerID', {}, 'Accepted and ignored; repo_owner names the owner.'),
  repo_owner: rq.string('RepoOwner', {}, 'Account that owns the new repository: the caller when empty; someone else only for site admins.'),
  repo_name: rq.string('RepoName', { required: true, alphaDashDot: true, maxSize: 100 }),
  service: rq.string('Service', { in: ['', 'git', 'github', 'gitea', 'gitlab', 'gogs', 'onedev', 'gitbucket', 'codebase', 'codecommit'] }),
  auth_username: rq.string('AuthUsername'),
  auth_password: rq.string('AuthPassword'),
  auth_token: rq.string('AuthToken'),
  mirror: rq.bool('Mirror'),
  lfs: rq.bool('LFS'),
  lfs_endpoint: rq.string('LFSEndpoint'),
  private: rq.bool('Private'),
  description: rq.string('Description', { maxSize: 2048 }),
  wiki: rq.bool('Wiki'),
  milestones: rq.bool('Milestones'),
  labels: rq.bool('Labels'),
  issues: rq.bool('Issues'),
  pull_requests: rq.bool('PullRequests'),
  releases: rq.bool('Releases'),
  mirror_interval: rq.string('MirrorInterval', {}, 'Go duration; empty: MIRROR_DEFAULT_INTERVAL'),
});
