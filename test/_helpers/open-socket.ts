import WebSocket from 'ws';

/**
 * Opens a raw WebSocket (no event log around it) and resolves once it is open; a refused upgrade
 * rejects naming its status. Errors after the open are left to the test, which sees them as a close
 * (a socket the server closes on garbage must not crash the test process).
 */
export function openSocket(url: string, opts: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  const ws = new WebSocket(url, opts);
  ws.on('error', () => {});
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}
