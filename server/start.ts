import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp } from './app.js';
import { createEventsWs } from './ari/events-ws.js';
import { loadFixtures } from './ari/fixtures.js';
import { createTelephony, type Telephony } from './ari/telephony.js';
import type { Config } from './config.js';
import { openDatabase, type Db } from './db/open.js';
import { createChannelRepo } from './db/repos/channel-repo.js';
import { createBridgeRepo, createRecordingRepo } from './db/repos/recording-repo.js';
import { createMetaRepo } from './db/repos/meta-repo.js';
import { createAriAuth } from './http/ari-auth.js';
import { createLogger, type Logger } from './log.js';
import { createGitea, type Gitea } from './gitea/gitea.js';
import { createRepoEventsWs } from './gitea/web/events-ws.js';

export interface RunningServer {
  url: string;
  port: number;
  host: string;
  telephony: Telephony;
  gitea: Gitea;
  /** The Hono app: requests without a socket (in-process measurements). */
  app: { fetch(req: Request): Response | Promise<Response> };
  /** The listening Node server (in-process tests tune its timeouts). */
  httpServer: Server;
  db: Db;
  log: Logger;
  violations: string[];
  /** Graceful stop: refuse new connections, finish in-flight requests, close sockets (1001), flush, close the database. */
  close(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Node's closeIdleConnections (which server.close() also runs) destroys a
 * connection whose response has been ended but not yet flushed to a slow
 * reader, cutting the download short. At shutdown we end such connections
 * instead, after their response has left: the client gets every byte, then
 * the connection closes. Sockets that are idle keep-alives end at once.
 */
function gracefulIdleClose(server: Server): { forget(s: Duplex): void } {
  const sockets = new Set<Duplex>();
  server.on('connection', (s: Duplex) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.closeIdleConnections = () => {
    for (const s of sockets) {
      const res = (s as Duplex & { _httpMessage?: { writableFinished: boolean; once(e: 'finish', f: () => void): void } | null })._httpMessage;
      if (res && !res.writableFinished) res.once('finish', () => setImmediate(() => s.end()));
      else if (!res) s.end();
    }
  };
  // Upgraded sockets belong to the WebSocket servers, which close them with 1001.
  return { forget: (s) => void sockets.delete(s) };
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  HPE_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};

/**
 * Node answers a request it cannot parse (headers over its 16 KiB limit, a
 * malformed request line) itself, with a bare status line. We answer in the
 * dialect of the path instead: `{"message"}` for ARI, `{"message","url"}`
 * under /api, as every other error of those APIs.
 */
function answerClientErrors(server: Server, swaggerUrl: () => string): void {
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request'];
    const requestLine = err.rawPacket?.toString('latin1', 0, Math.min(err.rawPacket.length, 8192)).split('\r\n', 1)[0] ?? '';
    const path = requestLine.split(' ')[1] ?? '';
    const body = JSON.stringify(path.startsWith('/api/') ? { message, url: swaggerUrl() } : { message });
    socket.end(`HTTP/1.1 ${status} ${message}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}

/** Opens the database and fixtures, builds the app, and listens. Tests and main.ts both start the server here. */
export async function startServer(config: Config, log: Logger = createLogger(config.logLevel), opts: { announce?: (line: string) => void } = {}): Promise<RunningServer> {
  const db = openDatabase(join(config.dataDir, 'trunkline.db'), config.dbSynchronous);
  const fixtures = loadFixtures(config.fixturesDir);
  const channelRepo = createChannelRepo(db);
  const meta = createMetaRepo(db);
  const violations: string[] = [];
  const telephony = await createTelephony({
    recordingRepo: createRecordingRepo(db),
    bridgeRepo: createBridgeRepo(db),
    dataDir: config.dataDir,
    bindHost: config.host,
    fixtures,
    repo: channelRepo,
    meta,
    log,
    timeScale: config.simTimeScale,
    channelVars: config.ariChannelVars,
    historyLimit: config.channelHistoryLimit,
    checkEvents: config.checkResponses,
  });
  telephony.engine.violations.length = 0;
  const ariAuth = createAriAuth(config.ariUsers);
  const gitea = await createGitea({ db, config, log, violations, ...(opts.announce ? { announce: opts.announce } : {}) });
  await gitea.bootstrapAdmin();
  const app = createApp({ config, log, telephony, channelRepo, ariAuth, gitea, violations });
  const events = createEventsWs({
    engine: telephony.engine,
    auth: ariAuth,
    log,
    maxPayload: config.wsMaxPayload,
    maxBufferedBytes: config.wsMaxBufferedBytes,
    pingIntervalMs: config.wsPingIntervalMs,
  });

  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  const connections = gracefulIdleClose(server);
  answerClientErrors(server, () => gitea.site.swaggerUrl);
  const repoEvents = createRepoEventsWs(gitea, { log, maxPayload: config.wsMaxPayload, maxBufferedBytes: config.wsMaxBufferedBytes, pingIntervalMs: config.wsPingIntervalMs });
  server.on('upgrade', async (req, socket, head) => {
    connections.forget(socket);
    socket.on('error', () => socket.destroy());
    if (events.handleUpgrade(req, socket, head)) return;
    try {
      if (await repoEvents.handleUpgrade(req, socket, head)) return;
    } catch (err) {
      log.error({ err }, 'repository event websocket upgrade failed');
      socket.destroy();
      return;
    }
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 27\r\nConnection: close\r\n\r\n{"message":"Not a WebSocket"}'.replace('27', String('{"message":"Not a WebSocket"}'.length)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${shownHost}:${port}`;
  if (!config.rootUrl) gitea.site.rootUrl = `${url}/`;
  gitea.startMirrors();

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    host: config.host,
    httpServer: server,
    telephony,
    gitea,
    app,
    db,
    log,
    get violations() {
      return [...violations, ...telephony.engine.violations];
    },
    close() {
      closing ??= (async () => {
        // No new mirror syncs; running ones (maybe pushing to this very server) finish first.
        const mirrorsStopped = gitea.stopMirrors();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        events.close();
        repoEvents.close();
        // In-flight requests get this long to finish (a slow reader of a large download included).
        const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        force.unref();
        await closed;
        clearTimeout(force);
        await mirrorsStopped;
        telephony.stop();
        gitea.close();
        db.close();
      })();
      return closing;
    },
  };
}
