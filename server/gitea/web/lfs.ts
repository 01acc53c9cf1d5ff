import type { Context, Hono } from 'hono';
import { Readable } from 'node:stream';
import { readBody } from '../../http/body.js';
import { goPathEscape } from '../../util/go-format.js';
import type { Logger } from '../../log.js';
import type { LfsRepo } from '../../db/repos/lfs-repo.js';
import type { CallerDeps } from '../http/auth.js';
import type { LfsStore } from '../services/lfs-store.js';
import type { RepoService } from '../services/repos.js';
import type { Site } from '../site.js';
import type { Authenticated } from '../services/accounts.js';
import { batchObjects, isValidPointer, type BatchObject } from '../services/lfs-batch.js';
import { takesWrites, tokenMayAccessRepo } from '../services/repo-access.js';
import type { RepoContext } from '../services/repos.js';
import { httpError, locateRepo, repoNameOf, webCaller } from './git-access.js';
import { nodeBody } from './request-input.js';

const MEDIA_TYPE = 'application/vnd.git-lfs+json';
const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  416: 'Requested Range Not Satisfiable',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
};

/** Gitea's LFS JSON (`json.Encoder`: a trailing newline) in the LFS media type. */
const lfsJson = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(`${JSON.stringify(body)}\n`, { status, headers: { 'content-type': MEDIA_TYPE, ...headers } });

/** `{"Message": …}`: Gitea's ErrorResponse has no json tags, hence the capital M. */
const lfsStatus = (status: number, message = STATUS_TEXT[status] ?? '', headers: Record<string, string> = {}) => lfsJson(status, { Message: message }, headers);

/** Gitea's CheckAcceptMediaType: the first `;` part of Accept must be the LFS media type. */
const acceptsLfs = (c: Context) => (c.req.header('accept') ?? '').split(';')[0] === MEDIA_TYPE;

/** Go's strconv.ParseInt(s, 10, 64), with its error text. */
function parseGoInt64(s: string): number | string {
  if (!/^[+-]?\d+$/.test(s)) return `strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`;
  const n = BigInt(s);
  if (n > 2n ** 63n - 1n || n < -(2n ** 63n)) return `strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range`;
  return Number(n);
}

