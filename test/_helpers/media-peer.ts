import type { AddressInfo } from 'node:net';
import * as assert from 'uvu/assert';
import WebSocket, { WebSocketServer } from 'ws';
import { FRAME_SAMPLES, tonePower } from '../../server/ari/media/pcm.js';
import type { TestServer } from './server.js';
import { waitUntil } from './wait.js';

/** A media WebSocket (externalMedia transport=websocket) as the application holds it: every text and binary frame it received. */
export class Peer {
  readonly texts: string[] = [];
  readonly binaries: Buffer[] = [];
  /** The close code, once the socket closed. */
  closeCode: number | undefined;
  /** The URL the socket was opened with (client connections: what we connected to), and its headers. */
  url = '';
  authorization: string | undefined;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary) => (isBinary ? this.binaries.push(Buffer.from(data)) : this.texts.push(data.toString())));
    ws.on('close', (code) => (this.closeCode = code));
    ws.on('error', () => {});
  }

  /** Waits for the socket to close; its close code. */
  async closed(): Promise<number> {
    await waitUntil(() => this.closeCode !== undefined, 'the media socket to close');
    return this.closeCode!;
  }

  text(s: string): void {
    this.ws.send(s);
  }

  audio(b: Buffer): void {
    this.ws.send(b, { binary: true });
  }

  /** Waits until `n` text frames have arrived and returns them all. */
  async textsAtLeast(n: number): Promise<string[]> {
    await waitUntil(() => this.texts.length >= n, `${n} text frames (got ${JSON.stringify(this.texts)})`);
    return [...this.texts];
  }

  /** Waits for `n` more binary frames than already received and returns those. */
  async nextAudio(n: number): Promise<Buffer[]> {
    const from = this.binaries.length;
    await waitUntil(() => this.binaries.length >= from + n, `${n} binary frames`);
    return this.binaries.slice(from, from + n);
  }
}

/** Opens `/media/<connection id>` on the server at `url` (subprotocol media); the peer records from the start (MEDIA_START can come with the upgrade's answer). */
export function openMedia(url: string, connectionId: string): Promise<Peer> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/media/${connectionId}`, ['media'], { perMessageDeflate: false });
  const peer = new Peer(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(peer));
    ws.once('error', reject);
  });
}

/** An application's WebSocket server that media client connections reach (subprotocol media): every peer connected, in order. */
export interface MediaAppServer {
  port: number;
  readonly peers: Peer[];
  /** Drops every peer and stops listening. */
  close(): Promise<void>;
}

export async function startMediaAppServer(): Promise<MediaAppServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (p: Set<string>) => (p.has('media') ? 'media' : false) });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const peers: Peer[] = [];
  wss.on('connection', (ws, req) => {
    const p = new Peer(ws);
    p.url = req.url ?? '';
    p.authorization = req.headers.authorization;
    peers.push(p);
  });
  return {
    port: (wss.address() as AddressInfo).port,
    peers,
    close: async () => {
      for (const p of peers) p.ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
    },
  };
}

/** POST /channels/externalMedia with transport=websocket into app1; `query` adds to it or overrides. */
export function wsExternalMedia(t: TestServer, query: Record<string, string | undefined>) {
  return t.http('POST', '/ari/channels/externalMedia', { query: { app: 'app1', encapsulation: 'none', transport: 'websocket', ...query } });
}

/** A connection_type=server channel (slin unless `query` says otherwise) with its socket open: the 200's body and the peer. */
export async function serverMediaChannel(t: TestServer, id: string, query: Record<string, string> = {}): Promise<{ body: any; peer: Peer }> {
  const r = await wsExternalMedia(t, { connection_type: 'server', format: 'slin', channelId: id, ...query });
  assert.is(r.status, 200, r.text);
  return { body: r.body, peer: await openMedia(t.url, r.body.channelvars.MEDIA_WEBSOCKET_CONNECTION_ID) };
}

/** `n` samples of a sine at a quarter of full scale. */
export const sineAt = (freq: number, n: number) => Int16Array.from({ length: n }, (_, i) => Math.round(Math.sin((2 * Math.PI * freq * i) / 8000) * 8191));
export const slinOf = (pcm: Int16Array) => Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
export const pcmOf = (b: Buffer) => new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));

/** Share of the 20 ms frames of `pcm` in which `freq` is clearly there. */
export function share(pcm: Int16Array, freq: number): number {
  const frames = Math.floor(pcm.length / FRAME_SAMPLES);
  let hits = 0;
  for (let f = 0; f < frames; f++) if (tonePower(pcm.subarray(f * FRAME_SAMPLES, (f + 1) * FRAME_SAMPLES), freq) > 0.01) hits++;
  return frames ? hits / frames : 0;
}

/** How many 20 ms frames of `pcm` hold `freq`. */
export const framesWith = (pcm: Int16Array, freq: number) => Math.round(share(pcm, freq) * Math.floor(pcm.length / FRAME_SAMPLES));
