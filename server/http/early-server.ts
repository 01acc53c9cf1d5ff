import { createAdaptorServer } from '@hono/node-server';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';

/** The port cannot be had (in use, no permission, HOST not ours or not resolvable); `message` is one line. */
export class ListenError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

type FetchApp = { fetch(req: Request, env?: unknown): Response | Promise<Response> };

/** Sees each request before the app does: answers it, or calls `next` to hand it on. */
export type FrontDoor = (req: IncomingMessage, res: ServerResponse, next: () => unknown) => unknown;

/** A listening server that holds requests until the app is ready, so the port is taken before start-up work. */
export interface EarlyServer {
  server: Server;
  /** Binds HOST:PORT; resolves with the port bound (PORT=0 picks one). */
  listen(port: number, host: string): Promise<number>;
  /** Requests and upgrades that arrived before the app and are waiting for it. */
  held(): number;
  /** Resolves true once the app is ready, false if start-up failed; counts the caller as held meanwhile. */
  waitReady(): Promise<boolean>;
  /** Hands every waiting request, and every later one, to the app (through `front` first, when given). */
  ready(app: FetchApp, front?: FrontDoor): void;
  /** Start-up failed: waiting requests get 503 and the port is released. */
  abort(): Promise<void>;
}

function describe(err: NodeJS.ErrnoException, host: string, port: number): string {
  switch (err.code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use by another program; set PORT to a free port (0 picks one)`;
    case 'EACCES':
      return `no permission to listen on port ${port} on ${host} (ports below 1024 need privileges); set PORT`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on HOST ${host} (port ${port}): not an address of this machine; set HOST`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return `cannot listen on HOST ${host} (port ${port}): the name does not resolve; set HOST`;
    default:
      return `cannot listen on ${host} port ${port}: ${err.message}`.replace(/\s*\n\s*/g, ' ');
  }
}

/**
 * An HTTP server that can take its port before the app behind it exists.
 * Start-up binds first, so a port that cannot be had fails the start before
 * anything is written to DATA_DIR; then it opens the database and builds the
 * app. A request arriving in between is not refused or answered early: it
 * waits, and the app answers it once ready.
 */
export function createEarlyServer(opts: { headersTimeoutMs: number }): EarlyServer {
  let app: FetchApp | undefined;
  let settled: boolean | undefined;
  let held = 0;
  const waiters: Array<(ok: boolean) => void> = [];
  const settle = (ok: boolean) => {
    settled = ok;
    for (const w of waiters.splice(0)) w(ok);
  };
  const waitReady = (): Promise<boolean> => {
    if (settled !== undefined) return Promise.resolve(settled);
    held++;
    return new Promise<boolean>((resolve) =>
      waiters.push((ok) => {
        held--;
        resolve(ok);
      }),
    );
  };
  const unavailable = () => new Response(JSON.stringify({ message: 'Service Unavailable' }), { status: 503, headers: { 'content-type': 'application/json', connection: 'close' } });

  let front: FrontDoor | undefined;
  const server = createAdaptorServer({
    // Node's own server, with the front door (if any) before the adaptor's listener.
    createServer: ((options: ServerOptions, listener: RequestListener) =>
      createServer(options, (req, res) => (front ? front(req, res, () => listener(req, res)) : listener(req, res)))) as typeof createServer,
    // A client gets this long to send its request's headers; silent and trickling connections are checked
    // often enough that none outlives the limit by much.
    serverOptions: { headersTimeout: opts.headersTimeoutMs, connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(opts.headersTimeoutMs / 4))) },
    fetch: async (req: Request, env: unknown) => {
      if (app) return app.fetch(req, env);
      return (await waitReady()) && app ? (app as FetchApp).fetch(req, env) : unavailable();
    },
  }) as Server;

  return {
    server,
    listen: (port, host) =>
      new Promise<number>((resolve, reject) => {
        const onError = (err: NodeJS.ErrnoException) => reject(new ListenError(describe(err, host, port), err.code));
        server.once('error', onError);
        server.listen(port, host, () => {
          server.off('error', onError);
          const addr = server.address();
          resolve(typeof addr === 'object' && addr ? addr.port : port);
        });
      }),
    held: () => held,
    waitReady,
    ready(a, door) {
      app = a;
      front = door;
      settle(true);
    },
    async abort() {
      settle(false);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Let the 503s just handed out be written before the sockets go.
      setImmediate(() => server.closeAllConnections());
      await closed;
    },
  };
}
