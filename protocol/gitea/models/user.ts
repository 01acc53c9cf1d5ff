import { rq, requestModel } from '../request.js';
import { responseModel, t } from '../schema.js';

/** Gitea's User; `username` (same as `login`) comes last, as Gitea's MarshalJSON adds it. */
export const User = responseModel('User', 'A user account, as the caller may see it.', {
  id: t.int64('Numeric id.'),
  login: t.string('User name (repeated in `username`).'),
  login_name: t.string('Name at an external sign-in source; always empty here.'),
  source_id: t.int64('External sign-in source; always 0 here (local accounts only).'),
  full_name: t.string('Display name.'),
  email: t.string(),
  avatar_url: t.string('Avatar image address; empty here.'),
  html_url: t.string('Address of the user\'s web page.'),
  language: t.string('Interface language; empty here.'),
  is_admin: t.bool('A site administrator (false unless the caller is this user or a site admin).'),
  last_login: t.datetime(),
  created: t.datetime(),
  restricted: t.bool('A restricted account; always false here.'),
  active: t.bool('The account is activated (false unless the caller is this user or a site admin).'),
  prohibit_login: t.bool('Sign-in is blocked (false unless the caller is this user or a site admin).'),
  location: t.string('Where the account is (an organisation\'s location; empty for a user here).'),
  website: t.string('The account\'s site (an organisation\'s website; empty for a user here).'),
  description: t.string('About the account (an organisation\'s description; empty for a user here).'),
  visibility: t.enum(['public', 'limited', 'private'], 'Who may see the account: everyone (public), signed-in users (limited), or the user and site admins (private).'),
  followers_count: t.int64(),
  following_count: t.int64(),
  starred_repos_count: t.int64(),
  username: t.string('Same as login.'),
});

export const AccessToken = responseModel('AccessToken', 'An API token; its secret appears only in the answer that creates it.', {
  id: t.int64(),
  name: t.string(),
  sha1: t.string('The secret: present only in the answer that creates the token, empty elsewhere.'),
  token_last_eight: t.string(),
  scopes: t.strings(),
  created_at: t.datetime(),
  last_used_at: t.datetime(),
});

export const CreateAccessTokenOption = requestModel('CreateAccessTokenOption', 'Body of a new token: a name not yet used by this user, and its scopes.', {
  name: rq.string('Name', { required: true }),
  scopes: rq.strings('Scopes'),
});

export const CreateUserOption = requestModel('CreateUserOption', 'Body of a new account.', {
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

export const ServerVersion = responseModel('ServerVersion', 'The API version the server follows.', {
  version: t.string(),
});
