import { readFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';
import type { WebSocket } from 'ws';
import { connectWebSocket, type WebSocketClientPolicy } from '../websocket-connector.js';
import type { OutboundConnectionConfig } from './outbound-config.js';

/** What every attempt shares: the address policy and the frame limit. */
export interface DialOptions {
  policy: WebSocketClientPolicy;
  /** Largest frame the application may send us (WS_MAX_PAYLOAD). */
  maxPayload: number;
  /** Aborts an attempt under way (the session stopped). */
  signal?: AbortSignal;
}

/** One attempt's outcome: an open socket, or why not in our own words (no peer text, no credential). */
export type DialResult = { ok: true; ws: WebSocket } | { ok: false; reason: string };

/**
 * One connection attempt to an application's WebSocket server, through the
 * shared connector (address policy, no redirects): the configured
 * subprotocol, Basic credentials when a username or password is set, and
 * connection_timeout as the attempt's limit.
 */
export async function dialWebSocket(cfg: OutboundConnectionConfig, opts: DialOptions): Promise<DialResult> {
  const tls = await tlsOptions(cfg);
  if (!tls) return { ok: false, reason: 'could not read ca_list_file' };
  const headers: Record<string, string> = {};
  if (cfg.username || cfg.password) headers.authorization = `Basic ${Buffer.from(`${cfg.username}:${cfg.password}`).toString('base64')}`;
  const r = await connectWebSocket(cfg.uri, { policy: opts.policy, protocols: cfg.protocols, headers, timeoutMs: cfg.connectionTimeout, maxPayload: opts.maxPayload, tls, signal: opts.signal });
  return r.ok ? r : { ok: false, reason: r.reason };
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
