import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { WebSocket } from 'ws';
import type { MediaConnector, MediaSocket } from './engine/media-socket.js';
import type { ExternalHostPolicy } from './media/external-host-policy.js';
import type { MediaClientConfig } from './media/media-clients-setting.js';
import { MEDIA_MAX_PAYLOAD, mediaSocket } from './media-ws-socket.js';

/** What outgoing media sockets may reach. */
export interface MediaClientPolicy {
  /** EXTERNAL_MEDIA_ALLOWED_NETWORKS and the addresses never reached. */
  hosts: ExternalHostPolicy;
  /** MEDIA_WEBSOCKET_ALLOW_LOOPBACK: loopback addresses are refused unless this is set. */
  allowLoopback: boolean;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+|0:0:0:0:0:0:0:1)$/i;

/** Why an address may not be connected to, or undefined. */
export function mediaAddressRefusal(address: string, policy: MediaClientPolicy): string | undefined {
  if (LOOPBACK.test(address) && !policy.allowLoopback) return `websocket_client address ${address} is a loopback address (MEDIA_WEBSOCKET_ALLOW_LOOPBACK is off)`;
  return policy.hosts.refusal(address)?.replace(/^external_host/, 'websocket_client address');
}

/** The host part of a ws(s) URI, without brackets. */
function hostOf(uri: string): string {
  return new URL(uri).hostname.replace(/^\[|\]$/g, '');
}

/**
 * Outgoing media sockets for `connection_type=client`: the named
 * connection's URI, checked against the policy. A literal address is
 * checked before anything else; a name is resolved when we connect and
 * every address it resolves to is checked, and the socket goes to the
 * address that was checked (nothing is resolved twice).
 */
export function createMediaConnector(clients: ReadonlyMap<string, MediaClientConfig>, policy: MediaClientPolicy): MediaConnector {
  const checkedLookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.map((a) => mediaAddressRefusal(a.address, policy)).find((r) => r !== undefined);
      if (refused) return callback(Object.assign(new Error(refused), { code: 'EREFUSED' }), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };

  return {
    refusal(name) {
      const c = clients.get(name);
      if (!c) return `WebSocket client connection '${name}' not found`;
      const host = hostOf(c.uri);
      return isIP(host) ? mediaAddressRefusal(host, policy) : undefined;
    },

    connect(name, uriParams, handlers): Promise<MediaSocket> {
      const c = clients.get(name);
      if (!c) return Promise.reject(new Error(`WebSocket client connection '${name}' not found`));
      const url = new URL(c.uri);
      if (uriParams) url.search = url.search ? `${url.search}&${uriParams}` : `?${uriParams}`;
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const refused = isIP(host) ? mediaAddressRefusal(host, policy) : undefined;
      if (refused) return Promise.reject(new Error(refused));
      const headers: Record<string, string> = {};
      if (c.username !== undefined) headers.authorization = `Basic ${Buffer.from(`${c.username}:${c.password ?? ''}`).toString('base64')}`;
      return new Promise((resolve, reject) => {
        const ws = new WebSocket(url, c.protocols, {
          perMessageDeflate: false, maxPayload: MEDIA_MAX_PAYLOAD, handshakeTimeout: c.connectionTimeoutMs, headers, lookup: checkedLookup, followRedirects: false,
        });
        let open = false;
        const socket = mediaSocket(ws, {
          text: (d) => handlers.text(d),
          binary: (d) => handlers.binary(d),
          closed: (how) => (open ? handlers.closed(how) : reject(new Error('connection closed before it opened'))),
        });
        ws.once('error', (err) => {
          if (!open) reject(err);
        });
        ws.once('unexpected-response', (_req, res) => {
          reject(new Error(`upgrade refused with HTTP ${res.statusCode}`));
          ws.terminate();
        });
        ws.once('open', () => {
          open = true;
          resolve(socket);
        });
      });
    },
  };
}
