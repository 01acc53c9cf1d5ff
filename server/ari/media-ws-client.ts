import { isIP } from 'node:net';
import type { MediaConnector, MediaSocket } from './engine/media-socket.js';
import type { ExternalHostPolicy } from './media/external-host-policy.js';
import type { MediaClientConfig } from './media/media-clients-setting.js';
import { MEDIA_MAX_PAYLOAD, mediaSocket } from './media-ws-socket.js';
import { addressRefusal, connectWebSocket, hostOf, type Resolve, type WebSocketClientPolicy } from './websocket-connector.js';

/** What outgoing media sockets may reach. */
export interface MediaClientPolicy {
  /** EXTERNAL_MEDIA_ALLOWED_NETWORKS and the addresses never reached: media connections keep to it too. */
  hosts: ExternalHostPolicy;
  /** WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS, shared with the outbound ARI connections. */
  allowLocalNetworks: boolean;
  /** DNS (tests may inject one). */
  resolve?: Resolve;
}

/**
 * Outgoing media sockets for `connection_type=client`, through the shared
 * connector: the named connection's URI under the outbound address policy,
 * narrowed by EXTERNAL_MEDIA_ALLOWED_NETWORKS. A literal address is checked
 * when the channel is made (a refused one is a 400); a name is resolved when
 * we connect, every address it gives is checked, and the socket goes to the
 * address that was checked.
 */
export function createMediaConnector(clients: ReadonlyMap<string, MediaClientConfig>, media: MediaClientPolicy): MediaConnector {
  const policy: WebSocketClientPolicy = {
    allowLocalNetworks: media.allowLocalNetworks,
    resolve: media.resolve,
    narrow: (address) => media.hosts.refusal(address)?.replace(/^external_host /, ''),
  };
  const refusal = (host: string) => {
    const why = isIP(host) ? addressRefusal(host, policy) : undefined;
    return why && `websocket_client address ${why}`;
  };

  return {
    refusal(name) {
      const c = clients.get(name);
      if (!c) return `WebSocket client connection '${name}' not found`;
      return refusal(hostOf(c.uri));
    },

    async connect(name, uriParams, handlers): Promise<MediaSocket> {
      const c = clients.get(name);
      if (!c) throw new Error(`WebSocket client connection '${name}' not found`);
      const url = new URL(c.uri);
      if (uriParams) url.search = url.search ? `${url.search}&${uriParams}` : `?${uriParams}`;
      const headers: Record<string, string> = {};
      if (c.username !== undefined) headers.authorization = `Basic ${Buffer.from(`${c.username}:${c.password ?? ''}`).toString('base64')}`;
      let open = false;
      let socket: MediaSocket | undefined;
      const r = await connectWebSocket(url, {
        policy, protocols: c.protocols, headers, timeoutMs: c.connectionTimeoutMs, maxPayload: MEDIA_MAX_PAYLOAD,
        // The channel's handlers are on the socket before its first frame can arrive.
        prepare: (ws) => {
          socket = mediaSocket(ws, { text: (d) => handlers.text(d), binary: (d) => handlers.binary(d), closed: (how) => open && handlers.closed(how) });
        },
      });
      if (!r.ok) throw new Error(r.refused ? `websocket_client address ${r.refused}` : r.reason);
      open = true;
      return socket!;
    },
  };
}
