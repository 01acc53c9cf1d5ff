import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { createApp, CROSS_ORIGIN_REFUSED } from './app.js';
import { edgeErrorBody, isAriUpgradePath } from './edge-errors.js';
import { answerSocket } from './http/answer-socket.js';
import { AnswerMemo } from './http/answer-memo.js';
import { createOriginPolicy, type OriginPolicy } from './http/origin-policy.js';
import { createEventsWs } from './ari/events-ws.js';
import { createMediaWs, type MediaWs } from './ari/media-ws.js';
import { loadFixtures } from './ari/fixtures.js';
import { readOutboundConnections } from './ari/outbound/outbound-setting.js';
import { createOutboundWebsockets } from './ari/outbound/outbound-websockets.js';
import { createTelephony, type Telephony } from './ari/telephony.js';
import { createSimTime } from './ari/time/sim-time.js';
import type { AriUser, Config } from './config.js';
import { lockDataDir, type DataDirLock } from './db/data-dir-lock.js';
import { openDatabase, type Db } from './db/open.js';
import { ReadCache } from './db/read-cache.js';
import { createChannelRepo } from './db/repos/channel-repo.js';
import { createHeardRepo } from './db/repos/heard-repo.js';
import { createBridgeRepo, createRecordingRepo } from './db/repos/recording-repo.js';
import { createDeviceStateRepo } from './db/repos/device-state-repo.js';
import { createEndpointRepo } from './db/repos/endpoint-repo.js';
import { createAsteriskConfigRepo } from './db/repos/asterisk-config-repo.js';
import { createMailboxRepo } from './db/repos/mailbox-repo.js';
import { createMetaRepo } from './db/repos/meta-repo.js';
import { createAriAuth, PRESET_ARI_USER } from './ari/http/auth.js';
import { createEarlyServer } from './http/early-server.js';
import { createLogger, type Logger } from './log.js';
import { createGitea, type Gitea } from './gitea/gitea.js';
import { createRepoEventsWs } from './gitea/web/events-ws.js';
import { createEventTapWs } from './sim/event-tap-ws.js';

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
  /** Repository reads sent again from memory (their counts). */
  answers: AnswerMemo;
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
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
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
    const requestLine = err.rawPacket?.toString('latin1', 0, Math.min(err.rawPacket.length, 8192)).split('\r\n', 1)[0];
    const path = requestLine === undefined ? undefined : (requestLine.split(' ')[1] ?? '');
    const body = JSON.stringify(edgeErrorBody(path, message, swaggerUrl()));
    answerSocket(socket, status, message, body);
  });
}

/** What start-up may be asked to do for tests, besides sending the one-time admin password elsewhere. */
export interface StartOptions {
  announce?: (line: string) => void;
  /**
   * Test hook: runs once the port is bound and before DATA_DIR is touched;
   * `held()` counts the requests waiting for the app meanwhile.
   */
  beforeReady?: (early: { url: string; held(): number }) => Promise<void>;
}

type Sockets = { events: ReturnType<typeof createEventsWs>; tap: ReturnType<typeof createEventTapWs>; repoEvents: ReturnType<typeof createRepoEventsWs>; media: MediaWs; outbound: ReturnType<typeof createOutboundWebsockets> };

/**
 * Loads the fixtures, binds the port, locks DATA_DIR, opens the database,
 * builds the app and hands it the requests that arrived meanwhile. Tests and
 * main.ts both start the server here. The order matters: a port that cannot
 * be had, or a DATA_DIR another server owns, stops the start before anything
 * is written to DATA_DIR (database, secret key, admin password, repositories).
 */
