import { existsSync, readFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { parseEnv } from 'node:util';
import * as v from 'valibot';
import { parseCidr } from './ari/media/external-host-policy.js';
import { parseMediaClients, type MediaClientConfig } from './ari/media/media-clients-setting.js';
import type { OutboundConnectionConfig } from './ari/outbound/outbound-config.js';
import { localNetworksSetting, readOutboundConnections, type OutboundSource } from './ari/outbound/outbound-setting.js';
import { clockSetting, parseClockStart, type ClockSetting } from './ari/time/clock-setting.js';
import { corsEnv, corsSettings, type CorsSettings } from './config/cors-settings.js';
import { repositoryEnv, repositorySettings, type RepositorySettings } from './config/repository-settings.js';
import { bool, int } from './config/setting-schemas.js';

export interface AriUser {
  name: string;
  password: string;
  readOnly: boolean;
}

/** Bounds on what ARI and /sim clients may send and keep (README, "Configuration"; SECURITY.md). */
export interface AriLimits {
  /** Request bodies of ARI and /sim operations (MAX_BODY_BYTES still caps them). */
  maxBodyBytes: number;
  /** Any one string parameter, and any channel variable's value. */
  maxValueBytes: number;
  maxVariableNameBytes: number;
  /** Variables in one request's `variables` container. */
  maxVariables: number;
  /** Variables setChannelVar may leave on one channel; also the most global variables. */
  maxChannelVariables: number;
  /** Far-end audio uploads: bytes of the body, seconds once decoded; and the newest seconds of audio sent to a far end kept for heard.wav (0: none). */
  simAudioMaxBytes: number;
  simAudioMaxSeconds: number;
  simHeardMaxSeconds: number;
  /** One /sim/history answer. */
  simHistoryMaxBytes: number;
  /** Disk used by all recordings together. */
  recordingsMaxBytes: number;
  /** Longest recording, whatever maxDurationSeconds asks. */
  recordingMaxSeconds: number;
  /** Objects of one kind clients may make us keep: Stasis device states, mailboxes, dynamic configuration objects of one type, log channels added at run time, devices one application subscribes to. */
  maxStoredObjects: number;
  /** Entries the simulated far end keeps of each list (messages, REFERs, transfer NOTIFYs, contacts of one endpoint); the oldest go first. */
  simFarEndKeep: number;
}

/** `name:password[:ro]`, comma separated. Passwords may contain `:` (the last `:ro` is the flag). */
const ariUsers = v.pipe(
  v.string(),
  v.transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean)),
  v.check((list) => list.length > 0, 'ARI_USERS must name at least one user'),
  v.check((list) => list.every((u) => /^[^:]+:.+$/.test(u)), 'ARI_USERS entries must look like name:password or name:password:ro'),
  v.transform((list): AriUser[] =>
    list.map((entry) => {
      const i = entry.indexOf(':');
      let password = entry.slice(i + 1);
      const readOnly = password.endsWith(':ro');
      if (readOnly) password = password.slice(0, -3);
      return { name: entry.slice(0, i), password, readOnly };
    }),
  ),
);

/**
 * What HOST may be: an IPv4 literal (`127.0.0.1`, `0.0.0.0`), an IPv6
 * literal without brackets or zone (`::1`, `::`), `localhost`, or a host name
 * (RFC 1123 labels: letters, digits and inner hyphens, at most 63 characters
 * each, 253 in all, no trailing dot). A name whose last label is all digits is
 * a mistyped IPv4 address (`999.1.1.1`, `10.0.0`), not a name. Whether a name
 * resolves to an address of this machine is for listen() to find out.
 */
export function isListenHost(host: string): boolean {
  if (isIPv4(host)) return true;
  if (isIPv6(host)) return !host.includes('%');
  if (host.length > 253) return false;
  const labels = host.split('.');
  if (!labels.every((l) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(l))) return false;
  return !/^\d+$/.test(labels[labels.length - 1]!);
}