/** Decodes a batch request as Go would into BatchRequest; null when Go's decoder would fail. */
function decodeBatch(body: unknown): { operation: string; objects: BatchObject[] } | null {
  if (body === null) return { operation: '', objects: [] };
  if (typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  if (b.operation !== undefined && b.operation !== null && typeof b.operation !== 'string') return null;
  if (b.objects !== undefined && b.objects !== null && !Array.isArray(b.objects)) return null;
  const objects: BatchObject[] = [];
  for (const o of (b.objects as unknown[] | null | undefined) ?? []) {
    const p = decodePointer(o);
    if (!p) return null;
    objects.push(p);
  }
  return { operation: (b.operation as string | null | undefined) ?? '', objects };
}

function decodePointer(o: unknown): BatchObject | null {
  if (o === null) return { oid: '', size: 0 };
  if (typeof o !== 'object' || Array.isArray(o)) return null;
  const { oid, size } = o as Record<string, unknown>;
  if (oid !== undefined && oid !== null && typeof oid !== 'string') return null;
  if (size !== undefined && size !== null && !(typeof size === 'number' && Number.isInteger(size))) return null;
  return { oid: (oid as string | null | undefined) ?? '', size: (size as number | null | undefined) ?? 0 };
}

/** What the LFS server uses. */
export type LfsDeps = CallerDeps & {
  config: { lfsEnabled: boolean; lfsMaxBatchSize: number };
  site: Site;
  repos: RepoService;
  lfsStore: LfsStore;
  lfsRepo: LfsRepo;
};

/** Gitea's Range regex (unanchored, as Go's FindStringSubmatch uses it). */
const RANGE = /bytes=(\d+)-(\d*)/;

/**
 * The LFS server at `/{owner}/{repo}.git/info/lfs/` (and without `.git`):
 * batch, upload, download, verify, as Gitea's services/lfs/server.go. The
 * locks API is not implemented: it answers 404, on which git-lfs warns that
 * the remote has no locking and pushes anyway. With LFS_ENABLED=false every
 * route here is a 404.
 */
export function mountLfs(app: Hono<any>, g: LfsDeps, opts: { log: Logger; maxBodyBytes: number }): void {
  const base = '/:owner/:repo/info/lfs';
  if (!g.config.lfsEnabled) {
    app.all(`${base}/*`, () => httpError(404));
    return;
  }

  /** getAuthenticatedRepository: 404 for an unknown repository, 401 (realm gitea-lfs) without the access, 403 for a token without the scope. */
  async function lfsRepo(c: Context, auth: Authenticated | null, write: boolean): Promise<RepoContext | Response> {
    const repo = locateRepo(g, c.req.param('owner')!, repoNameOf(c.req.param('repo')!), auth?.user ?? null);
    if (!repo) return lfsStatus(404);
    // A reader who uploads gets 401, not 403, as in Gitea: git-lfs then asks for other credentials.
    if (!(write ? repo.perm.write : repo.perm.read)) return lfsStatus(401, undefined, { 'www-authenticate': 'Basic realm="gitea-lfs"' });
    if (!tokenMayAccessRepo(auth, repo, write ? 'write' : 'read')) return httpError(403);
    // decisions.md: nothing is written to an archived or mirror repository (Gitea takes the upload).
    if (write && !takesWrites(repo.row)) return lfsStatus(403);
    return repo;
  }

  /** Hrefs as Gitea builds them: ROOT_URL + owner and repo as the client named them (the repo with `.git`). */
  function hrefs(c: Context) {
    const prefix = `${g.site.rootUrl}${goPathEscape(c.req.param('owner')!)}/${goPathEscape(`${repoNameOf(c.req.param('repo')!)}.git`)}/info/lfs`;
    return {
      download: (oid: string) => `${prefix}/objects/${goPathEscape(oid)}`,
      upload: (oid: string, size: number) => `${prefix}/objects/${goPathEscape(oid)}/${size}`,
      verify: () => `${prefix}/verify`,
    };
  }

  async function readJson(c: Context): Promise<{ ok: true; value: unknown } | { ok: false; tooLarge: boolean }> {
    try {
      return { ok: true, value: JSON.parse(await readBody(c.req.raw, opts.maxBodyBytes)) };
    } catch (err) {
      return { ok: false, tooLarge: (err as { kind?: string }).kind === 'too_large' };
    }
  }

  app.post(`${base}/objects/batch`, async (c) => {
    const auth = await webCaller(c, g);
    if (auth instanceof Response) return auth;
    if (!acceptsLfs(c)) return lfsStatus(415);
    const body = await readJson(c);
    if (!body.ok) return lfsStatus(body.tooLarge ? 413 : 400);
    const req = decodeBatch(body.value);
    if (!req || (req.operation !== 'upload' && req.operation !== 'download')) return lfsStatus(400);
    const upload = req.operation === 'upload';
    const repo = await lfsRepo(c, auth, upload);
    if (repo instanceof Response) return repo;
    // LFS_MAX_BATCH_SIZE; 0 means no limit (Gitea's default).
    const max = g.config.lfsMaxBatchSize;
    if (max > 0 && req.objects.length > max) return lfsStatus(413);
    const objects = await batchObjects(g.lfsStore, g.lfsRepo, repo.row.id, upload, req.objects, hrefs(c), c.req.header('authorization'));
    // Go encodes the empty (nil) list as null.
    return lfsJson(200, { objects: objects.length ? objects : null });
  });

  app.put(`${base}/objects/:oid/:size`, async (c) => {
    const auth = await webCaller(c, g);
    if (auth instanceof Response) return auth;
    const size = parseGoInt64(c.req.param('size'));
    if (typeof size === 'string') return lfsStatus(422, size);
    const oid = c.req.param('oid');
    if (!isValidPointer({ oid, size })) return lfsStatus(422);
    const repo = await lfsRepo(c, auth, true);
    if (repo instanceof Response) return repo;

    let result: 'ok' | 'hash' | 'size';
    try {
      result = await g.lfsStore.putStream(oid, size, nodeBody(c));
    } catch (err) {
      // The client went away or the disk failed: nothing was kept.
      opts.log.warn({ err, oid }, 'LFS upload failed');
      return lfsStatus(500);
    }
    if (result === 'hash') return lfsStatus(422, 'content hash does not match OID');
    if (result === 'size') return lfsStatus(422, 'content size does not match');
    g.lfsRepo.store(repo.row.id, oid, size, Math.floor(Date.now() / 1000));
    return lfsStatus(200);
  });

  app.post(`${base}/verify`, async (c) => {
    const auth = await webCaller(c, g);
    if (auth instanceof Response) return auth;
    if (!acceptsLfs(c)) return lfsStatus(415);
    const body = await readJson(c);
    const p = body.ok ? decodePointer(body.value) : null;
    if (!p) return lfsStatus(422);
    if (!isValidPointer(p)) return lfsStatus(422, 'Oid or size are invalid');
    const repo = await lfsRepo(c, auth, true);
    if (repo instanceof Response) return repo;
    const meta = g.lfsRepo.linked(repo.row.id, p.oid);
    if (!meta) return lfsStatus(404);
    // As Gitea: the stored bytes are checked against the recorded size.
    if ((await g.lfsStore.size(p.oid)) !== meta.size) return lfsStatus(404);
    return lfsStatus(200);
  });

  const download = async (c: Context) => {
    const auth = await webCaller(c, g);
    if (auth instanceof Response) return auth;
    const oid = c.req.param('oid')!;
    if (!isValidPointer({ oid, size: 0 })) return lfsStatus(422, 'Oid or size are invalid');
    const repo = await lfsRepo(c, auth, false);
    if (repo instanceof Response) return repo;
    const meta = g.lfsRepo.linked(repo.row.id, oid);
    const stored = meta ? await g.lfsStore.size(oid) : null;
    if (!meta || stored === null) return lfsStatus(404);
    const size = meta.size;

    let from = 0;
    let to = size - 1;
    let status = 200;
    const headers: Record<string, string> = {};
    const m = RANGE.exec(c.req.header('range') ?? '');
    if (m) {
      status = 206;
      from = Number(m[1]);
      if (from >= size) return lfsStatus(416);
      if (m[2]) {
        const end = Number(m[2]);
        if (end >= from && end < to) to = end;
      }
      // Deliberate departure: Gitea writes `/<size - from>` as the total, which RFC 9110
      // forbids; git-lfs reads only the start, and other resuming clients need the real size.
      headers['content-range'] = `bytes ${from}-${to}/${size}`;
      headers['access-control-expose-headers'] = 'Content-Range';
    }
    const length = String(Math.max(0, to + 1 - from));
    headers['content-length'] = length;
    headers['x-gitea-lfs-content-length'] = length;
    headers['content-type'] = 'application/octet-stream';
    const filename = c.req.param('filename');
    // base64url without padding (Go's RawURLEncoding); an undecodable name adds no header. The bytes go out
    // as they are (latin1 maps each byte to itself); control characters cannot be in a header at all.
    const name = filename && /^[A-Za-z0-9_-]*$/.test(filename) && filename.length % 4 !== 1 ? Buffer.from(filename, 'base64url').toString('latin1') : '';
    if (name && !/[\x00-\x1f\x7f]/.test(name)) {
      headers['content-disposition'] = `attachment; filename="${name}"`;
      headers['access-control-expose-headers'] = 'Content-Disposition';
    }
    if (c.req.method === 'HEAD' || to < from) return new Response(null, { status, headers });
    const file = g.lfsStore.open(oid, { start: from, end: to });
    return new Response(Readable.toWeb(file) as ReadableStream<Uint8Array>, { status, headers });
  };
  app.get(`${base}/objects/:oid`, download);
  app.get(`${base}/objects/:oid/:filename`, download);

  // The locks API: not implemented (see above); the Accept check still comes first, as in Gitea.
  const noLocks = async (c: Context) => {
    const auth = await webCaller(c, g);
    if (auth instanceof Response) return auth;
    return acceptsLfs(c) ? lfsStatus(404) : lfsStatus(415);
  };
  app.all(`${base}/locks`, noLocks);
  app.all(`${base}/locks/*`, noLocks);
  app.all(`${base}/*`, () => httpError(404, '404 page not found'));
}
