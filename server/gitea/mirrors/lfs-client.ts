import type { Readable } from 'node:stream';
import { discard, OutboundError, readAll, send, transportError, type Answer, type HopPolicy } from './outbound-http.js';
import type { MirrorUrlPolicy } from './url-policy.js';

/** The media type of the LFS batch API. */
export const LFS_MEDIA_TYPE = 'application/vnd.git-lfs+json';
/** Objects per batch request: Gitea's LFS client asks for 20 at a time. */
export const LFS_BATCH_OBJECTS = 20;
/** A batch answer for 20 objects is a few KiB; anything past this is not one. */
const MAX_BATCH_ANSWER = 1024 * 1024;
/** Redirects a download may take, each one re-checked against the address policy. */
const MAX_REDIRECTS = 3;
const MAX_HREF = 8 * 1024;
const MAX_HEADER_VALUE = 8 * 1024;

/** An LFS object by id and size. */
export interface LfsObjectRef {
  oid: string;
  size: number;
}

/** Where and how to transfer one object, as a batch answer says. */
export interface LfsAction {
  href: URL;
  header: Record<string, string>;
}

/** What the remote said about one object we asked for. */
export type BatchEntry =
  | { kind: 'missing' } // per-object error 404: the remote does not have it
  | { kind: 'absent' } // left out of the answer
  | { kind: 'error'; code: number }
  | { kind: 'actions'; download?: LfsAction; upload?: LfsAction; verify?: LfsAction }
  | { kind: 'none' }; // no actions: for an upload, the remote has it already

/** How the LFS client reaches a remote. */
export interface LfsClientOptions {
  /** `…/info/lfs` without credentials. */
  endpoint: string;
  /** Sent to the endpoint's origin only, never to another host. */
  username: string;
  password: string;
  policy: MirrorUrlPolicy;
  resolve?: (host: string) => Promise<string[]>;
  /** Inactivity limit of one request (default 60 s). */
  idleMs?: number;
  /** Limit of one batch request, or of one object's whole transfer (default 1 h). */
  deadlineMs?: number;
  /** Ends every request at once (a shutdown). */
  signal?: AbortSignal;
}

/**
 * The LFS endpoint of a git remote, as Gitea's DetermineEndpoint derives it:
 * `<url>.git/info/lfs` (no `.git` added twice); a `git://` address becomes
 * https (port kept, as Gitea does). Null for local paths and ssh (not
 * fetched over LFS here).
 */