/** Every key the server reads; `.env.example` documents the same list. */
const Env = v.object({
  HOST: v.optional(v.pipe(v.string(), v.check(isListenHost, 'HOST must be an IP address (such as 127.0.0.1, 0.0.0.0 or ::1), localhost or a host name')), '127.0.0.1'),
  PORT: v.optional(int('PORT', 0, 65535), '8088'),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1, 'DATA_DIR must not be empty')), './data'),
  FIXTURES_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './fixtures'),
  ROOT_URL: v.optional(v.pipe(v.string(), v.url('ROOT_URL must be an absolute URL'))),
  ARI_USERS: v.optional(ariUsers, 'asterisk:asterisk'),
  ARI_CHANNELVARS: v.optional(
    v.pipe(v.string(), v.transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))),
    '',
  ),
  SIM_TIME_SCALE: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+(\.\d+)?$/, 'SIM_TIME_SCALE must be a positive number'),
      v.transform(Number),
      v.minValue(0.01, 'SIM_TIME_SCALE must be at least 0.01'),
      v.maxValue(1000, 'SIM_TIME_SCALE must be at most 1000'),
    ),
    '1',
  ),
  SIM_CLOCK: v.optional(v.picklist(['real', 'virtual'], 'SIM_CLOCK must be real or virtual'), 'real'),
  SIM_CLOCK_START: v.optional(v.pipe(v.string(), v.check((s) => parseClockStart(s) !== undefined, 'SIM_CLOCK_START must be an ISO instant such as 2025-01-01T00:00:00Z'))),
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'), 'info'),
  LOG_FORMAT: v.optional(v.picklist(['json', 'pretty'], 'LOG_FORMAT must be json or pretty'), 'json'),
  DB_SYNCHRONOUS: v.optional(v.picklist(['NORMAL', 'FULL'], 'DB_SYNCHRONOUS must be NORMAL or FULL'), 'NORMAL'),
  MAX_BODY_BYTES: v.optional(int('MAX_BODY_BYTES', 1024, 2 ** 31), String(50 * 1024 * 1024)),
  MAX_JSON_DEPTH: v.optional(int('MAX_JSON_DEPTH', 2, 1000), '64'),
  WS_MAX_PAYLOAD: v.optional(int('WS_MAX_PAYLOAD', 1024, 16 * 1024 * 1024), '65536'),
  WS_MAX_BUFFERED_BYTES: v.optional(int('WS_MAX_BUFFERED_BYTES', 64 * 1024, 2 ** 31), String(8 * 1024 * 1024)),
  HEADERS_TIMEOUT_MS: v.optional(int('HEADERS_TIMEOUT_MS', 100, 600_000), '30000'),
  WS_PING_INTERVAL_MS: v.optional(int('WS_PING_INTERVAL_MS', 100, 3_600_000), '30000'),
  CHANNEL_HISTORY_LIMIT: v.optional(int('CHANNEL_HISTORY_LIMIT', 0, 100_000_000), '100000'),
  TRUSTED_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean)),
      v.check((list) => list.every((o) => /^https?:\/\/[^/?#\s]+$/i.test(o)), 'TRUSTED_ORIGINS entries must be origins such as https://console.example.com'),
    ),
    '',
  ),
  EXTERNAL_MEDIA_ALLOWED_NETWORKS: v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean)),
      v.check((list) => list.every((c) => parseCidr(c) !== undefined), 'EXTERNAL_MEDIA_ALLOWED_NETWORKS entries must be CIDRs such as 10.0.0.0/8 or ::1/128'),
    ),
    '0.0.0.0/0,::/0',
  ),
  MEDIA_WEBSOCKET_CLIENTS: v.optional(v.pipe(v.string(), v.rawTransform(({ dataset, addIssue, NEVER }) => {
    try {
      return parseMediaClients(dataset.value);
    } catch (err) {
      addIssue({ message: (err as Error).message });
      return NEVER;
    }
  })), ''),
  // One switch for every WebSocket the server opens; the two older names are read as aliases (localNetworksSetting).
  WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS: v.optional(bool('WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS')),
  MEDIA_WEBSOCKET_ALLOW_LOOPBACK: v.optional(bool('MEDIA_WEBSOCKET_ALLOW_LOOPBACK')),
  MEDIA_WEBSOCKET_CONTROL_FORMAT: v.optional(v.picklist(['plain-text', 'json'], 'MEDIA_WEBSOCKET_CONTROL_FORMAT must be plain-text or json'), 'plain-text'),
  APP_RECONNECT_GRACE_MS: v.optional(int('APP_RECONNECT_GRACE_MS', 0, 3_600_000), '10000'),
  // ARI outbound WebSockets: JSON, read once ARI_USERS is known (outboundConnections below).
  ARI_OUTBOUND_WEBSOCKETS: v.optional(v.string()),
  ARI_OUTBOUND_WEBSOCKETS_FILE: v.optional(v.string()),
  ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS: v.optional(bool('ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS')),
  // ---- ARI and simulation input/disk limits (ariLimits below) ----
  ARI_MAX_BODY_BYTES: v.optional(int('ARI_MAX_BODY_BYTES', 1024, 2 ** 31), String(1024 * 1024)),
  ARI_MAX_VALUE_BYTES: v.optional(int('ARI_MAX_VALUE_BYTES', 64, 16 * 1024 * 1024), '8192'),
  ARI_MAX_VARIABLE_NAME_BYTES: v.optional(int('ARI_MAX_VARIABLE_NAME_BYTES', 8, 4096), '80'),
  ARI_MAX_VARIABLES: v.optional(int('ARI_MAX_VARIABLES', 1, 10_000), '128'),
  ARI_MAX_CHANNEL_VARIABLES: v.optional(int('ARI_MAX_CHANNEL_VARIABLES', 1, 100_000), '512'),
  SIM_AUDIO_MAX_BYTES: v.optional(int('SIM_AUDIO_MAX_BYTES', 1024, 2 ** 31), String(4 * 1024 * 1024)),
  SIM_AUDIO_MAX_SECONDS: v.optional(int('SIM_AUDIO_MAX_SECONDS', 1, 86_400), '300'),
  SIM_HEARD_MAX_SECONDS: v.optional(int('SIM_HEARD_MAX_SECONDS', 0, 3600), '60'),
  SIM_HISTORY_MAX_BYTES: v.optional(int('SIM_HISTORY_MAX_BYTES', 64 * 1024, 2 ** 31), String(4 * 1024 * 1024)),
  RECORDINGS_MAX_BYTES: v.optional(int('RECORDINGS_MAX_BYTES', 1, Number.MAX_SAFE_INTEGER), String(4 * 1024 ** 3)),
  RECORDING_MAX_SECONDS: v.optional(int('RECORDING_MAX_SECONDS', 1, 7 * 86_400), '14400'),
  ARI_MAX_STORED_OBJECTS: v.optional(int('ARI_MAX_STORED_OBJECTS', 1, 10_000_000), '10000'),
  SIM_FAR_END_KEEP: v.optional(int('SIM_FAR_END_KEEP', 1, 1_000_000), '1000'),
  CRASH_AFTER: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]+(#\d{1,6})?$/, 'CRASH_AFTER must be an operation nickname, optionally #N'))),
  CHECK_RESPONSES: v.optional(bool('CHECK_RESPONSES')),
  ...repositoryEnv,
  ...corsEnv,
  NODE_ENV: v.optional(v.string(), 'production'),
});

