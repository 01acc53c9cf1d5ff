import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Content types of the files a bundle may hold. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** The URL carries the bundle's content hash, so a file under it never changes: browsers may keep it for a year. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Whether an Accept-Encoding value lists gzip without refusing it (`gzip;q=0`). */
function takesGzip(accept: string | null): boolean {
  if (!accept || accept.length > 1024) return false;
  return accept.split(',').some((item) => {
    const [coding, ...params] = item.split(';').map((s) => s.trim().toLowerCase());
    return coding === 'gzip' && !params.some((p) => /^q=0(\.0{0,3})?$/.test(p));
  });
}

interface Loaded {
  body: Buffer;
  gzip?: Buffer;
  etag: string;
  type: string;
}

/**
 * A fixed set of static files served from memory under `<prefix>/<version>/<name>`,
 * where the version is a hash of every file's content: a page links to `urlOf(name)`,
 * a new release gets new URLs, and the files themselves can be cached for good. Only
 * the listed names are served (nothing from the folder is looked up by a request's
 * path), each with a strong ETag, 304 for a matching If-None-Match, and gzip when the
 * client takes it. Files are read on first use, not at start-up.
 */
export class AssetBundle {
  private loaded?: { version: string; files: Map<string, Loaded> };

  /** `files`: name in the URL → absolute path on disk. */
  constructor(
    readonly prefix: string,
    private readonly files: Readonly<Record<string, string>>,
  ) {}

  private load() {
    if (this.loaded) return this.loaded;
    const all = createHash('sha256');
    const files = new Map<string, Loaded>();
    for (const [name, path] of Object.entries(this.files)) {
      const body = readFileSync(path);
      const type = TYPES[extname(name)];
      if (!type) throw new Error(`asset ${name}: no content type for ${extname(name)}`);
      files.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` });
      all.update(name).update('\0').update(body);
    }
    this.loaded = { version: all.digest('hex').slice(0, 16), files };
    return this.loaded;
  }

  /** The URL path of one file (`name` must be one of the bundle's). */
  urlOf(name: string): string {
    const { version, files } = this.load();
    if (!files.has(name)) throw new Error(`asset ${name} is not in ${this.prefix}`);
    return `${this.prefix}/${version}/${name}`;
  }

  /** The answer to a request for `<prefix>/<version>/<name>`: the file, a 304, or a 404 for anything else. */
  answer(req: Request, version: string, name: string): Response {
    const loaded = this.load();
    const file = loaded.files.get(name);
    if (version !== loaded.version || !file) {
      return new Response(JSON.stringify({ message: 'not found' }), { status: 404, headers: { 'content-type': 'application/json' } });
    }
    const headers: Record<string, string> = {
      etag: file.etag,
      'cache-control': CACHE_CONTROL,
      'x-content-type-options': 'nosniff',
      vary: 'accept-encoding',
    };
    const inm = req.headers.get('if-none-match');
    if (inm && inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) return new Response(null, { status: 304, headers });
    headers['content-type'] = file.type;
    let body = file.body;
    if (file.type !== 'image/png' && takesGzip(req.headers.get('accept-encoding'))) {
      body = file.gzip ??= gzipSync(file.body);
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = String(body.length);
    return new Response(req.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  }
}
