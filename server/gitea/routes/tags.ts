import * as ops from '../../../protocol/gitea/operations/tags.js';
import type { GiteaBinder } from '../http/bind.js';
import { Reply } from '../http/bind.js';
import { paged } from '../http/paginate.js';
import type { Site } from '../site.js';
import type { Tags } from '../services/tags.js';

/** Tags: list, one, create, delete. */
export function mountTags(b: GiteaBinder, g: { site: Site; tags: Tags }): void {
  // Gitea pages the list only when a page is asked for (all tags otherwise) and sends no Link header.
  b.mount(ops.repoListTags, async ({ page, limit }, ctx) => {
    const all = await g.tags.list(ctx.repo!);
    if (page && page > 0) return paged(all, ctx.url, g.site, page, limit, { link: false });
    return new Reply(200, all, { 'X-Total-Count': String(all.length), 'Access-Control-Expose-Headers': 'X-Total-Count' });
  });
  b.mount(ops.repoGetTag, ({ tag }, ctx) => g.tags.get(ctx.repo!, tag));
  b.mount(ops.repoCreateTag, async ({ body }, ctx) => new Reply(201, await g.tags.create(ctx.repo!, ctx.doer!, { ...body, tag_name: body.tag_name ?? '' })));
  b.mount(ops.repoDeleteTag, ({ tag }, ctx) => g.tags.remove(ctx.repo!, tag));
}