export type Config = RepositorySettings & {
  host: string;
  port: number;
  dataDir: string;
  fixturesDir: string;
  rootUrl: string | undefined;
  ariUsers: AriUser[];
  ariChannelVars: string[];
  simTimeScale: number;
  /** The real clock (sped up by simTimeScale), or a virtual one that moves only through /sim/clock/advance. */
  simClock: ClockSetting;
  logLevel: string; logFormat: 'json' | 'pretty';
  dbSynchronous: 'NORMAL' | 'FULL';
  maxBodyBytes: number;
  maxJsonDepth: number;
  wsMaxPayload: number;
  wsMaxBufferedBytes: number;
  wsPingIntervalMs: number;
  /** A connection that has not sent its request headers in this time gets 408 and is closed. */
  headersTimeoutMs: number;
  channelHistoryLimit: number;
  /** Browser origins besides our own that may change state and open event sockets. */
  trustedOrigins: string[];
  /** Networks external media may reach (link-local, multicast and the like never). */
  externalMediaNetworks: string[];
  /** Media WebSockets (externalMedia transport=websocket): client connections, default control format. */
  mediaWebsocket: { clients: Map<string, MediaClientConfig>; controlFormat: 'plain-text' | 'json' };
  /** Whether the WebSockets the server opens (outbound ARI, media clients) may reach loopback and private networks. */
  websocketClientAllowLocalNetworks: boolean;
  /** After a restart, how long restored channels wait for their Stasis applications to reconnect. */
  appReconnectGraceMs: number;
  /** Connections the server opens to applications' WebSocket servers, and where they were read from (read again on a res_ari reload). */
  ariOutbound: OutboundConnectionConfig[];
  ariOutboundSource: OutboundSource;
  ariLimits: AriLimits;
  /**
   * Test mode only (NODE_ENV=test): after answering the Nth request (default
   * the first) to this ARI or simulation operation, commit nothing more and
   * kill the process once the answer has left (crash-safety tests).
   */
  crashAfter: { nickname: string; nth: number } | undefined;
  /** Test mode: check every response and event against protocol/. */
  checkResponses: boolean;
  /** Cross-origin access to /api/v1 (Gitea's [cors]). */
  cors: CorsSettings;
  /** Production answers hide internal error texts and let raw files be cached longer. */
  production: boolean;
};

export class ConfigError extends Error {}

/** A setting read outside the valibot schema; its message names the setting, never a value. */
function checked<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

/** Reads `.env` (when present) under the real environment, which wins. */
export function readEnvironment(env: NodeJS.ProcessEnv = process.env, dotenvPath = '.env'): Record<string, string | undefined> {
  const fromFile = existsSync(dotenvPath) ? parseEnv(readFileSync(dotenvPath, 'utf8')) : {};
  const merged: Record<string, string | undefined> = { ...fromFile };
  for (const [k, val] of Object.entries(env)) if (val !== undefined) merged[k] = val;
  return merged;
}

