import * as v from 'valibot';
import { parseGoDuration } from '../util/go-duration.js';
import { bool, commaList, goDuration, int } from './setting-schemas.js';

/** The repository API's environment keys (Gitea's settings under our names); `.env.example` documents them. */
export const repositoryEnv = {
  ADMIN_USERNAME: v.optional(v.pipe(v.string(), v.regex(/^[\w.-]{1,40}$/, 'ADMIN_USERNAME may hold letters, digits, "_", "-" and "." (at most 40)'))),
  ADMIN_PASSWORD: v.optional(v.pipe(v.string(), v.minLength(8, 'ADMIN_PASSWORD must be at least 8 characters'))),
  ADMIN_EMAIL: v.optional(v.pipe(v.string(), v.email('ADMIN_EMAIL must be an email address'))),
  LFS_ENABLED: v.optional(bool('LFS_ENABLED'), 'true'),
  LFS_MAX_BATCH_SIZE: v.optional(int('LFS_MAX_BATCH_SIZE', 0, 1_000_000), '0'),
  API_MAX_BLOB_SIZE: v.optional(int('API_MAX_BLOB_SIZE', 0, 2 ** 31), String(10 * 1024 * 1024)),
  // Release files: Gitea's [attachment] MAX_SIZE (MiB) and [repository.release] ALLOWED_TYPES (empty: any).
  ATTACHMENT_MAX_SIZE: v.optional(int('ATTACHMENT_MAX_SIZE', 1, 1024 * 1024), '2048'),
  RELEASE_ALLOWED_TYPES: v.optional(v.string(), ''),
  DISABLE_QUERY_AUTH_TOKEN: v.optional(bool('DISABLE_QUERY_AUTH_TOKEN'), 'false'),
  // Failed password checks allowed per client address in a window (`10/15m`); `0` turns the limit off.
  LOGIN_THROTTLE: v.optional(
    v.pipe(
      v.string(),
      v.check((s) => s === '0' || (/^[1-9]\d{0,5}\/.+$/.test(s) && 'ns' in parseGoDuration(s.split('/')[1]!) && (parseGoDuration(s.split('/')[1]!) as { ns: bigint }).ns >= 1_000_000_000n), 'LOGIN_THROTTLE must be 0 or failures/window, such as 10/15m'),
      v.transform((s) => (s === '0' ? { failures: 0, windowMs: 0 } : { failures: Number(s.split('/')[0]), windowMs: Number((parseGoDuration(s.split('/')[1]!) as { ns: bigint }).ns / 1_000_000n) })),
    ),
    '10/15m',
  ),
  MIRROR_ENABLED: v.optional(bool('MIRROR_ENABLED'), 'true'),
  MIRROR_MIN_INTERVAL: v.optional(goDuration('MIRROR_MIN_INTERVAL'), '10m'),
  MIRROR_DEFAULT_INTERVAL: v.optional(goDuration('MIRROR_DEFAULT_INTERVAL'), '8h'),
  MIRROR_ALLOW_LOCAL_NETWORKS: v.optional(bool('MIRROR_ALLOW_LOCAL_NETWORKS'), 'false'),
  MIRROR_ALLOWED_DOMAINS: v.optional(v.string(), ''),
  MIRROR_BLOCKED_DOMAINS: v.optional(v.string(), ''),
  MIRROR_QUEUE_CONCURRENCY: v.optional(int('MIRROR_QUEUE_CONCURRENCY', 1, 64), '4'),
  MIRROR_LFS_IDLE_TIMEOUT: v.optional(goDuration('MIRROR_LFS_IDLE_TIMEOUT'), '1m'),
  // Limits of a mirror's or migration's git network operation, and of waiting for them at shutdown.
  MIRROR_TIMEOUT: v.optional(goDuration('MIRROR_TIMEOUT'), '10m'),
  MIRROR_LOW_SPEED_LIMIT: v.optional(int('MIRROR_LOW_SPEED_LIMIT', 1, 2 ** 31), '1000'),
  MIRROR_LOW_SPEED_TIME: v.optional(goDuration('MIRROR_LOW_SPEED_TIME'), '30s'),
  MIRROR_SHUTDOWN_GRACE: v.optional(goDuration('MIRROR_SHUTDOWN_GRACE'), '10s'),
  SECRET_KEY: v.optional(v.pipe(v.string(), v.minLength(16, 'SECRET_KEY must be at least 16 characters'))),
  // Repository archives (git archive / git bundle processes): at once in all, per client, waiting.
  ARCHIVE_MAX_CONCURRENT: v.optional(int('ARCHIVE_MAX_CONCURRENT', 1, 256), '2'),
  ARCHIVE_MAX_PER_CLIENT: v.optional(int('ARCHIVE_MAX_PER_CLIENT', 1, 256), '1'),
  ARCHIVE_QUEUE_LENGTH: v.optional(int('ARCHIVE_QUEUE_LENGTH', 0, 10_000), '16'),
};

