import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { answerSocket } from '../http/answer-socket.js';
import type { Logger } from '../log.js';
import type { WebSocketMedia } from './engine/websocket-media.js';
import { ARI_ERRORS } from './http/errors.js';
import { MEDIA_MAX_PAYLOAD, mediaSocket } from './media-ws-socket.js';

/**
 * `GET /media/<connection id>`: where an application opens the media socket
 * of an externalMedia channel made with transport=websocket and
 * connection_type=server (the id is its MEDIA_WEBSOCKET_CONNECTION_ID).
 * As in Asterisk the path sits beside /ari, not under it, and takes no ARI
 * credentials: the random connection id is what admits the socket. An
 * unknown id is 404, a second socket for one id 409, before the upgrade.
 * The subprotocol is `media` when the client offers it.
 */
export function createMediaWs(opts: { media: WebSocketMedia; log: Logger }) {
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: MEDIA_MAX_PAYLOAD,
    handleProtocols: (offered: Set<string>) => (offered.has('media') ? 'media' : false),
  });
  const refuse = (socket: Duplex, status: number, reason: string, message: string) =>
    answerSocket(socket, status, reason, JSON.stringify(ARI_ERRORS.body(message)), ARI_ERRORS.contentType);

  return {
    /** Handles the upgrade when the path is ours; returns false otherwise. */
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
      const path = (req.url ?? '/').split('?', 1)[0]!;
      if (!path.startsWith('/media/')) return false;
      const id = path.slice('/media/'.length);
      const refused = opts.media.checkConnection(id);
      if (refused === 404) refuse(socket, 404, 'Not Found', 'WebSocket instance not found');
      else if (refused === 409) refuse(socket, 409, 'Conflict', 'Another websocket connection exists for this connection id');
      else {
        wss.handleUpgrade(req, socket, head, (ws) => {
          const accepted = opts.media.accept(id);
          if (!accepted) {
            ws.close(1001);
            return;
          }
          accepted.open(mediaSocket(ws, accepted.handlers));
          // The connection id admits the socket, so it is never logged: the channel names the connection.
          opts.log.info({ channel: accepted.channel }, 'media websocket connected');
        });
      }
      return true;
    },

    /** Closes every media socket with 1001 (going away). */
    close(): void {
      for (const ws of wss.clients) ws.close(1001, 'Server shutting down');
    },
  };
}

export type MediaWs = ReturnType<typeof createMediaWs>;
