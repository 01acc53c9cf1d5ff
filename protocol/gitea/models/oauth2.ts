import { rq, requestModel } from '../request.js';
import { responseModel, t } from '../schema.js';

/** Gitea's OAuth2Application, in its field order. */
export const OAuth2Application = responseModel('OAuth2Application', 'A registered OAuth2 client; its secret appears only in the answers that create or edit it.', {
  id: t.int64(),
  name: t.string(),
  client_id: t.string('The public identifier clients send as `client_id`.'),
  client_secret: t.string('The secret: present only when the application is created or edited (each edit issues a new one), empty elsewhere.'),
  confidential_client: t.bool('A client that keeps its secret (a server); a public one (a page, an app) signs in with PKCE instead.'),
  skip_secondary_authorization: t.bool('Once a user consented, later sign-ins skip the consent page (also for a public client).'),
  redirect_uris: t.strings('Where the user may be sent back to, matched exactly (a public client on a loopback IP may use any port).'),
  created: t.datetime(),
});

/** Body of a new or edited OAuth2 application (Gitea uses one struct for both). */
export const CreateOAuth2ApplicationOptions = requestModel('CreateOAuth2ApplicationOptions', 'Body of a new or edited OAuth2 application.', {
  name: rq.string('Name', { required: true, maxSize: 255 }),
  confidential_client: rq.bool('ConfidentialClient'),
  skip_secondary_authorization: rq.bool('SkipSecondaryAuthorization'),
  redirect_uris: rq.strings('RedirectURIs', { required: true, maxSize: 20 }),
});
