import type { LookupAddress } from 'node:dns';
import { readFile } from 'node:fs/promises';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { WebSocket } from 'ws';
import type { OutboundConnectionConfig } from './outbound-config.js';
import { checkOutboundTarget, type Resolve } from './outbound-target.js';

/** What every attempt shares: the address policy and the frame limit. */
export interface DialOptions {
  allowLocalNetworks: boolean;
  /** Largest frame the application may send us (WS_MAX_PAYLOAD). */
  maxPayload: number;
  resolve?: Resolve;
  /** Aborts an attempt under way (the session stopped). */
  signal?: AbortSignal;
}

/** One attempt's outcome: an open socket, or why not in our own words (no peer text, no credential). */
export type DialResult = { ok: true; ws: WebSocket } | { ok: false; reason: string };

/** A lookup that answers with the addresses the policy approved, and nothing else. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const list: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, l: LookupAddress[]) => void)(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  };
}

/**
 * One connection attempt to an application's WebSocket server: the address
 * policy first, then the upgrade with the configured subprotocol and, when a
 * username or password is set, Basic credentials. An attempt that has not
 * opened within connection_timeout fails; a redirect is a failure (never
 * followed), as is any answer other than 101.
 */
export async function dialWebSocket(cfg: OutboundConnectionConfig, opts: DialOptions): Promise<DialResult> {
  const target = await checkOutboundTarget(cfg.uri, opts.allowLocalNetworks, opts.resolve);
  if (!target.ok) return { ok: false, reason: target.reason === 'refused' ? 'refused by the outbound address policy' : 'could not resolve the host' };
  const tls = await tlsOptions(cfg);
  if (!tls) return { ok: false, reason: 'could not read ca_list_file' };
  const headers: Record<string, string> = {};
  if (cfg.username || cfg.password) headers.authorization = `Basic ${Buffer.from(`${cfg.username}:${cfg.password}`).toString('base64')}`;
  const options = {
    headers,
    handshakeTimeout: cfg.connectionTimeout,
    perMessageDeflate: false,
    maxPayload: opts.maxPayload,
    followRedirects: false,
    lookup: pinnedLookup(target.addresses),
    ...tls,
  } as WebSocket.ClientOptions;
  if (opts.signal?.aborted) return { ok: false, reason: 'stopped' };
  return new Promise<DialResult>((resolve) => {
    const ws = new WebSocket(cfg.uri, cfg.protocols, options);
    let settled = false;
    const settle = (r: DialResult) => {
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
  });
}

/** The TLS options of a wss:// connection (nothing for ws://); undefined when ca_list_file cannot be read. */
async function tlsOptions(cfg: OutboundConnectionConfig): Promise<WebSocket.ClientOptions | undefined> {
  if (!cfg.uri.startsWith('wss:')) return {};
  const { caListFile, verifyServerCert, verifyServerHostname } = cfg.tls;
  const out: WebSocket.ClientOptions = { rejectUnauthorized: verifyServerCert };
  // Node's hook answers an Error to refuse and undefined to accept (ws's type says boolean).
  if (!verifyServerHostname) out.checkServerIdentity = (() => undefined) as unknown as WebSocket.ClientOptions['checkServerIdentity'];
  if (caListFile) {
    try {
      // Read at each attempt, so a renewed file is picked up; the system's CAs stay trusted too.
      out.ca = [...rootCertificates, await readFile(caListFile, 'utf8')];
    } catch {
      return undefined;
    }
  }
  return out;
}
