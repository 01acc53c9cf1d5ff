import type { ServerResponse } from 'node:http';
import { Hono } from 'hono';
import { getPath } from 'hono/utils/url';
import { eventWebsocket } from '../protocol/ari/operations/events.js';
import type { Operation } from '../protocol/operation.js';
import { simEventTap } from '../protocol/sim/tap.js';
import { mountDocs } from './ari/docs.js';
import { mountApplications } from './ari/routes/applications.js';
import { mountAsterisk } from './ari/routes/asterisk.js';
import { mountBridges } from './ari/routes/bridges.js';
import { mountChannelMedia, mountChannels } from './ari/routes/channels.js';
import { mountPlaybacks } from './ari/routes/playbacks.js';
import { mountRecordings } from './ari/routes/recordings.js';
import { mountSounds } from './ari/routes/sounds.js';
import { mountEndpoints } from './ari/routes/endpoints.js';
import { mountDeviceStates } from './ari/routes/device-states.js';
import { mountMailboxes } from './ari/routes/mailboxes.js';
import { mountEvents } from './ari/routes/events.js';
import type { Telephony } from './ari/telephony.js';
import type { Config } from './config.js';
import type { ChannelRepo } from './db/repos/channel-repo.js';
import { apiKeyOf, PRESET_ARI_USER, type AriAuth, type PresetUserEnv } from './ari/http/auth.js';
import { createCors, isOAuthCorsPath } from './http/cors.js';
import { createCrashPoint } from './http/crash-point.js';
import { requestLog } from './http/request-log.js';
import type { AnswerMemo } from './http/answer-memo.js';
import type { OriginPolicy } from './http/origin-policy.js';
import { createAriBinder } from './ari/http/bind.js';
import type { Logger } from './log.js';
import { mountSim } from './sim/routes.js';
import type { Gitea } from './gitea/gitea.js';
import { mountGitea } from './gitea/mount.js';
import { mountApiReferences } from './http/api-references.js';
import { mountConsole } from './http/console.js';
import { edgeErrorBody, isAriPath } from './edge-errors.js';

export interface AppDeps {
  config: Config;
  log: Logger;
  telephony: Telephony;
  channelRepo: ChannelRepo;
  ariAuth: AriAuth;
  gitea: Gitea;
  /** Contract violations found in test mode (responses and events that do not match protocol/). */
  violations: string[];
  origins: OriginPolicy;
  /** Repository reads kept to be sent again (see AnswerMemo); the front door serves them. */
  answers?: AnswerMemo;
}

/** What a cross-site request is told, in the dialect of its path. */
export const CROSS_ORIGIN_REFUSED = 'Cross-origin request refused';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const REALM = { 'WWW-Authenticate': 'Basic realm="Asterisk REST Interface"' };

/**
 * Gitea's router collapses `//` and strips a trailing `/` before routing
 * (gitea-js with a trailing slash in its base URL sends `//api/v1/...`). ARI
 * keeps its own rule: a trailing slash is a 404 with a hint.
 */
function routingPath(req: Request): string {
  const path = getPath(req);
  if (isAriPath(path) || path === '/') return path;
  const collapsed = path.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.replace(/\/+$/, '') : collapsed;
}

