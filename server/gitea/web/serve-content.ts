import type { Content } from '../services/blob-source.js';
import { contentDisposition } from './content-disposition.js';
import { parseRange } from './http-range.js';
import { userContentHeaders } from '../services/sniff.js';

/** Gitea's StaticCacheTime (6 h): how long a raw file may be cached in production. */
const STATIC_CACHE_SECONDS = 6 * 60 * 60;

/** How to serve: extra headers, cache rules, precondition strictness, and the answer-cache hook. */
export interface ServeOptions {
  /** Sent on every answer, 304 included (the object type headers). */
  headers: Record<string, string>;
  /** Repository and owner are both public. */
  cachePublic: boolean;
  production: boolean;
  /**
   * RFC 9110 precedence (If-Modified-Since is ignored when If-None-Match is
   * present), which Go's http.ServeContent applies to LFS objects; Gitea's
   * generic blob cache checks both.
   */
  strictPreconditions?: boolean;
  /** Told the whole answer when it is a full 200 with its body in memory (for the caller's answer cache). */
  onFullAnswer?: (headers: Readonly<Record<string, string>>, body: Uint8Array) => void;
}

const httpDate = (epochSeconds: number) => new Date(epochSeconds * 1000).toUTCString();

/** Gitea's httpcache.SetCacheControlInHeader as ServeBlob uses it. */
export function cacheControl(isPublic: boolean, production: boolean): string {
  const pp = isPublic ? 'public' : 'private';
  return production ? `${pp}, max-age=${STATIC_CACHE_SECONDS}` : `max-age=0, ${pp}, must-revalidate`;
}

/** Gitea's checkIfNoneMatchIsValid / If-Modified-Since test (HandleGenericETagTimeCache). */
function notModified(req: Request, c: Content, strict: boolean): boolean {
  const inm = req.headers.get('if-none-match');
  if (inm && inm.split(',').some((item) => item.trim().replace(/^W\//, '') === c.etag)) return true;
  if (strict && inm) return false;
  const ims = req.headers.get('if-modified-since');
  if (ims && c.lastModified !== undefined) {
    const t = Date.parse(ims);
    if (!Number.isNaN(t) && c.lastModified <= Math.floor(t / 1000)) return true;
  }
  return false;
}

/**
 * Serves user content the way Gitea's ServeBlob does: ETag and Last-Modified
 * with 304s, a sniffed type that never lets a browser render HTML or run
 * scripts (nosniff, a sandboxing CSP), an inline disposition, cache rules by
 * visibility, Content-Length, and one byte range (206 / 416).
 */
export async function serveContent(req: Request, c: Content, opts: ServeOptions): Promise<Response> {
  const headers: Record<string, string> = { ...opts.headers, etag: c.etag };
  if (c.lastModified !== undefined) headers['last-modified'] = httpDate(c.lastModified);
  headers['cache-control'] = cacheControl(opts.cachePublic, opts.production);
  if (notModified(req, c, opts.strictPreconditions ?? false)) return new Response(null, { status: 304, headers });

  let head: Buffer;
  try {
    head = await c.head();
  } catch (err) {
    c.release?.();
    throw err;
  }
  const { contentType, csp } = userContentHeaders(head);
  Object.assign(headers, {
    'content-type': contentType,
    'x-content-type-options': 'nosniff',
    'content-security-policy': csp,
    'content-disposition': contentDisposition('inline', c.filename),
    'access-control-expose-headers': 'Content-Disposition',
    'accept-ranges': 'bytes',
  });
  const bodyless = req.method === 'HEAD';
  const range = parseRange(req.headers.get('range'), c.size, { etag: c.etag, ...(c.lastModified !== undefined ? { lastModified: c.lastModified } : {}), ifRange: req.headers.get('if-range') });
  if (range.kind === 'unsatisfiable') {
    c.release?.();
    return new Response(bodyless ? null : 'invalid start range\n', {
      status: 416,
      headers: { ...headers, 'content-type': 'text/plain; charset=utf-8', 'content-range': `bytes */${c.size}` },
    });
  }
  const [status, start, end] = range.kind === 'partial' ? [206, range.start, range.end] : [200, 0, c.size - 1];
  headers['content-length'] = String(end - start + 1);
  if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${c.size}`;
  if (bodyless || c.size === 0) {
    c.release?.();
    return new Response(null, { status, headers });
  }
  const body = c.body(start, end);
  if (status === 200 && body instanceof Uint8Array) opts.onFullAnswer?.({ ...headers }, body);
  return new Response(body, { status, headers });
}
