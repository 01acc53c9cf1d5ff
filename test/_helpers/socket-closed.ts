import WebSocket from 'ws';
import { WAIT_MS } from './wait.js';

/** Resolves with the close code and reason once `ws` closes (code -1 when it already was); rejects after `timeoutMs`. */
export function socketClosed(ws: WebSocket, timeoutMs = WAIT_MS): Promise<{ code: number; reason: string }> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve({ code: -1, reason: 'already closed' });
  ws.on('error', () => {});
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`socket not closed within ${timeoutMs} ms`)), timeoutMs);
    ws.once('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ code, reason: reason.toString() });
    });
  });
}
