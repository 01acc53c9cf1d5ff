import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { checkMirrorAddress, type MirrorUrlPolicy } from './url-policy.js';

/** A failure whose message is ours alone (no remote text, no address, no credential): safe to return, store and log. */
export class OutboundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundError';
  }
}

/**
 * What every outbound request of a mirror's LFS transfer is checked against.
 * The local-network allowance (MIRROR_ALLOW_LOCAL_NETWORKS) covers only the
 * origin the user named (the LFS endpoint, derived from the clone address or
 * given as lfs_endpoint): an address the remote hands us (an action `href`, a
 * redirect) on any other origin must pass the policy as if local networks
 * were not allowed, so a remote cannot steer us to other services on our own
 * network.
 */
export interface HopPolicy {
  policy: MirrorUrlPolicy;
  trustedOrigin: string;
  /** DNS (tests inject one); the addresses it gives are the ones connected to. */
  resolve?: (host: string) => Promise<string[]>;
}

const systemResolve = async (host: string) => (await dnsLookupAll(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Checks one hop. The name is resolved once, here, and the connection goes to
 * exactly the addresses that were checked (no second lookup a rebinding DNS
 * could answer differently). `addresses` is undefined when the policy allowed
 * the name itself (an allow-list pattern) without resolving it.
 */
export async function checkHop(url: URL, hop: HopPolicy): Promise<{ addresses: string[] | undefined }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('not an http or https address');
  if (url.username || url.password) throw new OutboundError('an address carrying credentials');
  const policy = url.origin === hop.trustedOrigin ? hop.policy : { ...hop.policy, allowLocalNetworks: false };
  let seen: string[] | undefined;
  const resolve = async (host: string) => (seen = await (hop.resolve ?? systemResolve)(host));
  const check = await checkMirrorAddress({ address: url.href, kind: 'pull', isAdmin: false }, policy, resolve);
  if (!check.ok) throw new OutboundError('refused by the mirror address policy');
  return { addresses: seen };
}

/** One outbound request and its limits. */
export interface SendOptions {
  method: 'GET' | 'POST' | 'PUT';
  url: URL;
  headers: Record<string, string>;
  body?: Buffer | Readable;
  hop: HopPolicy;
  /** No byte in either direction for this long ends the request. */
  idleMs: number;
  /** Ends the request and its answer (the caller's overall deadline). */
  signal: AbortSignal;
}

/** What an outbound request got back. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: IncomingMessage;
}

/** Our words for a transport failure: the error code at most, never the peer's text or address. */
export function transportError(err: unknown, signal?: AbortSignal): OutboundError {
  if (err instanceof OutboundError) return err;
  if (signal?.aborted || (err as Error)?.name === 'AbortError') return new OutboundError('timed out');
  const code = (err as NodeJS.ErrnoException)?.code;
  return new OutboundError(typeof code === 'string' && /^E[A-Z_]{2,30}$/.test(code) ? `connection failed (${code})` : 'connection failed');
}

/**
 * One request, after the hop check. Redirects are never followed here (node's
 * http does not): the caller sees the 3xx and decides. A fresh connection per
 * request (no pooled socket outlives it).
 */
export async function send(opts: SendOptions): Promise<Answer> {
  const { addresses } = await checkHop(opts.url, opts.hop);
  const lookup: LookupFunction | undefined = addresses?.length
    ? (_host, options, callback) => {
        const list: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }));
        if ((options as { all?: boolean }).all) (callback as unknown as (e: null, l: LookupAddress[]) => void)(null, list);
        else callback(null, list[0]!.address, list[0]!.family);
      }
    : undefined;
  const lib = opts.url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const req = lib.request(opts.url, {
      method: opts.method,
      headers: opts.headers,
      agent: false,
      lookup: lookup ?? dnsLookup,
      timeout: opts.idleMs,
      signal: opts.signal,
    });
    req.on('timeout', () => req.destroy(new OutboundError('timed out')));
    req.on('error', (err) => reject(transportError(err, opts.signal)));
    req.on('response', (res) => {
      res.setTimeout(opts.idleMs, () => res.destroy(new OutboundError('timed out')));
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
    });
    if (!opts.body) req.end();
    else if (Buffer.isBuffer(opts.body)) req.end(opts.body);
    else {
      const body = opts.body;
      body.on('error', (err) => req.destroy(err));
      // A request that ends early must not leave the source (an open file) behind.
      req.on('close', () => {
        if (!body.readableEnded) body.destroy();
      });
      body.pipe(req);
    }
  });
}

/** Reads a whole answer of at most `max` bytes (more is an error, and reading stops there). */
export async function readAll(body: IncomingMessage, max: number, signal?: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) throw new OutboundError('the answer is too large');
      chunks.push(chunk);
    }
  } catch (err) {
    body.destroy();
    throw transportError(err, signal);
  }
  return Buffer.concat(chunks);
}

/** Drops an answer's body without reading it. */
export const discard = (a: Answer) => a.body.destroy();
