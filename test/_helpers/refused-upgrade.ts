import type { IncomingHttpHeaders } from 'node:http';
import WebSocket from 'ws';
import { parseBody } from './request.js';

/** The HTTP answer that refused an upgrade: its body as JSON, or as text when it is not JSON. */
export interface Refusal {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
  /** The WWW-Authenticate header, if any. */
  realm?: string;
}

/** Tries an upgrade that must be refused: resolves with the HTTP answer, rejects if the socket opens or no answer comes. */
export function refusedUpgrade(url: string, headers: Record<string, string> = {}, opts: WebSocket.ClientOptions = {}): Promise<Refusal> {
  const ws = new WebSocket(url, { ...opts, headers });
  ws.on('error', () => { /* after an answer: the socket torn down once read */ });
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => {
      ws.terminate();
      reject(new Error(`the upgrade was accepted: ${url}`));
    });
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parseBody(text, text), realm: res.headers['www-authenticate'] as string | undefined });
        ws.terminate();
      });
    });
  });
}
