import * as ops from '../../../protocol/gitea/operations/oauth2-apps.js';
import type { ModelOf } from '../../../protocol/model.js';
import type { OAuth2Application } from '../../../protocol/gitea/index.js';
import type { OAuth2AppRow } from '../../db/repos/oauth2-app-repo.js';
import { goTime } from '../../util/go-format.js';
import type { GiteaBinder } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { pageHeaders, pageOf } from '../http/paginate.js';
import { redirectUrisOf, type OAuth2AppInput, type OAuth2Apps } from '../services/oauth2-apps.js';
import type { Site } from '../site.js';

/** Gitea's ToOAuth2Application; `secret` only in the answers that issue one. */
function toOAuth2Application(a: OAuth2AppRow, secret = ''): ModelOf<typeof OAuth2Application> {
  return {
    id: a.id,
    name: a.name,
    client_id: a.client_id,
    client_secret: secret,
    confidential_client: !!a.confidential_client,
    skip_secondary_authorization: !!a.skip_secondary_authorization,
    redirect_uris: redirectUrisOf(a),
    created: goTime(a.created_at),
  };
}

type Body = { name?: string; redirect_uris?: string[]; confidential_client?: boolean; skip_secondary_authorization?: boolean };
const inputOf = (b: Body): OAuth2AppInput => ({
  name: b.name ?? '',
  redirectUris: b.redirect_uris ?? [],
  confidential: b.confidential_client ?? false,
  skipSecondaryAuthorization: b.skip_secondary_authorization ?? false,
});

/** The signed-in user's OAuth2 applications (`/user/applications/oauth2`). */
export function mountOAuth2Apps(b: GiteaBinder, g: { site: Site; apps: OAuth2Apps }): void {
  // Gitea's id parameter is ParamsInt64: anything else is 0, which names no application.
  const idOf = (raw: string) => (/^\d{1,15}$/.test(raw) ? Number(raw) : 0);

  b.mount(ops.userGetOauth2Application, ({ page, limit }, ctx) => {
    const p = pageOf(page, limit);
    // A page far past the end is empty (its offset kept an integer SQLite can bind).
    const { rows, total } = g.apps.page(ctx.doer!, p.limit, Math.min((p.page - 1) * p.limit, Number.MAX_SAFE_INTEGER));
    return new Reply(200, rows.map((a) => toOAuth2Application(a)), pageHeaders(ctx.url, g.site, total, p.limit, page));
  });
  b.mount(ops.userCreateOAuth2Application, ({ body }, ctx) => {
    const { row, secret } = g.apps.create(ctx.doer!, inputOf(body));
    return new Reply(201, toOAuth2Application(row, secret));
  });
  b.mount(ops.userGetOAuth2Application, ({ id }, ctx) => toOAuth2Application(g.apps.get(ctx.doer!, idOf(id))));
  b.mount(ops.userUpdateOAuth2Application, ({ id, body }, ctx) => {
    const { row, secret } = g.apps.update(ctx.doer!, idOf(id), inputOf(body));
    return toOAuth2Application(row, secret);
  });
  b.mount(ops.userDeleteOAuth2Application, ({ id }, ctx) => {
    g.apps.remove(ctx.doer!, idOf(id));
  });
}
