import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:https';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { EventLog } from './events.js';
import { WAIT_MS } from './wait.js';

/** One connection the server made to the peer: the upgrade request it sent, the socket, and every frame it sent (JSON). */
export interface PeerConnection {
  req: IncomingMessage;
  ws: WebSocket;
  log: EventLog;
}

/** A WebSocket server on 127.0.0.1 playing an application's server, which Trunkline connects out to. */
export interface WsPeer {
  port: number;
  /** `ws://127.0.0.1:<port><path>` (`wss://` with TLS). */
  url(path?: string): string;
  /** Every connection accepted so far, in order. */
  readonly connections: PeerConnection[];
  /** Every upgrade request seen (accepted or not), in order. */
  readonly upgrades: IncomingMessage[];
  /** The n-th connection (0-based), already made or still to come. */
  connection(n: number, timeoutMs?: number): Promise<PeerConnection>;
  close(): Promise<void>;
}

/**
 * Starts a peer. `answer` may refuse an upgrade by returning a raw HTTP
 * answer (status line, headers and body) to write instead of accepting it,
 * or `null` to leave it unanswered (the client gives up on its own). With
 * `tls` (PEM certificate and key) it speaks wss.
 */
export async function startWsPeer(answer?: (req: IncomingMessage) => string | null | undefined, tls?: { cert: string; key: string }): Promise<WsPeer> {
  const upgrades: IncomingMessage[] = [];
  const connections: PeerConnection[] = [];
  const waiters: Array<() => void> = [];
  /** Upgrades left unanswered: their sockets are destroyed at close. */
  const held: Socket[] = [];
  const https = tls ? createServer(tls) : undefined;
  const wss = new WebSocketServer({ ...(https ? { server: https } : { host: '127.0.0.1', port: 0 }), perMessageDeflate: false, verifyClient: (info, cb) => {
    upgrades.push(info.req);
    const raw = answer?.(info.req);
    if (raw === undefined) return cb(true);
    if (raw === null) {
      held.push(info.req.socket);
      return undefined;
    }
    const socket = info.req.socket;
    socket.end(raw);
    return undefined;
  } });
  wss.on('connection', (ws, req) => {
    ws.on('error', () => {});
    connections.push({ req, ws, log: new EventLog(ws) });
    for (const w of waiters.splice(0)) w();
  });
  if (https) await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', () => resolve()));
  else await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const port = ((https ?? wss).address() as { port: number }).port;
  return {
    port,
    url: (path = '/') => `${tls ? 'wss' : 'ws'}://127.0.0.1:${port}${path}`,
    connections,
    upgrades,
    async connection(n, timeoutMs = WAIT_MS) {
      const deadline = Date.now() + timeoutMs;
      while (connections.length <= n) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for connection #${n} (have ${connections.length})`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return connections[n]!;
    },
    close() {
      for (const c of connections) c.ws.terminate();
      for (const s of held) s.destroy();
      https?.closeAllConnections();
      return new Promise((resolve) => wss.close(() => (https ? https.close(() => resolve()) : resolve())));
    },
  };
}
