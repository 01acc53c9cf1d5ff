import type { Duplex } from 'node:stream';

/** How long a refused client has to take the answer before the connection is dropped anyway. */
const LINGER_MS = 5_000;

/**
 * Answers on a raw socket that will not be served any further (a request
 * Node could not parse, an upgrade we refuse) and closes it for good once
 * the answer is written. `end()` alone would leave the socket half-open, and
 * its descriptor held, for as long as the client keeps its own side open;
 * a client that does not even take the answer is cut off after a moment.
 */
export function answerSocket(socket: Duplex, status: number, reason: string, body: string, contentType = 'application/json', headers: Record<string, string> = {}): void {
  const extra = Object.entries(headers).map(([k, val]) => `${k}: ${val}\r\n`).join('');
  const cutOff = setTimeout(() => socket.destroy(), LINGER_MS);
  cutOff.unref();
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`, () => {
    clearTimeout(cutOff);
    socket.destroy();
  });
}
