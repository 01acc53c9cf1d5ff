import * as ops from '../../../protocol/gitea/operations/mirrors.js';
import type { GiteaBinder } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { paged } from '../http/paginate.js';
import type { MirrorScheduler } from '../services/mirror-scheduler.js';
import type { PushMirrors } from '../services/push-mirrors.js';
import type { Site } from '../site.js';

/** What the mirror routes use. */
export interface MirrorRoutesDeps {
  site: Site;
  pushMirrors: PushMirrors;
  mirrors: Pick<MirrorScheduler, 'schedule' | 'queue'>;
}

/** Push mirrors and pull-mirror sync (spec: mirror operations). Every one answers 400 while MIRROR_ENABLED is off (the `mirrorsEnabled` guard). */
export function mountMirrors(b: GiteaBinder, g: MirrorRoutesDeps): void {
  b.mount(ops.repoListPushMirrors, ({ page, limit }, ctx) => {
    const repo = ctx.repo!;
    const reply = paged(g.pushMirrors.list(repo), ctx.url, g.site, page, limit);
    return new Reply(200, reply.body.map((m) => g.pushMirrors.toJson(repo, m)), reply.headers);
  });

  b.mount(ops.repoGetPushMirrorByRemoteName, ({ name }, ctx) => g.pushMirrors.toJson(ctx.repo!, g.pushMirrors.get(ctx.repo!, name)));

  b.mount(ops.repoAddPushMirror, async ({ body }, ctx) => {
    const row = await g.pushMirrors.add(ctx.repo!, ctx.doer!, body);
    g.mirrors.schedule('push', row.id, row.interval_ns);
    return g.pushMirrors.toJson(ctx.repo!, row);
  });

  b.mount(ops.repoDeletePushMirror, async ({ name }, ctx) => {
    await g.pushMirrors.remove(ctx.repo!, name);
  });

  b.mount(ops.repoPushMirrorSync, async (_args, ctx) => {
    await g.pushMirrors.syncAll(ctx.repo!);
  });

  b.mount(ops.repoMirrorSync, (_args, ctx) => {
    g.mirrors.queue.enqueue('pull', ctx.repo!.row.id, 'manual');
  });
}
