import { WebSocket } from 'ws';
import type { MediaSocket, MediaSocketHandlers } from './engine/media-socket.js';

/** Largest message a media socket takes: Asterisk's limit (a larger one closes the socket and ends the call). */
export const MEDIA_MAX_PAYLOAD = 65_500;

/** Unsent bytes past which an application that stopped reading is cut off (its channel then ends). */
const MAX_BACKLOG = 1024 * 1024;

/**
 * Puts a `ws` socket behind the engine's MediaSocket port: binary messages
 * are audio, text messages are commands, and closing (or being cut off)
 * reaches the channel as `closed`.
 */
export function mediaSocket(ws: WebSocket, handlers: MediaSocketHandlers): MediaSocket {
  ws.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (isBinary) handlers.binary(buf);
    else handlers.text(buf.toString('utf8'));
  });
  let ended = false;
  const end = (how: 'peer' | 'failed'): void => {
    if (ended) return;
    ended = true;
    handlers.closed(how);
  };
  ws.on('error', () => {
    // A message over maxPayload: ws is already closing the socket with 1009; anything else ends it now.
    if (ws.readyState !== WebSocket.CLOSING) ws.terminate();
    end('failed');
  });
  // 1006: the connection went without a close frame.
  ws.on('close', (code: number) => end(code === 1006 ? 'failed' : 'peer'));
  const send = (data: string | Buffer): void => {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > MAX_BACKLOG) {
      ws.terminate();
      end('failed');
      return;
    }
    ws.send(data);
  };
  return {
    sendText: send,
    sendBinary: send,
    close: (code) => {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code);
    },
  };
}