export function lfsEndpointOf(remote: string): string | null {
  if (!/^(https?|git):\/\//i.test(remote)) return null;
  let u: URL;
  try {
    u = new URL(remote.replace(/^git:/i, 'https:'));
  } catch {
    return null;
  }
  u.username = '';
  u.password = '';
  u.search = '';
  u.hash = '';
  const path = u.pathname.replace(/\/+$/, '');
  u.pathname = `${path.endsWith('.git') ? path : `${path}.git`}/info/lfs`;
  return u.href;
}

/** An LFS endpoint given as such (migrate's lfs_endpoint): http(s) as it is, `git://` as https; null otherwise. */
export function lfsEndpointGiven(address: string): string | null {
  if (/^https?:\/\//i.test(address)) return address.replace(/\/+$/, '');
  if (/^git:\/\//i.test(address)) return address.replace(/^git:/i, 'https:').replace(/\/+$/, '');
  return null;
}

/** A header value we are willing to send (printable, bounded). */
const sendable = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_HEADER_VALUE && /^[\t\x20-\x7e]*$/.test(v);

/**
 * The client side of the LFS batch API (basic transfer) for mirrors, pull and
 * push alike. Every request goes through the address policy (HopPolicy); the
 * credentials and the remote's `Authorization` header go only to the
 * endpoint's own origin; of an action's `header` map nothing else is sent;
 * a download follows at most a few redirects, each re-checked, and uploads
 * and batch requests follow none. Every error message is ours: status codes
 * and oids, never the remote's text.
 */
export function createLfsClient(opts: LfsClientOptions) {
  const endpoint = new URL(opts.endpoint.replace(/\/+$/, ''));
  const origin = endpoint.origin;
  const hop: HopPolicy = { policy: opts.policy, trustedOrigin: origin, ...(opts.resolve ? { resolve: opts.resolve } : {}) };
  const idleMs = opts.idleMs ?? 60_000;
  const deadlineMs = opts.deadlineMs ?? 3_600_000;
  const basic = opts.username || opts.password ? `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}` : undefined;

  /** Headers for a request to `url`: Authorization (the remote's, else ours) only on the endpoint's origin. */
  function authFor(url: URL, given: Record<string, string> = {}): Record<string, string> {
    if (url.origin !== origin) return {};
    const auth = given.Authorization ?? basic;
    return auth ? { Authorization: auth } : {};
  }

  /** Runs `fn` under the overall deadline. */
  async function withDeadline<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), deadlineMs);
    const signal = opts.signal ? AbortSignal.any([ctl.signal, opts.signal]) : ctl.signal;
    try {
      if (opts.signal?.aborted) throw new OutboundError('interrupted by shutdown');
      return await fn(signal);
    } catch (err) {
      if (opts.signal?.aborted && !(err instanceof OutboundError && err.message === 'interrupted by shutdown')) throw new OutboundError('interrupted by shutdown');
      throw transportError(err, signal);
    } finally {
      clearTimeout(timer);
    }
  }

  function parseAction(raw: unknown): LfsAction | undefined {
    if (!raw || typeof raw !== 'object') return undefined;
    const { href, header } = raw as { href?: unknown; header?: unknown };
    if (typeof href !== 'string' || href.length > MAX_HREF) throw new OutboundError('the batch answer holds an unusable href');
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      throw new OutboundError('the batch answer holds an unusable href');
    }
    // Of the remote's header map, only Authorization is kept (and sent only to the endpoint's origin).
    const kept: Record<string, string> = {};
    if (header && typeof header === 'object')
      for (const [k, v] of Object.entries(header)) if (k.toLowerCase() === 'authorization' && sendable(v)) kept.Authorization = v;
    return { href: url, header: kept };
  }

  return {
    endpoint: endpoint.href,

    /**
     * One batch request (at most LFS_BATCH_OBJECTS objects). Answers, per
     * object asked for, what the remote said; entries for objects we did not
     * ask for are ignored.
     */
    async batch(operation: 'download' | 'upload', objects: readonly LfsObjectRef[]): Promise<Map<string, BatchEntry>> {
      if (objects.length > LFS_BATCH_OBJECTS) throw new Error('too many objects for one batch request');
      const url = new URL(`${endpoint.href}/objects/batch`);
      const body = Buffer.from(JSON.stringify({ operation, transfers: ['basic'], objects: objects.map(({ oid, size }) => ({ oid, size })) }));
      const text = await withDeadline(async (signal) => {
        const a = await send({ method: 'POST', url, headers: { Accept: LFS_MEDIA_TYPE, 'Content-Type': LFS_MEDIA_TYPE, 'Content-Length': String(body.length), ...authFor(url) }, body, hop, idleMs, signal });
        if (a.status !== 200) {
          discard(a);
          throw new OutboundError(`HTTP ${a.status}`);
        }
        return (await readAll(a.body, MAX_BATCH_ANSWER, signal)).toString('utf8');
      }).catch((err: OutboundError) => {
        throw new OutboundError(`LFS batch request: ${err.message}`);
      });
      let answer: { transfer?: unknown; objects?: unknown };
      try {
        answer = JSON.parse(text) as typeof answer;
      } catch {
        throw new OutboundError('LFS batch request: the answer is not JSON');
      }
      if (!answer || typeof answer !== 'object') throw new OutboundError('LFS batch request: the answer is not a batch answer');
      if (answer.transfer !== undefined && answer.transfer !== null && answer.transfer !== '' && answer.transfer !== 'basic')
        throw new OutboundError('LFS batch request: the remote chose a transfer adapter other than basic');
      const list = Array.isArray(answer.objects) ? (answer.objects as unknown[]) : [];
      const wanted = new Set(objects.map((o) => o.oid));
      const out = new Map<string, BatchEntry>();
      for (const raw of list) {
        if (!raw || typeof raw !== 'object') continue;
        const o = raw as { oid?: unknown; error?: { code?: unknown } | null; actions?: Record<string, unknown> | null };
        if (typeof o.oid !== 'string' || !wanted.has(o.oid) || out.has(o.oid)) continue;
        try {
          if (o.error && typeof o.error === 'object') {
            const code = typeof o.error.code === 'number' && Number.isInteger(o.error.code) ? o.error.code : 0;
            out.set(o.oid, code === 404 ? { kind: 'missing' } : { kind: 'error', code });
          } else if (!o.actions || typeof o.actions !== 'object' || Object.keys(o.actions).length === 0) out.set(o.oid, { kind: 'none' });
          else {
            const download = parseAction(o.actions.download);
            const upload = parseAction(o.actions.upload);
            const verify = parseAction(o.actions.verify);
            out.set(o.oid, { kind: 'actions', ...(download ? { download } : {}), ...(upload ? { upload } : {}), ...(verify ? { verify } : {}) });
          }
        } catch (err) {
          throw new OutboundError(`LFS object ${o.oid}: ${(err as OutboundError).message}`);
        }
      }
      for (const o of objects) if (!out.has(o.oid)) out.set(o.oid, { kind: 'absent' });
      return out;
    },

    /**
     * Downloads one object and hands its body to `sink` (which must stop at
     * the declared size). Redirects are followed only to addresses the
     * policy allows, and carry no Authorization off the endpoint's origin.
     */
    async download<T>(object: LfsObjectRef, action: LfsAction, sink: (body: Readable) => Promise<T>): Promise<T> {
      return withDeadline(async (signal) => {
        let url = action.href;
        for (let hops = 0; ; hops++) {
          let a: Answer;
          try {
            a = await send({ method: 'GET', url, headers: { Accept: LFS_MEDIA_TYPE, ...authFor(url, action.header) }, hop, idleMs, signal });
          } catch (err) {
            throw transportError(err, signal);
          }
          if ([301, 302, 303, 307, 308].includes(a.status) && typeof a.headers.location === 'string') {
            discard(a);
            if (hops >= MAX_REDIRECTS) throw new OutboundError('too many redirects');
            try {
              url = new URL(a.headers.location, url);
            } catch {
              throw new OutboundError('an unusable redirect');
            }
            continue;
          }
          if (a.status !== 200) {
            discard(a);
            throw new OutboundError(`HTTP ${a.status}`);
          }
          const declared = Number(a.headers['content-length']);
          if (Number.isFinite(declared) && declared > object.size) {
            discard(a);
            throw new OutboundError('the remote sends more bytes than the pointer declares');
          }
          try {
            return await sink(a.body);
          } finally {
            a.body.destroy();
          }
        }
      }).catch((err: OutboundError) => {
        throw new OutboundError(`LFS download of ${object.oid}: ${err.message}`);
      });
    },

    /** Uploads one object (no redirects followed). */
    async upload(object: LfsObjectRef, action: LfsAction, body: () => Readable): Promise<void> {
      await withDeadline(async (signal) => {
        const a = await send({
          method: 'PUT',
          url: action.href,
          headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(object.size), ...authFor(action.href, action.header) },
          body: body(),
          hop,
          idleMs,
          signal,
        });
        discard(a);
        if (a.status < 200 || a.status > 299) throw new OutboundError(`HTTP ${a.status}`);
      }).catch((err: OutboundError) => {
        throw new OutboundError(`LFS upload of ${object.oid}: ${err.message}`);
      });
    },

    /** Asks the remote to confirm an upload (no redirects followed). */
    async verify(object: LfsObjectRef, action: LfsAction): Promise<void> {
      const body = Buffer.from(JSON.stringify({ oid: object.oid, size: object.size }));
      await withDeadline(async (signal) => {
        const a = await send({
          method: 'POST',
          url: action.href,
          headers: { Accept: LFS_MEDIA_TYPE, 'Content-Type': LFS_MEDIA_TYPE, 'Content-Length': String(body.length), ...authFor(action.href, action.header) },
          body,
          hop,
          idleMs,
          signal,
        });
        discard(a);
        if (a.status !== 200) throw new OutboundError(`HTTP ${a.status}`);
      }).catch((err: OutboundError) => {
        throw new OutboundError(`LFS verify of ${object.oid}: ${err.message}`);
      });
    },
  };
}

/** The LFS client's interface. */
export type LfsClient = ReturnType<typeof createLfsClient>;
