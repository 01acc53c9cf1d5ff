import { rq, requestModel } from '../request.js';
import { responseModel, t } from '../schema.js';

/** Gitea's User; `username` (same as `login`) comes last, as Gitea's MarshalJSON adds it. */
export const User = responseModel('User', 'User represents a user', {
  id: t.int64('the user\'s id'),
  login: t.string('login of the user, same as `username`'),
  login_name: t.string('identifier of the user, provided by the external authenticator (if configured)'),
  source_id: t.int64('The ID of the user\'s Authentication Source'),
  full_name: t.string('the user\'s full name'),
  email: t.string(),
  avatar_url: t.string('URL to the user\'s avatar'),
  html_url: t.string('URL to the user\'s gitea page'),
  language: t.string('User locale'),
  is_admin: t.bool('Is the user an administrator'),
  last_login: t.datetime(),
  created: t.datetime(),
  restricted: t.bool('Is user restricted'),
  active: t.bool('Is user active'),
  prohibit_login: t.bool('Is user login prohibited'),
  location: t.string('the user\'s location'),
  website: t.string('the user\'s website'),
  description: t.string('the user\'s description'),
  visibility: t.enum(['public', 'limited', 'private'], 'User visibility level option: public, limited, private'),
  followers_count: t.int64(),
  following_count: t.int64(),
  starred_repos_count: t.int64(),
  username: t.string('the user\'s username, same as `login`'),
});

export const AccessToken = responseModel('AccessToken', 'AccessToken represents an API access token.', {
  id: t.int64(),
  name: t.string(),
  sha1: t.string('the token itself; only filled when the token is created'),
  token_last_eight: t.string(),
  scopes: t.strings(),
  created_at: t.datetime(),
  last_used_at: t.datetime(),
});

export const CreateAccessTokenOption = requestModel('CreateAccessTokenOption', 'CreateAccessTokenOption options when create access token', {
  name: rq.string('Name', { required: true }),
  scopes: rq.strings('Scopes'),
});

export const CreateUserOption = requestModel('CreateUserOption', 'CreateUserOption create user options', {
  source_id: rq.int64('SourceID'),
  login_name: rq.string('LoginName'),
  username: rq.string('Username', { required: true, username: true, maxSize: 40 }),
  full_name: rq.string('FullName', { maxSize: 100 }),
  email: rq.string('Email', { required: true, email: true, maxSize: 254 }),
  password: rq.string('Password', { maxSize: 255 }),
  must_change_password: rq.bool('MustChangePassword'),
  send_notify: rq.bool('SendNotify'),
  restricted: rq.bool('Restricted'),
  visibility: rq.string('Visibility', { in: ['', 'public', 'limited', 'private'] }),
  created_at: rq.datetime('Created'),
  /** A Trunkline extension: create the user as a site administrator. */
  admin: rq.bool('Admin', 'create the user as a site administrator (Trunkline extension)'),
});

export const ServerVersion = responseModel('ServerVersion', 'ServerVersion wraps the version of the server', {
  version: t.string(),
});