/** Builds the HTTP application. It never listens: `startServer` does, and attaches the WebSocket upgrades. */
export function createApp(deps: AppDeps) {
  const { config, log, telephony, ariAuth } = deps;
  const app = new Hono<{ Variables: { ariUser: unknown; giteaAuth: unknown; giteaBasic: boolean } }>({ getPath: routingPath });
  app.use('*', requestLog(log));
  // Outside every other middleware: what it keeps carries all their headers.
  if (deps.answers) app.use('/api/v1/*', deps.answers.middleware());

  // A body refused as too large is not read to its end: the connection is closed once the answer has
  // left, rather than kept paused (its descriptor held) for as long as the client goes on sending.
  app.use('*', async (c, next) => {
    await next();
    if (c.res.status !== 413) return;
    c.res.headers.set('connection', 'close');
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    outgoing?.once('finish', () => outgoing.socket?.destroy());
  });

  // CORS_ENABLED (Gitea's [cors]): preflights on /api/v1 are answered before authentication, answers
  // name the allowed origin. Off, nothing is mounted and /api/v1 answers as it always has.
  const cors = config.cors.enabled ? createCors(config.cors) : undefined;
  if (cors) app.use('*', cors.handle);

  // A page on another site may make the browser send our credentials (cached Basic auth): state changes
  // from a foreign Origin are refused before anything else runs (reads are kept from it by the browser itself).
  // With CORS on, an origin it allows may write to /api/v1 unless the browser could have added those credentials.
  // The OAuth2 token endpoint and userinfo are called from other origins by design, with no such credentials.
  app.use('*', async (c, next) => {
    if (!READ_METHODS.has(c.req.method) && !isOAuthCorsPath(c.req.path) && !deps.origins.allows(c.req.header('origin'), c.req.header('host')) && !cors?.allowsWrite(c.req.path, c.req.method, c.req.raw.headers)) {
      return c.json(edgeErrorBody(c.req.path, CROSS_ORIGIN_REFUSED, deps.gitea.site.swaggerUrl), 403);
    }
    await next();
  });

  // Browsers get the console; every other client keeps the JSON index.
  mountConsole(app, deps.gitea.site);
  app.get('/', (c) =>
    c.json({
      name: 'Trunkline',
      ari: { docs: '/ari/api-docs/resources.json', events: '/ari/events?app=<name>' },
      sim: { docs: '/sim/api-docs.json' },
      gitea: { api: '/api/v1', docs: '/api/swagger.v1.json' },
    }),
  );

  // ARI: credentials before anything else (routing, docs, upgrades), then ARI's URL rules.
  for (const prefix of ['/ari', '/sim'] as const) {
    app.use(`${prefix}/*`, async (c, next) => {
      // A request sent over the event socket runs as the socket's user; every other one brings credentials.
      const user = (c.env as PresetUserEnv)?.[PRESET_ARI_USER] ?? ariAuth.authenticate(c.req.header('authorization'), apiKeyOf(c.req.url));
      if (!user) return c.json({ message: 'Authentication required' }, 401, REALM);
      // The simulation acts as the far end of calls: write users only.
      if (user.readOnly && (prefix === '/sim' || !READ_METHODS.has(c.req.method))) return c.json({ message: 'Write access denied' }, 403);
      if (c.req.path.endsWith('/')) {
        return c.json({ message: `ARI URLs do not end with a slash. Try ${c.req.path.replace(/\/+$/, '')}` }, 404);
      }
      c.set('ariUser', user);
      await next();
    });
  }

  // MAX_BODY_BYTES caps everything; ARI and /sim answer far smaller bodies (SECURITY.md, "Hostile input").
  const common = {
    maxBodyBytes: Math.min(config.maxBodyBytes, config.ariLimits.maxBodyBytes),
    maxUploadBytes: Math.min(config.maxBodyBytes, config.ariLimits.simAudioMaxBytes),
    limits: config.ariLimits,
    maxJsonDepth: config.maxJsonDepth,
    checkResponses: config.checkResponses,
    violations: deps.violations,
    log,
    beforeRespond: () => telephony.engine.commit(),
    ...(config.crashAfter ? { onAnswer: createCrashPoint(config.crashAfter, () => telephony.engine.freeze()) } : {}),
  };
  const ari = createAriBinder(app, { ...common, prefix: '/ari', injectFailure: (op) => telephony.faults.failing(op.resource, op.nickname) });
  const sim = createAriBinder(app, { ...common, prefix: '/sim' });
  const served = (op: Operation) => op === eventWebsocket || op === simEventTap || ari.mounted.has(op) || sim.mounted.has(op);
  mountDocs(app, served);
  mountAsterisk(ari, telephony);
  mountEndpoints(ari, telephony);
  mountChannels(ari, telephony);
  mountChannelMedia(ari, telephony);
  mountBridges(ari, telephony);
  mountRecordings(ari, telephony);
  mountSounds(ari, telephony);
  mountPlaybacks(ari, telephony);
  mountDeviceStates(ari, telephony);
  mountMailboxes(ari, telephony);
  mountEvents(ari, telephony);
  mountApplications(ari, telephony);
  mountSim(sim, telephony, deps.channelRepo, config.ariLimits.simHistoryMaxBytes);
  ari.finish();
  sim.finish();
  // The event socket is an upgrade; a plain GET gets Asterisk's answer for a non-upgrade request.
  for (const p of ['/ari/events', '/sim/events']) app.get(p, (c) => c.json({ message: 'Invalid request: expected a WebSocket upgrade' }, 400));

  mountApiReferences(app, deps.gitea.site);
  mountGitea(app, deps.gitea, {
    log,
    violations: deps.violations,
    checkResponses: config.checkResponses,
    maxBodyBytes: config.maxBodyBytes,
    maxJsonDepth: config.maxJsonDepth,
    production: config.production,
    ...(deps.answers ? { answers: deps.answers } : {}),
  });

  app.all('/ari/*', (c) => c.json({ message: 'Resource not found' }, 404));
  app.all('/sim/*', (c) => c.json({ message: 'Resource not found' }, 404));
  app.notFound((c) => c.json({ message: 'not found' }, 404));
  app.onError((err, c) => {
    log.error({ err }, 'unhandled error');
    return c.json({ message: 'Internal Server Error' }, 500);
  });
  return app;
}
