import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { WebSocket } from 'ws';
import { classifyAddress, neverAllowed, parseIp } from '../util/address-ranges.js';

/** Resolves a host name to every address it has (tests inject their own). */
export type Resolve = (host: string) => Promise<string[]>;

const systemResolve: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The setting every WebSocket the server opens is held to. */
export const LOCAL_NETWORKS_SETTING = 'WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS';

/**
 * Where the server's own WebSocket clients may connect: the outbound ARI
 * connections and the chan_websocket media client share it. Public
 * addresses pass; loopback, private and the other reserved ranges pass only
 * with local networks allowed; link-local (cloud metadata), unspecified,
 * multicast and broadcast never do. A caller may narrow it further (media
 * connections also keep to EXTERNAL_MEDIA_ALLOWED_NETWORKS).
 */
export interface WebSocketClientPolicy {
  allowLocalNetworks: boolean;
  /** A caller's further refusal of an address, in its own words; undefined lets the address through. */
  narrow?: ((address: string) => string | undefined) | undefined;
  resolve?: Resolve | undefined;
}

/** Why the policy refuses one address (`<address> is …`), or undefined. */
export function addressRefusal(address: string, policy: WebSocketClientPolicy): string | undefined {
  const bytes = parseIp(address);
  if (!bytes || neverAllowed(address)) return `${address} is never connected to`;
  const range = classifyAddress(bytes);
  if (range !== undefined && !policy.allowLocalNetworks) {
    return `${address} is a ${range === 'loopback' ? 'loopback' : 'local network'} address (${LOCAL_NETWORKS_SETTING} is off)`;
  }
  return policy.narrow?.(address);
}

/** The host of a ws(s) URI, without IPv6 brackets. */
export function hostOf(uri: string | URL): string {
  return new URL(uri).hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Where one attempt may go: every address checked, or why not (`detail` names the refused address). */
export type TargetCheck = { ok: true; addresses: string[] } | { ok: false; reason: 'refused'; detail: string } | { ok: false; reason: 'unresolved' };

/**
 * Resolves the URI's host (an IP literal is not looked up) and checks every
 * address it gives: one refused address refuses the name, so a name that
 * mixes public and local answers reaches nothing.
 */
export async function checkTarget(uri: string | URL, policy: WebSocketClientPolicy): Promise<TargetCheck> {
  const host = hostOf(uri);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch {
      return { ok: false, reason: 'unresolved' };
    }
    if (!addresses.length) return { ok: false, reason: 'unresolved' };
  }
  for (const a of addresses) {
    const detail = addressRefusal(a, policy);
    if (detail) return { ok: false, reason: 'refused', detail };
  }
  return { ok: true, addresses };
}

/** A lookup that answers with the checked addresses and nothing else. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const list: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, l: LookupAddress[]) => void)(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  };
}

/** One connection attempt. */
export interface ConnectOptions {
  policy: WebSocketClientPolicy;
  protocols: string | string[];
  headers?: Record<string, string>;
  /** The upgrade must have completed within this many milliseconds. */
  timeoutMs: number;
  maxPayload: number;
  /** TLS options for wss:// (trust, verification). */
  tls?: WebSocket.ClientOptions;
  /** Aborts the attempt. */
  signal?: AbortSignal | undefined;
  /** Called with the socket as soon as it exists, so message listeners are in place before the first frame can arrive. */
  prepare?: (ws: WebSocket) => void;
}

/** An open socket, or why not, in our own words (no peer text, no credential). */
export type ConnectResult = { ok: true; ws: WebSocket } | { ok: false; reason: string; refused?: string };

/**
 * The one way the server opens a WebSocket to somebody else: the policy
 * check, then the upgrade to exactly the addresses checked (the TCP
 * connection goes there while the Host header and TLS server name stay the
 * URI's), with no redirect followed: any answer but 101 fails the attempt.
 */
export async function connectWebSocket(uri: string | URL, opts: ConnectOptions): Promise<ConnectResult> {
  const target = await checkTarget(uri, opts.policy);
  if (!target.ok) return target.reason === 'refused' ? { ok: false, reason: 'refused by the outbound address policy', refused: target.detail } : { ok: false, reason: 'could not resolve the host' };
  if (opts.signal?.aborted) return { ok: false, reason: 'stopped' };
  const options = {
    headers: opts.headers ?? {},
    handshakeTimeout: opts.timeoutMs,
    perMessageDeflate: false,
    maxPayload: opts.maxPayload,
    followRedirects: false,
    lookup: pinnedLookup(target.addresses),
    ...opts.tls,
  } as WebSocket.ClientOptions;
  return new Promise<ConnectResult>((resolve) => {
    const ws = new WebSocket(uri, opts.protocols, options);
    let settled = false;
    const settle = (r: ConnectResult) => {
      if (settled) return;
      settled = true;
      ws.removeListener('open', onOpen);
      opts.signal?.removeEventListener('abort', abort);
      resolve(r);
    };
    const abort = () => {
      settle({ ok: false, reason: 'stopped' });
      ws.terminate();
    };
    opts.signal?.addEventListener('abort', abort, { once: true });
    const onOpen = () => settle({ ok: true, ws });
    opts.prepare?.(ws);
    ws.once('open', onOpen);
    ws.once('unexpected-response', (req, res) => {
      settle({ ok: false, reason: `upgrade answered with status ${res.statusCode ?? 0}` });
      res.resume();
      req.destroy();
    });
    ws.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      settle({ ok: false, reason: typeof code === 'string' && /^[A-Z][A-Z_]{2,40}$/.test(code) ? `connection failed (${code})` : /timed out/i.test(err.message) ? 'timed out' : 'connection failed' });
    });
    ws.once('close', () => settle({ ok: false, reason: 'connection closed before it opened' }));
  });
}