/** The repository API's part of the configuration. */
export interface RepositorySettings {
  /** First-start admin account (a random password is generated when unset). */
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  adminEmail: string | undefined;
  lfsEnabled: boolean;
  /** 0: no limit (Gitea's default). */
  lfsMaxBatchSize: number;
  /** Files above this size are listed by the contents API without their content (Gitea's DEFAULT_MAX_BLOB_SIZE). */
  apiMaxBlobSize: number;
  /** The largest release file taken, in bytes (ATTACHMENT_MAX_SIZE is in MiB, as Gitea's MAX_SIZE). */
  attachmentMaxBytes: number;
  /** Which release files are taken: extensions, MIME types and wildcards (image/ followed by a star), comma-separated; empty: any. */
  releaseAllowedTypes: string;
  disableQueryAuthToken: boolean;
  /** Failed password checks allowed per client address in a window (0: no limit); an account allows five times as many from unfamiliar addresses. */
  loginThrottle: { failures: number; windowMs: number };
  mirrorEnabled: boolean;
  /** Nanoseconds (Go durations); a non-zero push mirror interval below the minimum is refused. */
  mirrorMinInterval: bigint;
  mirrorDefaultInterval: bigint;
  mirrorAllowLocalNetworks: boolean;
  mirrorAllowedDomains: string[];
  mirrorBlockedDomains: string[];
  /** Mirror syncs running at once. */
  mirrorQueueConcurrency: number;
  /** Milliseconds without a byte after which a mirror's LFS request is given up. */
  mirrorLfsIdleMs: number;
  /** Hard limit (ms) of one git network operation of a mirror or migration; HTTP low-speed limit (bytes/s over whole seconds); shutdown's wait for running syncs (ms). */
  mirrorTimeoutMs: number;
  mirrorLowSpeedLimit: number;
  mirrorLowSpeedTimeS: number;
  mirrorShutdownGraceMs: number;
  /** Seals mirror credentials at rest; without it a key is generated once and kept in DATA_DIR/secret.key. */
  secretKey: string | undefined;
  /** Archive downloads made at once, per client (user or address), and waiting in all. */
  archive: { maxConcurrent: number; maxPerClient: number; queueLength: number };
}

/** The repository settings from their validated environment values. */
export function repositorySettings(e: v.InferOutput<v.ObjectSchema<typeof repositoryEnv, undefined>>): RepositorySettings {
  return {
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    adminEmail: e.ADMIN_EMAIL,
    lfsEnabled: e.LFS_ENABLED,
    lfsMaxBatchSize: e.LFS_MAX_BATCH_SIZE,
    apiMaxBlobSize: e.API_MAX_BLOB_SIZE,
    attachmentMaxBytes: e.ATTACHMENT_MAX_SIZE * 1024 * 1024,
    releaseAllowedTypes: e.RELEASE_ALLOWED_TYPES,
    disableQueryAuthToken: e.DISABLE_QUERY_AUTH_TOKEN,
    loginThrottle: e.LOGIN_THROTTLE,
    mirrorEnabled: e.MIRROR_ENABLED,
    mirrorMinInterval: e.MIRROR_MIN_INTERVAL,
    mirrorDefaultInterval: e.MIRROR_DEFAULT_INTERVAL,
    mirrorAllowLocalNetworks: e.MIRROR_ALLOW_LOCAL_NETWORKS,
    mirrorAllowedDomains: commaList(e.MIRROR_ALLOWED_DOMAINS),
    mirrorBlockedDomains: commaList(e.MIRROR_BLOCKED_DOMAINS),
    mirrorQueueConcurrency: e.MIRROR_QUEUE_CONCURRENCY,
    mirrorLfsIdleMs: Math.max(1, Number(e.MIRROR_LFS_IDLE_TIMEOUT / 1_000_000n)),
    mirrorTimeoutMs: Math.max(1, Number(e.MIRROR_TIMEOUT / 1_000_000n)),
    mirrorLowSpeedLimit: e.MIRROR_LOW_SPEED_LIMIT,
    mirrorLowSpeedTimeS: Math.max(1, Math.ceil(Number(e.MIRROR_LOW_SPEED_TIME / 1_000_000n) / 1000)),
    mirrorShutdownGraceMs: Number(e.MIRROR_SHUTDOWN_GRACE / 1_000_000n),
    secretKey: e.SECRET_KEY,
    archive: { maxConcurrent: e.ARCHIVE_MAX_CONCURRENT, maxPerClient: e.ARCHIVE_MAX_PER_CLIENT, queueLength: e.ARCHIVE_QUEUE_LENGTH },
  };
}
