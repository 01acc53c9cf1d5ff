import * as ops from '../../../protocol/gitea/operations/mirrors.js';
import { badRequest } from '../../errors.js';
import type { GiteaBinder } from '../http/gitea-bind.js';
import { Reply } from '../http/gitea-bind.js';
import { paged } from '../http/paginate.js';
import type { MirrorScheduler } from '../services/mirror-scheduler.js';
import type { PushMirrors } from '../services/push-mirrors.js';
import type { Site } from '../site.js';

/** What the mirror routes use. */
export interface MirrorRoutesDeps {
  config: { mirrorEnabled: boolean };
  site: Site;
  pushMirrors: PushMirrors;
  mirrors: Pick<MirrorScheduler, 'schedule' | 'queue'>;
}

/** Push mirrors and pull-mirror sync (spec: mirror operations). Every one answers 400 while MIRROR_ENABLED is off. */
export function mountMirrors(b: GiteaBinder, g: MirrorRoutesDeps): void {
  const enabled = () => {
    if (!g.config.mirrorEnabled) throw badRequest('Mirror feature is disabled');
  };

  b.mount(ops.repoListPushMirrors, ({ page, limit }, ctx) => {
    enabled();
    const repo = ctx.repo!;
    const reply = paged(g.pushMirrors.list(repo), ctx.url, g.site, page, limit);
    return new Reply(200, reply.body.map((m) => g.pushMirrors.toJson(repo, m)), reply.headers);
  });

  b.mount(ops.repoGetPushMirrorByRemoteName, ({ name }, ctx) => {
    enabled();
    return g.pushMirrors.toJson(ctx.repo!, g.pushMirrors.get(ctx.repo!, name));
  });

  b.mount(ops.repoAddPushMirror, async ({ body }, ctx) => {
    enabled();
    const row = await g.pushMirrors.add(ctx.repo!, ctx.doer!, body);
    g.mirrors.schedule('push', row.id, row.interval_ns);
    return g.pushMirrors.toJson(ctx.repo!, row);
  });

  b.mount(ops.repoDeletePushMirror, async ({ name }, ctx) => {
    enabled();
    await g.pushMirrors.remove(ctx.repo!, name);
  });

  b.mount(ops.repoPushMirrorSync, async (_args, ctx) => {
    enabled();
    await g.pushMirrors.syncAll(ctx.repo!);
  });

  b.mount(ops.repoMirrorSync, (_args, ctx) => {
    enabled();
    if (!ctx.repo!.row.is_mirror) throw badRequest('Repository is not a mirror');
    g.mirrors.queue.enqueue('pull', ctx.repo!.row.id, 'manual');
  });
}
