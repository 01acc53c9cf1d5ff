import * as ops from '../../../protocol/gitea/operations/raw.js';
import type { GiteaBinder } from '../http/gitea-bind.js';
import type { Gitea } from '../gitea.js';
import { ARCHIVE_CONTENT_TYPE, archiveRequest, startArchive } from '../services/archive.js';
import { contentDisposition } from '../services/content-disposition.js';

/** /archive/{ref}.{zip|tar.gz|bundle}: streamed from git as it is produced (Gitea with STREAM_ARCHIVES). */
export function mountArchive(b: GiteaBinder, g: Gitea): void {
  b.mount(ops.repoGetArchive, async ({ archive }, ctx) => {
    const repo = ctx.repo!;
    const r = await archiveRequest(g.git, repo, archive, ctx.url.searchParams.getAll('path'));
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
    const out = await startArchive(repo, r);
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
