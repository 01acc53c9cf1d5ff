import * as ops from '../../../protocol/gitea/operations/raw.js';
import type { GiteaBinder } from '../http/bind.js';
import type { Site } from '../site.js';
import { ARCHIVE_CONTENT_TYPE, type createArchives } from '../services/archive.js';
import { ArchiveBusy, type ArchiveSlot, type ArchiveSlots } from '../services/archive-slots.js';
import { contentDisposition } from '../web/content-disposition.js';

/** Seconds a client refused for load is told to wait (Retry-After). */
const RETRY_AFTER_S = 5;

/**
 * /archive/{ref}.{zip|tar.gz|bundle}: streamed from git as it is produced
 * (Gitea with STREAM_ARCHIVES). Each archive runs a git process, so they are
 * admitted by g.archiveSlots (ARCHIVE_MAX_CONCURRENT in all, ARCHIVE_MAX_PER_CLIENT
 * per user or, for anonymous callers, per address, ARCHIVE_QUEUE_LENGTH waiting);
 * the slot is released when git exits: the archive is complete, or the client
 * went away and git was killed. Beyond the queue: 429 for a client over its
 * share, 503 when the queue is full, both with Retry-After (Gitea sets no such
 * limit, so no answer of its own applies).
 */
export function mountArchive(b: GiteaBinder, g: { archives: ReturnType<typeof createArchives>; site: Site; archiveSlots: ArchiveSlots }): void {
  const slots = g.archiveSlots;
  b.mount(ops.repoGetArchive, async ({ archive }, ctx) => {
    const repo = ctx.repo!;
    const r = await g.archives.request(repo, archive, ctx.url.searchParams.getAll('path'));
    const ext = r.format;
    const headers = {
      'content-type': ARCHIVE_CONTENT_TYPE[r.format],
      'content-disposition': contentDisposition('attachment', `${repo.row.name}-${r.refName.replaceAll('/', '-')}.${ext}`),
      'access-control-expose-headers': 'Content-Disposition',
      'x-content-type-options': 'nosniff',
      'cache-control': 'max-age=0, private, must-revalidate',
      // Nix's lockable tarball protocol: where this exact content stays available.
      link: `<${g.site.repoApi(repo.owner, repo.row)}/archive/${r.commit}.${ext}?rev=${r.commit}>; rel="immutable"`,
    };
    // The length is unknown until git has finished, so HEAD answers without running it.
    if (ctx.req.method === 'HEAD') return new Response(null, { status: 200, headers });
    let slot: ArchiveSlot;
    try {
      slot = await slots.acquire(ctx.doer ? `user:${ctx.doer.id}` : `addr:${ctx.remoteAddress}`, ctx.req.signal);
    } catch (err) {
      if (err instanceof ArchiveBusy) return b.errorResponse(err.who === 'client' ? 429 : 503, `${err.message}; try again later`, { 'retry-after': String(RETRY_AFTER_S) });
      if (ctx.req.signal.aborted) return new Response(null, { status: 200, headers }); // left while waiting: owed nothing
      throw err;
    }
    let out: Awaited<ReturnType<typeof g.archives.start>>;
    try {
      out = await g.archives.start(repo, r);
    } catch (err) {
      slot.release();
      throw err;
    }
    void out.done.then(() => slot.release());
    if (ctx.req.signal.aborted) out.kill();
    ctx.req.signal.addEventListener('abort', () => out.kill(), { once: true });
    try {
      await out.peek(1); // a git that fails before writing anything still gets an error status
    } catch (err) {
      out.kill();
      // A client that left while git prepared (the abort killed git) is owed nothing, least of all a 500.
      if (ctx.req.signal.aborted) return new Response(null, { status: 200, headers });
      throw err;
    }
    return new Response(out.stream(), { status: 200, headers });
  });
}