/** Validates the environment; a bad value throws a ConfigError naming the key. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(Env.entries)) {
    const val = env[key];
    if (val !== undefined && val !== '') raw[key] = val;
  }
  const parsed = v.safeParse(Env, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0]!;
    const key = issue.path?.[0]?.key as string | undefined;
    const shown = key === 'ARI_USERS' || key === 'ADMIN_PASSWORD' || key === 'SECRET_KEY' || key === 'ARI_OUTBOUND_WEBSOCKETS' ? '(hidden)' : JSON.stringify(raw[key ?? ''] ?? '');
    throw new ConfigError(`invalid ${key ?? 'configuration'}: ${issue.message} (got ${shown})`);
  }
  const e = parsed.output;
  const simClock = clockSetting(e.SIM_CLOCK, e.SIM_CLOCK_START);
  if (typeof simClock === 'string') throw new ConfigError(`invalid SIM_CLOCK_START: ${simClock} (got ${JSON.stringify(e.SIM_CLOCK_START)})`);
  return {
    ariOutbound: checked(() => readOutboundConnections({ text: e.ARI_OUTBOUND_WEBSOCKETS, file: e.ARI_OUTBOUND_WEBSOCKETS_FILE }, e.ARI_USERS.map((u) => u.name))),
    ariOutboundSource: { text: e.ARI_OUTBOUND_WEBSOCKETS, file: e.ARI_OUTBOUND_WEBSOCKETS_FILE },
    websocketClientAllowLocalNetworks: checked(() => localNetworksSetting({
      WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS: e.WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS, ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS: e.ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS, MEDIA_WEBSOCKET_ALLOW_LOOPBACK: e.MEDIA_WEBSOCKET_ALLOW_LOOPBACK,
    })),
    host: e.HOST,
    port: e.PORT,
    dataDir: e.DATA_DIR,
    fixturesDir: e.FIXTURES_DIR,
    rootUrl: e.ROOT_URL,
    ariUsers: e.ARI_USERS,
    ariChannelVars: e.ARI_CHANNELVARS,
    simTimeScale: e.SIM_TIME_SCALE,
    simClock,
    logLevel: e.LOG_LEVEL, logFormat: e.LOG_FORMAT,
    dbSynchronous: e.DB_SYNCHRONOUS,
    maxBodyBytes: e.MAX_BODY_BYTES,
    maxJsonDepth: e.MAX_JSON_DEPTH,
    wsMaxPayload: e.WS_MAX_PAYLOAD,
    wsMaxBufferedBytes: e.WS_MAX_BUFFERED_BYTES,
    wsPingIntervalMs: e.WS_PING_INTERVAL_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    channelHistoryLimit: e.CHANNEL_HISTORY_LIMIT,
    trustedOrigins: e.TRUSTED_ORIGINS,
    externalMediaNetworks: e.EXTERNAL_MEDIA_ALLOWED_NETWORKS,
    mediaWebsocket: { clients: e.MEDIA_WEBSOCKET_CLIENTS, controlFormat: e.MEDIA_WEBSOCKET_CONTROL_FORMAT },
    appReconnectGraceMs: e.APP_RECONNECT_GRACE_MS,
    ariLimits: {
      maxBodyBytes: e.ARI_MAX_BODY_BYTES, maxValueBytes: e.ARI_MAX_VALUE_BYTES, maxVariableNameBytes: e.ARI_MAX_VARIABLE_NAME_BYTES,
      maxVariables: e.ARI_MAX_VARIABLES, maxChannelVariables: e.ARI_MAX_CHANNEL_VARIABLES, simAudioMaxBytes: e.SIM_AUDIO_MAX_BYTES, simAudioMaxSeconds: e.SIM_AUDIO_MAX_SECONDS, simHeardMaxSeconds: e.SIM_HEARD_MAX_SECONDS,
      simHistoryMaxBytes: e.SIM_HISTORY_MAX_BYTES, recordingsMaxBytes: e.RECORDINGS_MAX_BYTES, recordingMaxSeconds: e.RECORDING_MAX_SECONDS,
      maxStoredObjects: e.ARI_MAX_STORED_OBJECTS, simFarEndKeep: e.SIM_FAR_END_KEEP,
    },
    crashAfter: e.CRASH_AFTER && e.NODE_ENV === 'test' ? { nickname: e.CRASH_AFTER.split('#')[0]!, nth: Number(e.CRASH_AFTER.split('#')[1] ?? 1) } : undefined,
    checkResponses: e.CHECK_RESPONSES ?? e.NODE_ENV === 'test',
    ...repositorySettings(e),
    cors: corsSettings(e),
    production: e.NODE_ENV === 'production',
  };
}
