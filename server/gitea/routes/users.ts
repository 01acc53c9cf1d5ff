import * as ops from '../../../protocol/gitea/operations/users.js';
import { getVersion } from '../../../protocol/gitea/operations/misc.js';
import { GITEA_API_VERSION } from '../../../protocol/gitea/swagger.js';
import { toAccessToken, toUser } from '../convert.js';
import type { GiteaBinder } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { paged } from '../http/paginate.js';
import type { Accounts } from '../services/accounts.js';
import type { Site } from '../site.js';

/** Version, users, the admin's user creation, and access tokens. */
export function mountUsers(b: GiteaBinder, g: { site: Site; accounts: Accounts }): void {
  b.mount(getVersion, () => ({ version: `${GITEA_API_VERSION}+trunkline` }));

  b.mount(ops.userGetCurrent, (_a, ctx) => toUser(ctx.doer!, g.site, ctx.doer));
  b.mount(ops.userGet, (_a, ctx) => toUser(ctx.contextUser!, g.site, ctx.doer));

  b.mount(ops.adminCreateUser, async ({ body }, ctx) => {
    const user = await g.accounts.createUser({
      username: body.username ?? '',
      email: body.email ?? '',
      password: body.password ?? '',
      fullName: body.full_name ?? '',
      isAdmin: body.admin ?? false,
      visibility: body.visibility ?? 'public',
      ...(body.created_at ? { createdAt: Math.floor(Date.parse(body.created_at) / 1000) } : {}),
    });
    return new Reply(201, toUser(user, g.site, ctx.doer));
  });

  b.mount(ops.userGetTokens, ({ page, limit }, ctx) =>
    paged(
      g.accounts.listTokens(ctx.contextUser!).map((t) => toAccessToken(t)),
      ctx.url,
      g.site,
      page,
      limit,
      { link: false },
    ),
  );
  b.mount(ops.userCreateToken, ({ body }, ctx) => {
    const { row, token } = g.accounts.createToken(ctx.contextUser!, body.name ?? '', body.scopes ?? []);
    return new Reply(201, toAccessToken(row, token));
  });
  b.mount(ops.userDeleteAccessToken, ({ token }, ctx) => {
    g.accounts.deleteToken(ctx.contextUser!, token);
  });
}