export async function startServer(config: Config, log: Logger = createLogger(config.logLevel, process.stdout, config.logFormat), opts: StartOptions = {}): Promise<RunningServer> {
  const fixtures = loadFixtures(config.fixturesDir);
  const early = createEarlyServer({ headersTimeoutMs: config.headersTimeoutMs });
  const server = early.server;
  const connections = gracefulIdleClose(server);
  let url = '';
  let gitea: Gitea | undefined;
  let sockets: Sockets | undefined;
  let origins: OriginPolicy | undefined;
  answerClientErrors(server, () => gitea?.site.swaggerUrl ?? `${config.rootUrl ?? `${url}/`}api/swagger`);
  server.on('upgrade', async (req, socket, head) => {
    connections.forget(socket);
    socket.on('error', () => socket.destroy());
    // An upgrade that came before the app waits for it, as plain requests do.
    if (!(await early.waitReady()) || !sockets || !origins || !gitea || socket.destroyed) {
      socket.destroy();
      return;
    }
    if (!origins.allows(req.headers.origin, req.headers.host)) {
      // A page on another site opening our event sockets with the browser's credentials.
      answerSocket(socket, 403, 'Forbidden', JSON.stringify(edgeErrorBody(req.url ?? '/', CROSS_ORIGIN_REFUSED, gitea.site.swaggerUrl, isAriUpgradePath)));
      return;
    }
    if (sockets.events.handleUpgrade(req, socket, head)) return;
    if (sockets.tap.handleUpgrade(req, socket, head)) return;
    if (sockets.media.handleUpgrade(req, socket, head)) return;
    try {
      if (await sockets.repoEvents.handleUpgrade(req, socket, head)) return;
    } catch (err) {
      log.error({ err }, 'repository event websocket upgrade failed');
      socket.destroy();
      return;
    }
    answerSocket(socket, 404, 'Not Found', '{"message":"Not a WebSocket"}');
  });
  const port = await early.listen(config.port, config.host);
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  url = `http://${shownHost}:${port}`;

  const opened: { lock?: DataDirLock; db?: Db; telephony?: Telephony } = {};
  try {
    await opts.beforeReady?.({ url, held: early.held });
    opened.lock = lockDataDir(config.dataDir);
    const db = (opened.db = openDatabase(join(config.dataDir, 'trunkline.db'), config.dbSynchronous));
    // Each request reads what other processes (the admin command line) committed before it came.
    const readCache = ReadCache.of(db);
    server.prependListener('request', () => readCache.recheck());
    server.prependListener('upgrade', () => readCache.recheck());
    const channelRepo = createChannelRepo(db);
    const meta = createMetaRepo(db);
    const { clock, ids } = createSimTime(config.simClock, config.simTimeScale, meta, (err) => log.error({ err }, 'timer failed on the virtual clock'));
    const violations: string[] = [];
    const telephony = (opened.telephony = await createTelephony({
      recordingRepo: createRecordingRepo(db),
      bridgeRepo: createBridgeRepo(db),
      deviceStateRepo: createDeviceStateRepo(db),
      mailboxRepo: createMailboxRepo(db),
      endpointRepo: createEndpointRepo(db),
      asteriskConfigRepo: createAsteriskConfigRepo(db),
      dataDir: config.dataDir,
      bindHost: config.host,
      externalMediaNetworks: config.externalMediaNetworks,
      mediaWebsocket: { ...config.mediaWebsocket, allowLocalNetworks: config.websocketClientAllowLocalNetworks },
      limits: config.ariLimits,
      fixtures,
      repo: channelRepo,
      heardRepo: createHeardRepo(db),
      meta,
      log,
      clock,
      ids,
      channelVars: config.ariChannelVars,
      historyLimit: config.channelHistoryLimit,
      appReconnectGraceMs: config.appReconnectGraceMs,
      checkEvents: config.checkResponses,
    }));
    telephony.engine.violations.length = 0;
    const ariAuth = createAriAuth(config.ariUsers);
    gitea = await createGitea({ db, config, log, violations, ...(opts.announce ? { announce: opts.announce } : {}) });
    if (!config.rootUrl) gitea.site.rootUrl = `${url}/`;
    await gitea.bootstrapAdmin();
    const site = gitea.site;
    origins = createOriginPolicy({ rootUrl: () => site.rootUrl, trusted: config.trustedOrigins });
    const answers = new AnswerMemo('/api/v1/', log);
    const app = createApp({ config, log, telephony, channelRepo, ariAuth, gitea, violations, origins, answers });
    const wsLimits = { log, maxPayload: config.wsMaxPayload, maxBufferedBytes: config.wsMaxBufferedBytes, pingIntervalMs: config.wsPingIntervalMs };
    // REST requests sent over an event socket go through the same application, as the socket's user.
    const invoke = async (req: Request, user: AriUser) => app.fetch(req, { [PRESET_ARI_USER]: user });
    // Outbound WebSockets register their applications now and connect out (their requests reach the app once ready).
    const outbound = createOutboundWebsockets({
      connections: config.ariOutbound, engine: telephony.engine, dialplan: telephony.pbx, calls: telephony.calls, invoke, users: config.ariUsers, log,
      policy: { allowLocalNetworks: config.websocketClientAllowLocalNetworks },
      // A res_ari reload reads the configuration again (ARI_OUTBOUND_WEBSOCKETS_FILE can change; the environment cannot).
      reread: () => readOutboundConnections(config.ariOutboundSource, config.ariUsers.map((u) => u.name)), maxPayload: config.wsMaxPayload, maxBufferedBytes: config.wsMaxBufferedBytes,
    });
    telephony.modules.onReload('res_ari.so', () => outbound.reload());
    sockets = { events: createEventsWs({ engine: telephony.engine, auth: ariAuth, invoke, ...wsLimits }), tap: createEventTapWs({ taps: telephony.engine.taps, auth: ariAuth, ...wsLimits }), repoEvents: createRepoEventsWs(gitea, wsLimits), media: createMediaWs({ media: telephony.websocketMedia, log }), outbound };
    early.ready(app, (req, res, next) => answers.serve(req, res, next));
    gitea.startMirrors();
    return running({ url, port, config, log, server, app, db, telephony, gitea, sockets, violations, answers, lock: opened.lock });
  } catch (err) {
    await early.abort();
    opened.telephony?.stop();
    gitea?.close();
    opened.db?.close();
    opened.lock?.release();
    throw err;
  }
}

function running(s: {
  url: string;
  port: number;
  config: Config;
  log: Logger;
  server: Server;
  app: RunningServer['app'];
  db: Db;
  telephony: Telephony;
  gitea: Gitea;
  sockets: Sockets;
  violations: string[];
  answers: AnswerMemo;
  lock: DataDirLock;
}): RunningServer {
  const { server, telephony, gitea, db, sockets } = s;
  let closing: Promise<void> | undefined;
  return {
    url: s.url,
    port: s.port,
    host: s.config.host,
    httpServer: server,
    telephony,
    gitea,
    app: s.app,
    db,
    log: s.log,
    answers: s.answers,
    get violations() {
      return [...s.violations, ...telephony.engine.violations];
    },
    close() {
      closing ??= (async () => {
        // No new mirror syncs; running ones (maybe pushing to this very server) finish first.
        const mirrorsStopped = gitea.stopMirrors();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        sockets.events.close();
        sockets.tap.close();
        sockets.repoEvents.close();
        sockets.media.close();
        sockets.outbound.close();
        // In-flight requests get this long to finish (a slow reader of a large download included).
        const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        force.unref();
        await closed;
        clearTimeout(force);
        await mirrorsStopped;
        telephony.stop();
        gitea.close();
        db.close();
        // Last: DATA_DIR is free for another server only once everything here is flushed and closed.
        s.lock.release();
      })();
      return closing;
    },
  };
}
