import { connect, type Socket } from 'node:net';

/** A TCP connection to a test server and what came back on it. */
export interface RawSocket {
  socket: Socket;
  /** Everything received so far, as latin1 text (byte for byte). */
  got(): string;
  /** Whether the connection has closed. */
  closed(): boolean;
  /** Resolves true once the connection closes, or false when it is still open after `timeoutMs`. */
  ended(timeoutMs: number): Promise<boolean>;
}

/**
 * Opens a plain TCP connection to the server at `base` (an http:// URL), for bytes no HTTP or
 * WebSocket client would send, writes `data` once connected and resolves. With `allowHalfOpen`
 * our side stays open after the server's FIN, as a careless or hostile client's would.
 */
export function rawSocket(base: string, data?: string | Buffer, opts: { allowHalfOpen?: boolean } = {}): Promise<RawSocket> {
  const u = new URL(base);
  const socket = connect({ port: Number(u.port), host: u.hostname, allowHalfOpen: opts.allowHalfOpen ?? false });
  let got = '';
  let closed = false;
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  const raw: RawSocket = {
    socket,
    got: () => got,
    closed: () => closed,
    ended(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      return Promise.race([ended.then(() => true), late]).finally(() => clearTimeout(timer));
    },
  };
  return new Promise((resolve, reject) => {
    socket.once('connect', () => {
      if (data !== undefined) socket.write(data);
      resolve(raw);
    });
    socket.once('error', reject);
  });
}
